import type { ArticleSaveResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** POST /articles/{id}/save/: toggles "read later"; answers the new state. */
export function toggleSave(id: string): Promise<ArticleSaveResponse> {
  return api.post<ArticleSaveResponse>(`/articles/${encodeURIComponent(id)}/save/`);
}
