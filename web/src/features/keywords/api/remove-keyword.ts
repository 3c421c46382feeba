import type { KeywordRemoveResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** POST /user-keywords/{id}/remove/. */
export function removeKeyword(id: string): Promise<KeywordRemoveResponse> {
  return api.post<KeywordRemoveResponse>(`/user-keywords/${encodeURIComponent(id)}/remove/`);
}
