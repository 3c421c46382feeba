import type { ArticleFavoriteResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** POST /articles/{id}/favorite/: toggles, answers the new state. */
export function toggleFavorite(id: string): Promise<ArticleFavoriteResponse> {
  return api.post<ArticleFavoriteResponse>(`/articles/${encodeURIComponent(id)}/favorite/`);
}
