import { API_PATHS } from '@radar/shared';
import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { RECOMMENDATION_QUERY_KEYS } from '@/api/learning';
import { refetchWhileSourcesStart } from '@/components/recommendations/sources-starting';
import { api, REQUEST_TIMEOUTS } from '@/lib/api-client';
import { takeEarlyGet } from '@/lib/early-answers';
import { appendPages, excludeIdsQuery, loadMoreState } from '@/lib/load-more';
import { type PaperRecommendations, readPaperRecommendations } from '@/lib/spec-answers';
import {
  RecommendationServiceFailure,
  recommendationRetryDelay,
  shouldRetryRecommendation,
} from '../utils/recommendation-errors';
import { type PaperRecommendationParams, toPaperRecommendationQuery } from '../utils/recommendation-params';

/**
 * The query of one answer: the settings, and for an appended one (加载更多) the ids shown before it. Each
 * answer is a cached query of its own under the recommendation lists' key, so the card actions (rating,
 * 不感兴趣, favourite) find and patch the appended cards as they do the first ones.
 */
const toQuery = (params: PaperRecommendationParams, shownIds: readonly string[]) => ({
  ...toPaperRecommendationQuery(params),
  ...excludeIdsQuery(shownIds),
});

const paperRecommendationKeys = {
  all: RECOMMENDATION_QUERY_KEYS.paper,
  list: (params: PaperRecommendationParams, shownIds: readonly string[]) =>
    [...paperRecommendationKeys.all, toQuery(params, shownIds)] as const,
};

/** GET /api/auth/recommendations/papers/ (30 s time-out: ranking can take a while). */
async function getPaperRecommendations(
  params: PaperRecommendationParams,
  shownIds: readonly string[],
  options: { signal?: AbortSignal } = {},
): Promise<PaperRecommendations> {
  type Answer = { success?: unknown; recommendations?: unknown } | null;
  const query = toQuery(params, shownIds);
  // The same request started before the page's code loaded (prefetch-paper-recommendations), if any.
  const early = takeEarlyGet<Answer>(API_PATHS.paperRecommendations, query);
  const response = early
    ? await early
    : await api.get<Answer>(API_PATHS.paperRecommendations, {
        query,
        timeoutMs: REQUEST_TIMEOUTS.recommendation,
        signal: options.signal,
      });
  if (response?.success !== true || !Array.isArray(response.recommendations)) throw new RecommendationServiceFailure();
  return readPaperRecommendations(response);
}

/** Retries: 3 attempts, 2 s times the attempt number between them. */
const paperRecommendationsQuery = (params: PaperRecommendationParams, shownIds: readonly string[] = []) =>
  queryOptions({
    queryKey: paperRecommendationKeys.list(params, shownIds),
    queryFn: ({ signal }) => getPaperRecommendations(params, shownIds, { signal }),
    retry: shouldRetryRecommendation,
    retryDelay: recommendationRetryDelay,
  });

/**
 * The recommendations of the settings `params`: the first answer (`query`, loaded only when `enabled`,
 * i.e. the user has a research summary; asked again while the sources fetch for the first time) and the
 * answers 加载更多 appended to it. `papers` is every recommended card in order, each id once; `loadMore`
 * asks for the papers after them, with all their ids in exclude_ids. New settings start from the first
 * answer again, and so does `reload` (retry, or applying the same settings).
 */
export function usePaperRecommendations(params: PaperRecommendationParams, enabled: boolean) {
  const query = useQuery({ ...paperRecommendationsQuery(params), enabled, refetchInterval: refetchWhileSourcesStart });
  const settingsKey = JSON.stringify(toPaperRecommendationQuery(params));
  const [appended, setAppended] = useState<{ settingsKey: string; shownIds: string[][] }>({
    settingsKey,
    shownIds: [],
  });
  // Other settings start from the first answer, also when they go back to earlier ones.
  if (appended.settingsKey !== settingsKey) setAppended({ settingsKey, shownIds: [] });
  const appendedShownIds = appended.settingsKey === settingsKey ? appended.shownIds : [];
  const more = useQueries({
    queries: appendedShownIds.map((shownIds) => ({ ...paperRecommendationsQuery(params, shownIds), enabled })),
  });

  const answers = query.data ? [query.data, ...more.flatMap((answer) => (answer.data ? [answer.data] : []))] : [];
  const papers = appendPages(answers.map((answer) => answer.recommendations));
  const lastMore = more.at(-1);
  // The last 加载更多 on its way (a first try or a retry): the button waits; failed, the error says so.
  const isLoadingMore = !!lastMore && !lastMore.data && lastMore.isFetching;
  const moreError = lastMore && !lastMore.data && !lastMore.isFetching ? lastMore.error : null;
  const moreState = isLoadingMore
    ? 'more'
    : moreError
      ? 'none'
      : loadMoreState(
          answers.map((answer) => ({ ids: answer.recommendations.map((paper) => paper.id), hasMore: answer.has_more })),
        );

  return {
    query,
    papers,
    /** 'more': offer 加载更多; 'end': 没有更多了 (after something was appended); 'none': neither. */
    moreState,
    isLoadingMore,
    /** Why the last 加载更多 failed (its papers are not there; retryMore asks again). */
    moreError,
    loadMore: () => {
      if (moreState !== 'more' || isLoadingMore) return;
      setAppended({ settingsKey, shownIds: [...appendedShownIds, papers.map((paper) => paper.id)] });
    },
    retryMore: () => void lastMore?.refetch(),
    reload: () => {
      setAppended({ settingsKey, shownIds: [] });
      void query.refetch();
    },
  };
}
