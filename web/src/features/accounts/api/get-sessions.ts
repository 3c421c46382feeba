import { API_PATHS, type SessionListResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

export const SESSIONS_QUERY_KEY = ['auth', 'sessions'] as const;

/** GET /api/auth/sessions/: the account's active logins, this one first (beyond the spec). */
export function getSessions({ signal }: { signal?: AbortSignal } = {}): Promise<SessionListResponse> {
  return api.get<SessionListResponse>(API_PATHS.sessions, { signal });
}
