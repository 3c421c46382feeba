import { API_PATHS, type ChangePasswordRequest, type EndSessionsResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/**
 * POST /api/auth/password/change/ (beyond the spec): needs the current password; the other devices are
 * logged out, this one stays. A wrong current password is a 400 with the message to show.
 */
export function changePassword(body: ChangePasswordRequest): Promise<EndSessionsResponse> {
  return api.post<EndSessionsResponse>(API_PATHS.changePassword, body);
}
