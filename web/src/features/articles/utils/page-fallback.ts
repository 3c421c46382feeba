/** An empty page past the last one (the results shrank meanwhile) is asked again from page 1, at most twice. */
export const EMPTY_PAGE_RETRY_LIMIT = 2;

/** What the paged article endpoints answer (search, library): one page of results and the total. */
export type PagedResponse = { results: readonly unknown[]; count: number };

/** A page as shown: the answer plus the page it is (1 after a fallback). */
export type PageResult<T extends PagedResponse> = T & { page: number };

/** Pages of `count` results, at least 1 (an empty list is one empty page). */
export function pageCount(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/**
 * Whether an answer is an empty page past the last one: nothing on it although the total says there
 * are results (a link to page 9 kept after the list shrank), or an empty page after the first.
 */
export function isEmptyPageBeyondLast(page: number, response: PagedResponse): boolean {
  return response.results.length === 0 && (response.count > 0 || page > 1);
}

/**
 * Fetches `page`; when it comes back empty past the last page, fetches page 1 instead, up to
 * `retryLimit` times (the total may change between two requests). Resolves with the page shown.
 */
export async function fetchPageWithFirstPageFallback<T extends PagedResponse>(
  fetchPage: (page: number) => Promise<T>,
  page: number,
  retryLimit: number = EMPTY_PAGE_RETRY_LIMIT,
): Promise<PageResult<T>> {
  let current = page;
  let response = await fetchPage(current);
  for (let retries = 0; retries < retryLimit && isEmptyPageBeyondLast(current, response); retries += 1) {
    current = 1;
    response = await fetchPage(current);
  }
  return { ...response, page: current };
}
