import { type DateFilterLabel, LIMITS, NEWS_RECOMMENDATION_DEFAULTS } from '@radar/shared';
import { parseSharedParams, sharedParamsQuery, storedRecommendationParams } from '@/lib/recommendation-params';

/** Recommendation params of the news page, as stored in localStorage. */
export type NewsRecommendationParams = {
  topK: number;
  threshold: number;
  dateFilter: DateFilterLabel[];
  /** The chip 含已评价 (not in the spec), as on /papers: stored only when on. */
  includeRated?: boolean;
};

/** localStorage key of the applied news recommendation settings. */
export const NEWS_PARAMS_STORAGE_KEY = 'newsRecommendationParams';
/** News per page: 20. */
export const NEWS_PAGE_SIZE = LIMITS.newsPageSize;

export function defaultNewsParams(): NewsRecommendationParams {
  return {
    topK: NEWS_RECOMMENDATION_DEFAULTS.topK,
    threshold: NEWS_RECOMMENDATION_DEFAULTS.threshold,
    dateFilter: [...NEWS_RECOMMENDATION_DEFAULTS.dateFilter],
  };
}

/** The stored params, each field checked on its own; a missing or invalid field takes its default. */
export function parseNewsParams(stored: Record<string, unknown> | null): NewsRecommendationParams {
  return stored ? parseSharedParams(stored, NEWS_RECOMMENDATION_DEFAULTS) : defaultNewsParams();
}

/** normalise: the sliders' values on their grid, and 含已评价 present only when on; load and save: localStorage. */
const storedNewsParams = storedRecommendationParams(
  NEWS_PARAMS_STORAGE_KEY,
  NEWS_RECOMMENDATION_DEFAULTS,
  parseNewsParams,
);
export const { normalise: normaliseNewsParams, load: loadNewsParams, save: saveNewsParams } = storedNewsParams;

/** The query of GET /api/news/recommendations/: the shared settings (sharedParamsQuery) and the page. */
export function toNewsRecommendationQuery(params: NewsRecommendationParams, page: number) {
  const { include_rated, ...query } = sharedParamsQuery(params, NEWS_RECOMMENDATION_DEFAULTS);
  return { ...query, page, page_size: NEWS_PAGE_SIZE, ...(include_rated ? { include_rated } : {}) };
}

/** How many pages `total` items fill; the pagination shows only when there is more than one. */
export function pageCount(total: number, pageSize: number = NEWS_PAGE_SIZE): number {
  return total > 0 ? Math.ceil(total / pageSize) : 0;
}
