import { API_PATHS, type ArticleLibraryList, LIMITS, type LibraryPaper } from '@radar/shared';
import { queryOptions } from '@tanstack/react-query';
import { LIBRARY_QUERY_KEY } from '@/api/article-state';
import { api } from '@/lib/api-client';
import { type ClientPaper, type PaperPage, readPaper, readPaperPage } from '@/lib/spec-answers';
import { fetchPageWithFirstPageFallback, type PageResult } from '../utils/page-fallback';

export type LibraryParams = { list: ArticleLibraryList; page: number };

/** GET /articles/library/?list&page&page_size: favourited and/or saved papers, most recently marked first. */
export type LibraryItem = ClientPaper & Pick<LibraryPaper, 'read_progress' | 'marked_at'>;

function readLibraryItem(raw: unknown): LibraryItem {
  const item = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<LibraryPaper>;
  const progress =
    typeof item.read_progress === 'number' && Number.isFinite(item.read_progress) ? item.read_progress : 0;
  return {
    ...readPaper(raw),
    read_progress: progress,
    marked_at: typeof item.marked_at === 'string' ? item.marked_at : '',
  };
}

async function getLibrary(
  { list, page }: LibraryParams,
  options: { signal?: AbortSignal } = {},
): Promise<PaperPage<LibraryItem>> {
  const answer = await api.get<unknown>(API_PATHS.articleLibrary, {
    ...options,
    query: { list, page, page_size: LIMITS.paperSearchPageSize },
  });
  return readPaperPage(answer, readLibraryItem);
}

/**
 * One page of a list. Removing the last paper of the last page leaves that page empty: it is asked
 * again from page 1, as a search is.
 */
export const libraryQueryOptions = (params: LibraryParams) =>
  queryOptions<PageResult<PaperPage<LibraryItem>>>({
    queryKey: [...LIBRARY_QUERY_KEY, params],
    queryFn: ({ signal }) =>
      fetchPageWithFirstPageFallback((page) => getLibrary({ list: params.list, page }, { signal }), params.page),
    // Another page of the same list stays on screen while it loads; another list starts blank.
    placeholderData: (previous, previousQuery) =>
      previousQuery && (previousQuery.queryKey[2] as LibraryParams).list === params.list ? previous : undefined,
    // Favourites change on other screens: a visit shows the current lists.
    staleTime: 0,
  });
