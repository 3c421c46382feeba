import { API_PATHS, apiPath, type KeywordRemoveResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** POST /user-keywords/{id}/remove/. */
export function removeKeyword(id: string): Promise<KeywordRemoveResponse> {
  return api.post<KeywordRemoveResponse>(apiPath(API_PATHS.removeKeyword, { id }));
}
