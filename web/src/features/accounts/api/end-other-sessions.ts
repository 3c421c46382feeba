import { API_PATHS, type EndSessionsResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** POST /api/auth/sessions/logout-others/: every device but this one is logged out (beyond the spec). */
export function endOtherSessions(): Promise<EndSessionsResponse> {
  return api.post<EndSessionsResponse>(API_PATHS.logoutOtherSessions);
}
