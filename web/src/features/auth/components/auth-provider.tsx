import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { clearSession, getToken, onSessionExpired, SESSION_STORAGE_KEYS, storeSession } from '@/lib/session';
import { getUser, getUserOnStart, type User } from '../api/get-user';
import { logoutOnServer } from '../api/logout';
import { AuthContext, type AuthContextValue, type AuthStatus } from '../hooks/auth-context';

type AuthState = {
  status: AuthStatus;
  user: User | null;
  /** The server ended a session this tab held (a 401), as opposed to a visitor who never logged in. */
  hasSessionExpired?: boolean;
};

const ANONYMOUS: AuthState = { status: 'anonymous', user: null };
const EXPIRED: AuthState = { status: 'anonymous', user: null, hasSessionExpired: true };

/**
 * Auth state: the token comes from localStorage; with one, the profile is fetched on
 * load and any failure of that load clears token and email (a later refresh keeps the session on a
 * network error). Any 401 (see lib/session) logs out. Lives inside the
 * router so that logout can navigate.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>(() => (getToken() ? { status: 'loading', user: null } : ANONYMOUS));
  // Each load gets a number; a response that arrives after a newer load, a logout or a 401 is dropped.
  const generation = useRef(0);
  // The state as of the last render, for loadUser's failure rule without re-creating loadUser.
  const stateRef = useRef(state);
  stateRef.current = state;

  // Cached server data belongs to one account: it goes when the account does (logout, 401, new login).
  const becomeAnonymous = useCallback(
    ({ hasSessionExpired = false }: { hasSessionExpired?: boolean } = {}) => {
      generation.current += 1;
      queryClient.clear();
      setState(hasSessionExpired ? EXPIRED : ANONYMOUS);
    },
    [queryClient],
  );

  // A 401 while a token was held (signed in, or a stored token being checked) means the login expired:
  // the landing page then says so instead of treating the reader as a visitor who never logged in. A
  // 401 with no session (a stray request) changes nothing the reader was told.
  const expireSession = useCallback(() => {
    const { status, hasSessionExpired } = stateRef.current;
    becomeAnonymous({ hasSessionExpired: hasSessionExpired === true || status !== 'anonymous' });
  }, [becomeAnonymous]);

  /**
   * Loads the account. On load (and after a login) a failure logs out: a token that cannot load its account is no session. A
   * refresh of a signed-in account (after a profile save) keeps the session on a network error or a
   * 5xx: the user stays on the page with the account as it was, and the next refresh or reload tries
   * again; a 401 still logs out (lib/session).
   */
  const loadUser = useCallback(async ({ isRefresh = false, isStart = false } = {}) => {
    const current = ++generation.current;
    if (!getToken()) {
      setState(ANONYMOUS);
      return;
    }
    setState((previous) => (previous.status === 'authenticated' ? previous : { status: 'loading', user: null }));
    try {
      // The load on start takes the request the entry started before the app rendered (app/early-requests).
      const user = await (isStart ? getUserOnStart() : getUser());
      if (current === generation.current) setState({ status: 'authenticated', user });
    } catch {
      if (current !== generation.current) return;
      if (isRefresh && stateRef.current.status === 'authenticated') return;
      clearSession();
      setState(ANONYMOUS);
    }
  }, []);
  const refreshUser = useCallback(() => loadUser({ isRefresh: true }), [loadUser]);

  useEffect(() => {
    if (getToken()) void loadUser({ isStart: true });
  }, [loadUser]);

  useEffect(() => onSessionExpired(expireSession), [expireSession]);

  // Logging in or out in another tab changes the token under us.
  useEffect(() => {
    const handleStorage = (event: StorageEvent) => {
      if (event.key !== null && event.key !== SESSION_STORAGE_KEYS.token) return;
      if (getToken()) void loadUser();
      else becomeAnonymous();
    };
    window.addEventListener('storage', handleStorage);
    return () => window.removeEventListener('storage', handleStorage);
  }, [loadUser, becomeAnonymous]);

  const signIn = useCallback(
    async ({ token, email }: { token: string; email: string }) => {
      storeSession(token, email);
      queryClient.clear();
      await loadUser();
    },
    [loadUser, queryClient],
  );

  // The session ends on the server too; locally it ends at once, whether or not that call gets through
  // (offline, server down): the token is forgotten either way.
  const logout = useCallback(() => {
    const token = getToken();
    if (token) void logoutOnServer(token).catch(() => {});
    clearSession();
    becomeAnonymous();
    navigate(paths.home.getHref(), { replace: true });
  }, [becomeAnonymous, navigate]);

  const value = useMemo<AuthContextValue>(
    () => ({
      status: state.status,
      user: state.user,
      isAuthenticated: state.status === 'authenticated',
      hasSessionExpired: state.hasSessionExpired === true,
      signIn,
      logout,
      refreshUser,
    }),
    [state, signIn, logout, refreshUser],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
