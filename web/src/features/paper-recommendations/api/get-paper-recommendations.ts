import { API_PATHS } from '@radar/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { RECOMMENDATION_QUERY_KEYS } from '@/api/learning';
import { refetchWhileSourcesStart } from '@/components/recommendations/sources-starting';
import { api, REQUEST_TIMEOUTS } from '@/lib/api-client';
import { type PaperRecommendations, readPaperRecommendations } from '@/lib/spec-answers';
import {
  RecommendationServiceFailure,
  recommendationRetryDelay,
  shouldRetryRecommendation,
} from '../utils/recommendation-errors';
import { type PaperRecommendationParams, toPaperRecommendationQuery } from '../utils/recommendation-params';

const paperRecommendationKeys = {
  all: RECOMMENDATION_QUERY_KEYS.paper,
  list: (params: PaperRecommendationParams) =>
    [...paperRecommendationKeys.all, toPaperRecommendationQuery(params)] as const,
};

/** GET /api/auth/recommendations/papers/ (30 s time-out: ranking can take a while). */
async function getPaperRecommendations(
  params: PaperRecommendationParams,
  options: { signal?: AbortSignal } = {},
): Promise<PaperRecommendations> {
  const response = await api.get<{ success?: unknown; recommendations?: unknown } | null>(
    API_PATHS.paperRecommendations,
    {
      query: toPaperRecommendationQuery(params),
      timeoutMs: REQUEST_TIMEOUTS.recommendation,
      signal: options.signal,
    },
  );
  if (response?.success !== true || !Array.isArray(response.recommendations)) throw new RecommendationServiceFailure();
  return readPaperRecommendations(response);
}

/** Retries: 3 attempts, 2 s times the attempt number between them. */
const paperRecommendationsQuery = (params: PaperRecommendationParams) =>
  queryOptions({
    queryKey: paperRecommendationKeys.list(params),
    queryFn: ({ signal }) => getPaperRecommendations(params, { signal }),
    retry: shouldRetryRecommendation,
    retryDelay: recommendationRetryDelay,
  });

/** Loads only when `enabled` (the user has a research summary); asks again while the first fetch runs. */
export function usePaperRecommendations(params: PaperRecommendationParams, enabled: boolean) {
  return useQuery({ ...paperRecommendationsQuery(params), enabled, refetchInterval: refetchWhileSourcesStart });
}
