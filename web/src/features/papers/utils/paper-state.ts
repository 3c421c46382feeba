import type { Paper, PaperRecommendationResponse } from '@radar/shared';

export type PaperStatePatch = Partial<Pick<Paper, 'is_favorited' | 'is_saved'>>;

/**
 * A cached recommendation answer with one paper's favourite/save state replaced (the optimistic update
 * and the server's confirmation). The same object comes back when the paper is not in it, so lists
 * that do not show the paper do not re-render.
 */
export function patchRecommendedPaper(
  data: PaperRecommendationResponse | undefined,
  id: string,
  patch: PaperStatePatch,
): PaperRecommendationResponse | undefined {
  if (!data?.recommendations.some((paper) => paper.id === id)) return data;
  return {
    ...data,
    recommendations: data.recommendations.map((paper) => (paper.id === id ? { ...paper, ...patch } : paper)),
  };
}
