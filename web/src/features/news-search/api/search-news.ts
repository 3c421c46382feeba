import { API_PATHS, LIMITS } from '@radar/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, REQUEST_TIMEOUTS } from '@/lib/api-client';
import { type NewsPage, readNewsPage } from '@/lib/spec-answers';
import type { NewsSearchCriteria } from '../utils/news-search-criteria';

/**
 * POST /api/news/search/: query, search_type, institute_name, date_from, date_to,
 * page, page_size 20. Empty filters are left out.
 */
async function searchNews(criteria: NewsSearchCriteria, options: { signal?: AbortSignal } = {}): Promise<NewsPage> {
  const answer = await api.post<unknown>(
    API_PATHS.newsSearch,
    {
      query: criteria.query,
      search_type: criteria.search_type,
      institute_name: criteria.institute_name || undefined,
      date_from: criteria.date_from || undefined,
      date_to: criteria.date_to || undefined,
      page: criteria.page,
      page_size: LIMITS.newsPageSize,
    },
    {
      ...options,
      // A semantic search embeds the query first, which may be a remote model call like the recommendations'.
      timeoutMs: criteria.search_type === 'semantic' ? REQUEST_TIMEOUTS.recommendation : REQUEST_TIMEOUTS.default,
    },
  );
  return readNewsPage(answer, { pageSize: LIMITS.newsPageSize, isRecommended: false });
}

export const newsSearchQueryOptions = (criteria: NewsSearchCriteria) =>
  queryOptions({
    queryKey: ['news-search', criteria],
    queryFn: ({ signal }) => searchNews(criteria, { signal }),
    placeholderData: keepPreviousData,
  });
