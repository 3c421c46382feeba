import { ApiError, CLIENT_ERROR_MESSAGES } from '@/lib/api-client';
import { toUser, type User } from './get-user';

/** A signed-in answer (login, verify-email): the bearer token and the account. */
export type AuthSession = { token: string; user: User };

/**
 * Reads `{ token, user }` defensively: without a token and a user it is no session, and the screen
 * reports a malformed answer instead of storing half a session.
 */
export function readAuthSession(raw: unknown, status = 200): AuthSession {
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const { token } = record;
  try {
    if (typeof token !== 'string' || token === '') throw new TypeError('the answer has no token');
    return { token, user: toUser(record.user) };
  } catch (cause) {
    throw new ApiError({ status, code: 'UNKNOWN_ERROR', message: CLIENT_ERROR_MESSAGES.UNKNOWN_ERROR, cause });
  }
}
