import type { ArticleReadResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** POST /articles/{id}/read/ `{ progress }` (0-100): the server keeps the furthest progress and answers it. */
export function recordRead(id: string, progress: number): Promise<ArticleReadResponse> {
  return api.post<ArticleReadResponse>(`/articles/${encodeURIComponent(id)}/read/`, { progress });
}
