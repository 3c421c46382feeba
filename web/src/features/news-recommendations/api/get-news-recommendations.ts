import { API_PATHS } from '@radar/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { RECOMMENDATION_QUERY_KEYS } from '@/api/learning';
import { refetchWhileSourcesStart } from '@/components/recommendations/sources-starting';
import { api } from '@/lib/api-client';
import { type NewsRecommendations, readNewsRecommendations } from '@/lib/spec-answers';
import { NEWS_PAGE_SIZE, type NewsRecommendationParams, toNewsRecommendationQuery } from '../utils/news-params';

const newsRecommendationKeys = {
  all: RECOMMENDATION_QUERY_KEYS.news,
  page: (params: NewsRecommendationParams, page: number) =>
    [...newsRecommendationKeys.all, toNewsRecommendationQuery(params, page)] as const,
};

/** GET /api/news/recommendations/: one page of the recommended news, with freshness and why it is empty. */
async function getNewsRecommendations(
  params: NewsRecommendationParams,
  page: number,
  options: { signal?: AbortSignal } = {},
): Promise<NewsRecommendations> {
  const answer = await api.get<unknown>(API_PATHS.newsRecommendations, {
    query: toNewsRecommendationQuery(params, page),
    signal: options.signal,
  });
  return readNewsRecommendations(answer, NEWS_PAGE_SIZE);
}

const newsRecommendationsQuery = (params: NewsRecommendationParams, page: number) =>
  queryOptions({
    queryKey: newsRecommendationKeys.page(params, page),
    queryFn: ({ signal }) => getNewsRecommendations(params, page, { signal }),
  });

/**
 * Loads only when `enabled` (the user has a research summary). While another page loads, the current
 * one stays on screen. Asked again while the reader's sources fetch for the first time.
 */
export function useNewsRecommendations(params: NewsRecommendationParams, page: number, enabled: boolean) {
  return useQuery({
    ...newsRecommendationsQuery(params, page),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: refetchWhileSourcesStart,
  });
}
