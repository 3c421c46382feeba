import type { TaskSubmittedResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** POST /api/auth/research-direction/process-async/: queues the analysis of pasted homepage text. */
export function submitResearchAnalysis(researchDescription: string): Promise<TaskSubmittedResponse> {
  return api.post<TaskSubmittedResponse>('/api/auth/research-direction/process-async/', {
    research_description: researchDescription,
  });
}
