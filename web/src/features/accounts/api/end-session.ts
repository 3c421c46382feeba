import { API_PATHS, apiPath, type EndSessionsResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** DELETE /api/auth/sessions/{id}/: logs one device out (beyond the spec). */
export function endSession(id: string): Promise<EndSessionsResponse> {
  return api.delete<EndSessionsResponse>(apiPath(API_PATHS.session, { id }));
}
