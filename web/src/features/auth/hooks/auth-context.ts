import { createContext } from 'react';
import type { User } from '../api/get-user';

/** loading: a token is stored and the profile is being fetched; the guard waits instead of redirecting. */
export type AuthStatus = 'loading' | 'authenticated' | 'anonymous';

export type AuthContextValue = {
  status: AuthStatus;
  user: User | null;
  isAuthenticated: boolean;
  /** The server refused this tab's session (a 401): the login expired; cleared by the next login or logout. */
  hasSessionExpired: boolean;
  /** After a successful login or e-mail verification: stores the session and loads the profile. */
  signIn: (session: { token: string; email: string }) => Promise<void>;
  /** Ends the session on the server (POST /api/auth/logout/, not awaited), clears token and email and goes to / (replace). */
  logout: () => void;
  /** Re-reads the profile, e.g. after the research info was saved. */
  refreshUser: () => Promise<void>;
};

export const AuthContext = createContext<AuthContextValue | null>(null);
