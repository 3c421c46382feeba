import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Whether the request presents the operator token (`Authorization: Bearer <OPERATOR_TOKEN>`). Never
 * true when no token is configured. Compared in constant time over equal-length digests, so neither
 * the token's characters nor its length can be found by timing the answers.
 */
export function hasOperatorToken(authorization: string | undefined, operatorToken: string | undefined): boolean {
  if (!operatorToken || !authorization?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(authorization.slice('Bearer '.length)), digest(operatorToken));
}
