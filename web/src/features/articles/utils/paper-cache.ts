import type { Paper } from '@radar/shared';

/** The per-user state of a paper that its action buttons change. */
export type PaperStatePatch = Partial<Pick<Paper, 'is_favorited' | 'is_saved'>>;

/**
 * A cached page of papers with one paper's state changed (a new object when it is on the page, the
 * same one otherwise), so a toggle shows at once on every cached search and library page.
 */
export function patchPaperInPage<T extends { results: readonly Paper[] }>(
  data: T | undefined,
  id: string,
  patch: PaperStatePatch,
): T | undefined {
  if (!data?.results.some((paper) => paper.id === id)) return data;
  return { ...data, results: data.results.map((paper) => (paper.id === id ? { ...paper, ...patch } : paper)) };
}
