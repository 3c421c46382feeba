import type { ArticleShareResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** POST /articles/{id}/share/: counts the share and answers the link to pass on. */
export function shareArticle(id: string): Promise<ArticleShareResponse> {
  return api.post<ArticleShareResponse>(`/articles/${encodeURIComponent(id)}/share/`);
}
