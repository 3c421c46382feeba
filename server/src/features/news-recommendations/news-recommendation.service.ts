import type { UserRow } from '@radar/db';
import type { RecommendationPipeline } from '@radar/recommend';
import type { NewsRecommendationQuery, NewsRecommendationResponse } from '@radar/shared';
import { presentNewsItem, presentPagination } from '../../presenters/news.presenter';

/** News recommended by similarity to the research profile (news search is features/news-search). */
export class NewsRecommendationService {
  constructor(
    private readonly deps: {
      /** The ranking pipeline shared with paper recommendations and keyword alerts (@radar/recommend). */
      pipeline: RecommendationPipeline;
    },
  ) {}

  /**
   * GET /api/news/recommendations/ (RecommendationPipeline.recommendNews): total_count is the size of
   * the recommended set and page/page_size slice it (a page past the end is empty).
   */
  async recommend(user: UserRow, query: NewsRecommendationQuery): Promise<NewsRecommendationResponse> {
    const result = await this.deps.pipeline.recommendNews(user, query);
    const byId = new Map(result.ranked.map((item) => [item.id, item]));
    return {
      data: result.page.views.map((view) => {
        const ranked = byId.get(view.id);
        return {
          ...presentNewsItem(view, {
            isRecommended: true,
            score: ranked?.similarity ?? null,
            reason: result.page.reasons.get(view.id),
          }),
          // Only for a reader with several interests: the card says which one it serves.
          ...(ranked?.interest ? { interest: ranked.interest } : {}),
        };
      }),
      pagination: presentPagination(result.ranked.length, query.page, query.pageSize),
      learning: result.learning,
      freshness: result.freshness,
      empty_explanation: result.emptyExplanation,
      has_more: result.hasMore,
    };
  }
}
