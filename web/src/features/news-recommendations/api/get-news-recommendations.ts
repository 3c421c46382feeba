import { API_PATHS } from '@radar/shared';
import { keepPreviousData, queryOptions, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RECOMMENDATION_QUERY_KEYS } from '@/api/learning';
import { refetchWhileSourcesStart } from '@/components/recommendations/sources-starting';
import { api } from '@/lib/api-client';
import { takeEarlyGet } from '@/lib/early-answers';
import { appendPages, excludeIdsQuery, loadMoreState, MAX_SHOWN_IDS } from '@/lib/load-more';
import { type NewsRecommendations, readNewsRecommendations } from '@/lib/spec-answers';
import {
  NEWS_PAGE_SIZE,
  type NewsRecommendationParams,
  normaliseNewsParams,
  pageCount,
  toNewsRecommendationQuery,
} from '../utils/news-params';

/**
 * The query of one answer: a page of the recommended set (page, page_size 20), or a set 加载更多 appends:
 * the next top_k items after `shownIds`, all in one answer (page 1, page_size top_k). Each answer is a
 * cached query of its own under the news lists' key, so rating and 不感兴趣 patch appended items too.
 */
function toQuery(params: NewsRecommendationParams, page: number, shownIds: readonly string[]) {
  const query = toNewsRecommendationQuery(params, page);
  if (shownIds.length === 0) return query;
  return { ...query, page: 1, page_size: normaliseNewsParams(params).topK, ...excludeIdsQuery(shownIds) };
}

const newsRecommendationKeys = {
  all: RECOMMENDATION_QUERY_KEYS.news,
  page: (params: NewsRecommendationParams, page: number, shownIds: readonly string[]) =>
    [...newsRecommendationKeys.all, toQuery(params, page, shownIds)] as const,
};

/** GET /api/news/recommendations/: one page of the recommended news, with freshness and why it is empty. */
async function getNewsRecommendations(
  params: NewsRecommendationParams,
  page: number,
  shownIds: readonly string[],
  options: { signal?: AbortSignal } = {},
): Promise<NewsRecommendations> {
  const query = toQuery(params, page, shownIds);
  // The same request started before the page's code loaded (prefetch-news-recommendations), if any.
  const early = takeEarlyGet<unknown>(API_PATHS.newsRecommendations, query);
  const answer = early
    ? await early
    : await api.get<unknown>(API_PATHS.newsRecommendations, { query, signal: options.signal });
  return readNewsRecommendations(answer, NEWS_PAGE_SIZE);
}

const newsRecommendationsQuery = (params: NewsRecommendationParams, page: number, shownIds: readonly string[] = []) =>
  queryOptions({
    queryKey: newsRecommendationKeys.page(params, page, shownIds),
    queryFn: ({ signal }) => getNewsRecommendations(params, page, shownIds, { signal }),
  });

/**
 * The recommended news of the settings `params` on page `page` (`query`: loaded only when `enabled`, i.e.
 * the user has a research summary; while another page loads, the current one stays on screen; asked
 * again while the reader's sources fetch for the first time), and the sets 加载更多 appended below the
 * last page. `items` is the page's news and the appended ones, each id once. `loadMore` is offered on
 * the last page when the latest answer says has_more; it excludes every id this visit has shown of
 * these settings: the pages of the set the reader turned to (in the cache) and the appended items. New
 * settings, another page and `reload` start without appended sets.
 */
export function useNewsRecommendations(params: NewsRecommendationParams, page: number, enabled: boolean) {
  const queryClient = useQueryClient();
  const query = useQuery({
    ...newsRecommendationsQuery(params, page),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: refetchWhileSourcesStart,
  });
  const viewKey = JSON.stringify(toNewsRecommendationQuery(params, page));
  const [appended, setAppended] = useState<{ viewKey: string; shownIds: string[][] }>({ viewKey, shownIds: [] });
  // Other settings or another page start without appended sets, also when they go back to earlier ones.
  if (appended.viewKey !== viewKey) setAppended({ viewKey, shownIds: [] });
  const appendedShownIds = appended.viewKey === viewKey ? appended.shownIds : [];
  const more = useQueries({
    queries: appendedShownIds.map((shownIds) => ({ ...newsRecommendationsQuery(params, 1, shownIds), enabled })),
  });

  const { data } = query;
  const answers = data ? [data, ...more.flatMap((answer) => (answer.data ? [answer.data] : []))] : [];
  const items = appendPages(answers.map((answer) => answer.data));
  // The page of other settings, or another page, shown while this one loads offers nothing more.
  const isLastPage =
    !!data && !query.isPlaceholderData && page >= pageCount(data.pagination.total_count, NEWS_PAGE_SIZE);
  const lastMore = more.at(-1);
  const isLoadingMore = !!lastMore && !lastMore.data && lastMore.isFetching;
  const moreError = lastMore && !lastMore.data && !lastMore.isFetching ? lastMore.error : null;
  const moreState = isLoadingMore
    ? 'more'
    : moreError || !isLastPage
      ? 'none'
      : loadMoreState(answers.map((answer) => ({ ids: answer.data.map((item) => item.id), hasMore: answer.has_more })));

  /**
   * Ids of everything on screen, then of the set's earlier pages this visit loaded (the reader saw them);
   * at most the MAX_SHOWN_IDS the API takes, those on screen first.
   */
  const shownIds = () => {
    const pages = data ? pageCount(data.pagination.total_count, NEWS_PAGE_SIZE) : 0;
    const earlier = Array.from({ length: Math.max(0, pages - 1) }, (_, index) =>
      queryClient.getQueryData(newsRecommendationsQuery(params, index + 1).queryKey),
    );
    const earlierItems = earlier.flatMap((answer) => answer?.data ?? []);
    return appendPages([items, earlierItems])
      .slice(0, MAX_SHOWN_IDS)
      .map((item) => item.id);
  };

  return {
    query,
    items,
    /** 'more': offer 加载更多; 'end': 没有更多了 (after something was appended); 'none': neither. */
    moreState,
    isLoadingMore,
    /** Why the last 加载更多 failed (its items are not there; retryMore asks again). */
    moreError,
    loadMore: () => {
      if (moreState !== 'more' || isLoadingMore) return;
      setAppended({ viewKey, shownIds: [...appendedShownIds, shownIds()] });
    },
    retryMore: () => void lastMore?.refetch(),
    reload: () => {
      setAppended({ viewKey, shownIds: [] });
      void query.refetch();
    },
  };
}
