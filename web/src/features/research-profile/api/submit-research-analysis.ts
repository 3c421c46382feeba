import { API_PATHS, type TaskSubmittedResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** POST /api/auth/research-direction/process-async/: queues the analysis of pasted homepage text. */
export function submitResearchAnalysis(researchDescription: string): Promise<TaskSubmittedResponse> {
  return api.post<TaskSubmittedResponse>(API_PATHS.researchAnalysisAsync, {
    research_description: researchDescription,
  });
}
