import type { Paper } from '@radar/shared';

/** The per-user state of a paper that its card's buttons change. */
export type PaperStatePatch = Partial<Pick<Paper, 'is_favorited' | 'is_saved' | 'rating'>>;

/** Where the API's answers list papers: recommendations, and search and library pages. */
const PAPER_LIST_FIELDS = ['recommendations', 'results'] as const;

const hasId = (item: unknown, id: string): item is { id: string } =>
  typeof item === 'object' && item !== null && (item as { id?: unknown }).id === id;

/**
 * A cached API answer with one paper's state changed wherever the answer lists it. Any other answer, or
 * one without that paper, comes back as the same object, so it can be applied to every cached query
 * and only the lists that show the paper re-render. The cached object itself is never changed.
 */
export function patchPaperInAnswer<T>(data: T, id: string, patch: PaperStatePatch): T {
  if (typeof data !== 'object' || data === null) return data;
  let patched: Record<string, unknown> | null = null;
  for (const field of PAPER_LIST_FIELDS) {
    const list: unknown = (data as Record<string, unknown>)[field];
    if (!Array.isArray(list) || !list.some((item) => hasId(item, id))) continue;
    patched ??= { ...(data as Record<string, unknown>) };
    patched[field] = list.map((item: unknown) => (hasId(item, id) ? { ...item, ...patch } : item));
  }
  return (patched ?? data) as T;
}

/** As patchPaperInAnswer, for a news item's rating in a news answer (items under `data`). */
export function patchNewsInAnswer<T>(data: T, id: string, patch: { rating: 1 | -1 | null }): T {
  if (typeof data !== 'object' || data === null) return data;
  const list: unknown = (data as Record<string, unknown>).data;
  if (!Array.isArray(list) || !list.some((item) => hasId(item, id))) return data;
  return { ...data, data: list.map((item: unknown) => (hasId(item, id) ? { ...item, ...patch } : item)) } as T;
}
