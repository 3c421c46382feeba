import { RESEARCH_CONFIRM_FIELDS } from './profile-update';
import { forgetRetryDeadline } from './retry-deadlines';

/**
 * The browser session: the bearer token and the account email in localStorage, plus a signal for "the server says the session is over" (any 401).
 * The auth feature owns the React state; this module is the storage and the signal only, so the
 * API client can use it without depending on React.
 */
export const SESSION_STORAGE_KEYS = { token: 'token', userEmail: 'userEmail' } as const;

/** Research-profile fields cached by the account screens; dropped at login so one account never sees another's. */
export const RESEARCH_CACHE_STORAGE_KEYS = ['research_description', ...RESEARCH_CONFIRM_FIELDS] as const;

/**
 * localStorage key of the forgot-password rate-limit deadlines, per e-mail address (lib/retry-deadlines):
 * it holds addresses, so it goes with the session's personal data.
 */
export const FORGOT_PASSWORD_RETRY_STORAGE_KEY = 'forgotPasswordRetryAt';

/**
 * Every stored item that holds personal data: the token, the account's address, the research profile (the
 * pasted homepage text, the e-mail and name read from it) and addresses waiting out a rate limit. Logout,
 * a 401 and a failed load remove them all, so the next person at a shared computer finds none. What stays
 * holds nobody's data: the applied recommendation settings and the guide's 'never remind'.
 */
const PERSONAL_DATA_STORAGE_KEYS = [
  SESSION_STORAGE_KEYS.token,
  SESSION_STORAGE_KEYS.userEmail,
  ...RESEARCH_CACHE_STORAGE_KEYS,
  FORGOT_PASSWORD_RETRY_STORAGE_KEY,
] as const;

type SessionListener = () => void;
const expiredListeners = new Set<SessionListener>();

/** localStorage, or null where it does not exist or is blocked (private modes, tests in Node). */
function getStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function getToken(): string | null {
  return getStorage()?.getItem(SESSION_STORAGE_KEYS.token) || null;
}

/** Login: stores token and email and clears the cached research fields. */
export function storeSession(token: string, email: string): void {
  const storage = getStorage();
  if (!storage) return;
  storage.setItem(SESSION_STORAGE_KEYS.token, token);
  storage.setItem(SESSION_STORAGE_KEYS.userEmail, email);
  for (const key of RESEARCH_CACHE_STORAGE_KEYS) storage.removeItem(key);
}

/** Logout (and a 401, and a failed load): clears token and email, and every other item holding personal data. */
export function clearSession(): void {
  const storage = getStorage();
  for (const key of PERSONAL_DATA_STORAGE_KEYS) storage?.removeItem(key);
}

/**
 * The account's address changed: the stored address becomes the new one, and the old one is kept nowhere
 * (its rate-limit deadline goes; the research cache is rewritten from the reloaded profile).
 */
export function replaceSessionEmail(oldEmail: string, newEmail: string): void {
  const storage = getStorage();
  if (!storage) return;
  if (storage.getItem(SESSION_STORAGE_KEYS.token)) storage.setItem(SESSION_STORAGE_KEYS.userEmail, newEmail);
  forgetRetryDeadline(FORGOT_PASSWORD_RETRY_STORAGE_KEY, oldEmail);
}

/** Called by the API client on a 401: clears the session and tells whoever holds auth state. */
export function expireSession(): void {
  clearSession();
  for (const listener of expiredListeners) listener();
}

/** Subscribes to session expiry; returns the unsubscribe function. */
export function onSessionExpired(listener: SessionListener): () => void {
  expiredListeners.add(listener);
  return () => {
    expiredListeners.delete(listener);
  };
}
