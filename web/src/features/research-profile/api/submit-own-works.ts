import { API_PATHS, type TaskSubmittedResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** POST /api/auth/research-direction/from-author-id/ (beyond the spec): seed the profile from an ORCID iD or OpenAlex author id. */
export function submitAuthorId(authorId: string): Promise<TaskSubmittedResponse> {
  return api.post<TaskSubmittedResponse>(API_PATHS.researchFromAuthorId, { author_id: authorId });
}

/** POST /api/auth/research-direction/from-library/ (beyond the spec): seed the profile from a library file's text. */
export function submitLibraryFile(fileName: string, content: string): Promise<TaskSubmittedResponse> {
  return api.post<TaskSubmittedResponse>(
    API_PATHS.researchFromLibrary,
    { file_name: fileName, content },
    // A 2 MB upload on a slow line takes longer than an ordinary call.
    { timeoutMs: 60_000 },
  );
}
