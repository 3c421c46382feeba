/**
 * The browser session: the bearer token and the account email in localStorage, plus a signal for "the server says the session is over" (any 401).
 * The auth feature owns the React state; this module is the storage and the signal only, so the
 * API client can use it without depending on React.
 */
export const SESSION_STORAGE_KEYS = { token: 'token', userEmail: 'userEmail' } as const;

/** Research-profile fields cached by the account screens; dropped at login so one account never sees another's. */
export const RESEARCH_CACHE_STORAGE_KEYS = [
  'research_description',
  'research_name',
  'research_email',
  'research_institution',
  'research_position',
  'research_fields',
  'research_summary_en',
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

/** Logout: clears token and email. */
export function clearSession(): void {
  const storage = getStorage();
  storage?.removeItem(SESSION_STORAGE_KEYS.token);
  storage?.removeItem(SESSION_STORAGE_KEYS.userEmail);
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
