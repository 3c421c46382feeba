import { API_PATHS, type ResearchConfirmRequest, type ResearchConfirmResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** POST /api/auth/research-direction/confirm/: saves the research-profile fields and recomputes the profile vector. */
export function confirmResearchProfile(body: ResearchConfirmRequest): Promise<ResearchConfirmResponse> {
  return api.post<ResearchConfirmResponse>(API_PATHS.researchConfirm, body);
}
