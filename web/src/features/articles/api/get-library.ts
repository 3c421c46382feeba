import { ARTICLE_LIBRARY_PATH, type ArticleLibraryList, type ArticleLibraryResponse, LIMITS } from '@radar/shared';
import { queryOptions } from '@tanstack/react-query';
import { LIBRARY_QUERY_KEY } from '@/api/article-state';
import { api } from '@/lib/api-client';
import { fetchPageWithFirstPageFallback, type PageResult } from '../utils/page-fallback';

export type LibraryParams = { list: ArticleLibraryList; page: number };

/** GET /articles/library/?list&page&page_size: favourited and/or saved papers, most recently marked first. */
export function getLibrary(
  { list, page }: LibraryParams,
  options: { signal?: AbortSignal } = {},
): Promise<ArticleLibraryResponse> {
  return api.get<ArticleLibraryResponse>(ARTICLE_LIBRARY_PATH, {
    ...options,
    query: { list, page, page_size: LIMITS.paperSearchPageSize },
  });
}

/**
 * One page of a list. Removing the last paper of the last page leaves that page empty: it is asked
 * again from page 1, as a search is (spec section 5).
 */
export const libraryQueryOptions = (params: LibraryParams) =>
  queryOptions<PageResult<ArticleLibraryResponse>>({
    queryKey: [...LIBRARY_QUERY_KEY, params],
    queryFn: ({ signal }) =>
      fetchPageWithFirstPageFallback((page) => getLibrary({ list: params.list, page }, { signal }), params.page),
    // Another page of the same list stays on screen while it loads; another list starts blank.
    placeholderData: (previous, previousQuery) =>
      previousQuery && (previousQuery.queryKey[2] as LibraryParams).list === params.list ? previous : undefined,
    // Favourites change on other screens: a visit shows the current lists.
    staleTime: 0,
  });
