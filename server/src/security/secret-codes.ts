import { createHash, createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * Verification codes and reset tokens. Only hashes are stored. A 6-digit code has a million values,
 * so a plain hash would fall to an offline search: codes are keyed with an HMAC whose key derives from
 * the server secret. Reset tokens carry 256 random bits, so SHA-256 suffices.
 */
export class SecretCodes {
  private readonly codeKey: Buffer;

  constructor(serverSecret: string) {
    this.codeKey = Buffer.from(hkdfSync('sha256', serverSecret, 'radar', 'email verification codes', 32));
  }

  newVerificationCode(): string {
    return String(randomInt(0, 1_000_000)).padStart(6, '0');
  }

  /** Bound to the user, so a code hash cannot be replayed against another account. */
  hashVerificationCode(userId: string, code: string): string {
    return createHmac('sha256', this.codeKey).update(`${userId}:${code}`).digest('hex');
  }

  /** Constant-time comparison of a submitted code with a stored hash. */
  matchesVerificationCode(userId: string, code: string, storedHash: string): boolean {
    const submitted = Buffer.from(this.hashVerificationCode(userId, code), 'hex');
    const stored = Buffer.from(storedHash, 'hex');
    return submitted.length === stored.length && timingSafeEqual(submitted, stored);
  }

  newResetToken(): string {
    return randomBytes(32).toString('base64url');
  }

  hashResetToken(token: string): string {
    return createHash('sha256').update(token).digest('hex');
  }
}

/** For logs: lets operators correlate attempts on one address without writing the address down. */
export function emailFingerprint(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 16);
}
