import { queryOptions, useQuery } from '@tanstack/react-query';
import { RECOMMENDATION_QUERY_KEYS } from '@/api/learning';
import { api, REQUEST_TIMEOUTS } from '@/lib/api-client';
import { type PaperRecommendations, readPaperRecommendations } from '@/lib/spec-answers';
import {
  RecommendationServiceFailure,
  recommendationRetryDelay,
  shouldRetryRecommendation,
} from '../utils/recommendation-errors';
import { type PaperRecommendationParams, toPaperRecommendationQuery } from '../utils/recommendation-params';

export const paperRecommendationKeys = {
  all: RECOMMENDATION_QUERY_KEYS.paper,
  list: (params: PaperRecommendationParams) =>
    [...paperRecommendationKeys.all, toPaperRecommendationQuery(params)] as const,
};

/** GET /api/auth/recommendations/papers/ (spec section 7; 30 s time-out). */
export async function getPaperRecommendations(
  params: PaperRecommendationParams,
  options: { signal?: AbortSignal } = {},
): Promise<PaperRecommendations> {
  const response = await api.get<{ success?: unknown; recommendations?: unknown } | null>(
    '/api/auth/recommendations/papers/',
    {
      query: toPaperRecommendationQuery(params),
      timeoutMs: REQUEST_TIMEOUTS.recommendation,
      signal: options.signal,
    },
  );
  if (response?.success !== true || !Array.isArray(response.recommendations)) throw new RecommendationServiceFailure();
  return readPaperRecommendations(response);
}

/** The retry policy of spec sections 4 and 9: 3 attempts, 2 s times the attempt number between them. */
export const paperRecommendationsQuery = (params: PaperRecommendationParams) =>
  queryOptions({
    queryKey: paperRecommendationKeys.list(params),
    queryFn: ({ signal }) => getPaperRecommendations(params, { signal }),
    retry: shouldRetryRecommendation,
    retryDelay: recommendationRetryDelay,
  });

/** Loads only when `enabled` (the user has a research summary). */
export function usePaperRecommendations(params: PaperRecommendationParams, enabled: boolean) {
  return useQuery({ ...paperRecommendationsQuery(params), enabled });
}
