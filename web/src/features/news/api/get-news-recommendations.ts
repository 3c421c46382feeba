import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { RECOMMENDATION_QUERY_KEYS } from '@/api/learning';
import { api } from '@/lib/api-client';
import { type NewsRecommendations, readNewsRecommendations } from '@/lib/spec-answers';
import { NEWS_PAGE_SIZE, type NewsRecommendationParams, toNewsRecommendationQuery } from '../utils/news-params';

export const newsRecommendationKeys = {
  all: RECOMMENDATION_QUERY_KEYS.news,
  page: (params: NewsRecommendationParams, page: number) =>
    [...newsRecommendationKeys.all, toNewsRecommendationQuery(params, page)] as const,
};

/** GET /api/news/recommendations/ (spec section 7): one page of the recommended news, with freshness and why it is empty. */
export async function getNewsRecommendations(
  params: NewsRecommendationParams,
  page: number,
  options: { signal?: AbortSignal } = {},
): Promise<NewsRecommendations> {
  const answer = await api.get<unknown>('/api/news/recommendations/', {
    query: toNewsRecommendationQuery(params, page),
    signal: options.signal,
  });
  return readNewsRecommendations(answer, NEWS_PAGE_SIZE);
}

export const newsRecommendationsQuery = (params: NewsRecommendationParams, page: number) =>
  queryOptions({
    queryKey: newsRecommendationKeys.page(params, page),
    queryFn: ({ signal }) => getNewsRecommendations(params, page, { signal }),
  });

/**
 * Loads only when `enabled` (the user has a research summary). While another page loads, the current
 * one stays on screen.
 */
export function useNewsRecommendations(params: NewsRecommendationParams, page: number, enabled: boolean) {
  return useQuery({ ...newsRecommendationsQuery(params, page), enabled, placeholderData: keepPreviousData });
}
