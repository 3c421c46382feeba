import { describe, expect, it } from 'vitest';
import {
  EMPTY_PAGE_RETRY_LIMIT,
  fetchPageWithFirstPageFallback,
  isEmptyPageBeyondLast,
  type PagedResponse,
  pageCount,
} from './page-fallback';

const PAGE_SIZE = 50;

/** A list of `total` results served 50 a page; `totals` overrides the total per call (a list that changes). */
function serve(total: number, totals: number[] = []) {
  const requested: number[] = [];
  const fetchPage = async (page: number): Promise<PagedResponse & { asked: number }> => {
    const count = totals[requested.length] ?? total;
    requested.push(page);
    const start = (page - 1) * PAGE_SIZE;
    const size = Math.max(0, Math.min(PAGE_SIZE, count - start));
    return { results: Array.from({ length: size }, (_, index) => start + index), count, asked: page };
  };
  return { fetchPage, requested };
}

describe('isEmptyPageBeyondLast', () => {
  it('is true for an empty page although results exist, or an empty page after the first', () => {
    expect(isEmptyPageBeyondLast(3, { results: [], count: 60 })).toBe(true);
    expect(isEmptyPageBeyondLast(2, { results: [], count: 0 })).toBe(true);
    expect(isEmptyPageBeyondLast(1, { results: [], count: 10 })).toBe(true);
  });

  it('is false for a page with results and for an empty first page of an empty list', () => {
    expect(isEmptyPageBeyondLast(2, { results: [1], count: 60 })).toBe(false);
    expect(isEmptyPageBeyondLast(1, { results: [], count: 0 })).toBe(false);
  });
});

describe('fetchPageWithFirstPageFallback', () => {
  it('returns a page within the list as asked, with one request', async () => {
    const { fetchPage, requested } = serve(120);
    const result = await fetchPageWithFirstPageFallback(fetchPage, 3);
    expect(result).toMatchObject({ page: 3, count: 120, asked: 3 });
    expect(result.results).toHaveLength(20);
    expect(requested).toEqual([3]);
  });

  it('asks for page 1 when the page is past the last one', async () => {
    const { fetchPage, requested } = serve(60);
    const result = await fetchPageWithFirstPageFallback(fetchPage, 9);
    expect(result).toMatchObject({ page: 1, count: 60 });
    expect(result.results).toHaveLength(50);
    expect(requested).toEqual([9, 1]);
  });

  it('shows the empty first page when the list became empty', async () => {
    const { fetchPage, requested } = serve(0);
    const result = await fetchPageWithFirstPageFallback(fetchPage, 2);
    expect(result).toMatchObject({ page: 1, count: 0, results: [] });
    expect(requested).toEqual([2, 1]);
  });

  it('does not retry an empty first page of an empty list', async () => {
    const { fetchPage, requested } = serve(0);
    expect(await fetchPageWithFirstPageFallback(fetchPage, 1)).toMatchObject({ page: 1, results: [] });
    expect(requested).toEqual([1]);
  });

  it('retries at most twice, then shows what it got', async () => {
    // The total keeps saying there are results, but every page comes back empty.
    const empty = async (page: number) => ({ results: [], count: 5, page });
    const requested: number[] = [];
    const result = await fetchPageWithFirstPageFallback(async (page) => {
      requested.push(page);
      return empty(page);
    }, 4);
    expect(EMPTY_PAGE_RETRY_LIMIT).toBe(2);
    expect(requested).toEqual([4, 1, 1]);
    expect(result).toMatchObject({ page: 1, results: [] });
  });

  it('stops retrying once page 1 has results, even if the list shrank in between', async () => {
    const { fetchPage, requested } = serve(0, [120, 30]);
    const result = await fetchPageWithFirstPageFallback(fetchPage, 3);
    // Page 3 of 120 has results: nothing to retry.
    expect(requested).toEqual([3]);
    expect(result.page).toBe(3);
    const shrinking = serve(0, [30, 30]);
    expect(await fetchPageWithFirstPageFallback(shrinking.fetchPage, 3)).toMatchObject({ page: 1, count: 30 });
    expect(shrinking.requested).toEqual([3, 1]);
  });

  it('passes a failure on without retrying', async () => {
    await expect(
      fetchPageWithFirstPageFallback(async () => {
        throw new Error('offline');
      }, 2),
    ).rejects.toThrow('offline');
  });
});

describe('pageCount', () => {
  it('counts whole pages, at least one', () => {
    expect(pageCount(0, PAGE_SIZE)).toBe(1);
    expect(pageCount(50, PAGE_SIZE)).toBe(1);
    expect(pageCount(51, PAGE_SIZE)).toBe(2);
    expect(pageCount(120, PAGE_SIZE)).toBe(3);
  });
});
