import type { ArticleShareResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** POST /articles/{id}/share/: counts the share and answers a link that opens the paper. */
export function sharePaper(id: string): Promise<ArticleShareResponse> {
  return api.post<ArticleShareResponse>(`/articles/${encodeURIComponent(id)}/share/`);
}
