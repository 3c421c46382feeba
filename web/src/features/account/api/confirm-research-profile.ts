import type { ResearchConfirmRequest, ResearchConfirmResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** POST /api/auth/research-direction/confirm/: saves the research-profile fields and recomputes the profile vector. */
export function confirmResearchProfile(body: ResearchConfirmRequest): Promise<ResearchConfirmResponse> {
  return api.post<ResearchConfirmResponse>('/api/auth/research-direction/confirm/', body);
}
