import { type DateFilterLabel, LIMITS, NEWS_RECOMMENDATION_DEFAULTS } from '@radar/shared';
import {
  dateFilterQueryValue,
  getLocalStorage,
  includeRatedField,
  includeRatedQuery,
  normaliseThreshold,
  normaliseTopK,
  parseDateFilterSelection,
  readStoredObject,
  writeStoredObject,
} from '@/lib/recommendation-params';

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
  const defaults = defaultNewsParams();
  if (!stored) return defaults;
  return {
    topK: normaliseTopK(stored.topK, defaults.topK),
    threshold: normaliseThreshold(stored.threshold, defaults.threshold),
    dateFilter: parseDateFilterSelection(stored.dateFilter, defaults.dateFilter),
    ...includeRatedField(stored.includeRated),
  };
}

/**
 * The params with the sliders' values on their grid (a slider's keyboard step gives 0.44999999999999996),
 * and 含已评价 present only when on.
 */
export function normaliseNewsParams(params: NewsRecommendationParams): NewsRecommendationParams {
  const { includeRated, ...rest } = params;
  return {
    ...rest,
    topK: normaliseTopK(params.topK, NEWS_RECOMMENDATION_DEFAULTS.topK),
    threshold: normaliseThreshold(params.threshold, NEWS_RECOMMENDATION_DEFAULTS.threshold),
    ...includeRatedField(includeRated),
  };
}

export function loadNewsParams(storage: Storage | null = getLocalStorage()): NewsRecommendationParams {
  return parseNewsParams(readStoredObject(storage, NEWS_PARAMS_STORAGE_KEY));
}

export function saveNewsParams(params: NewsRecommendationParams, storage: Storage | null = getLocalStorage()): void {
  writeStoredObject(storage, NEWS_PARAMS_STORAGE_KEY, normaliseNewsParams(params));
}

/**
 * The query of GET /api/news/recommendations/. An empty date selection is sent as an empty value (no
 * limit), not left out, which the API would read as its default (一周内). include_rated is sent only when
 * on.
 */
export function toNewsRecommendationQuery(params: NewsRecommendationParams, page: number) {
  const { topK, threshold } = normaliseNewsParams(params);
  return {
    top_k: topK,
    similarity_threshold: threshold,
    date_filter: dateFilterQueryValue(params.dateFilter),
    page,
    page_size: NEWS_PAGE_SIZE,
    ...includeRatedQuery(params.includeRated),
  };
}

/** How many pages `total` items fill; the pagination shows only when there is more than one. */
export function pageCount(total: number, pageSize: number = NEWS_PAGE_SIZE): number {
  return total > 0 ? Math.ceil(total / pageSize) : 0;
}
