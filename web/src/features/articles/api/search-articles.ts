import { API_PATHS, LIMITS } from '@radar/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ARTICLES_QUERY_KEY } from '@/api/article-state';
import { api } from '@/lib/api-client';
import { type PaperPage, readPaperPage } from '@/lib/spec-answers';
import { fetchPageWithFirstPageFallback, type PageResult } from '../utils/page-fallback';

export type ArticleSearchParams = { q: string; page: number };

/** GET /articles/search/?q&page&page_size: papers matching every keyword (AND), 50 a page. */
async function searchArticles(
  { q, page }: ArticleSearchParams,
  options: { signal?: AbortSignal } = {},
): Promise<PaperPage> {
  const answer = await api.get<unknown>(API_PATHS.articleSearch, {
    ...options,
    query: { q, page, page_size: LIMITS.paperSearchPageSize },
  });
  return readPaperPage(answer);
}

/** One page of a search; an empty page past the last one is asked again from page 1. */
export const articleSearchQueryOptions = (params: ArticleSearchParams) =>
  queryOptions<PageResult<PaperPage>>({
    queryKey: [...ARTICLES_QUERY_KEY, 'search', params],
    queryFn: ({ signal }) =>
      fetchPageWithFirstPageFallback((page) => searchArticles({ q: params.q, page }, { signal }), params.page),
    enabled: params.q.trim() !== '',
    // The old page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
