import { describe, expect, it } from 'vitest';
import { appendPages, excludeIdsQuery, loadMoreState, MAX_SHOWN_IDS } from './load-more';

const page = (ids: string[], hasMore?: boolean) => ({ ids, hasMore });

describe('appendPages', () => {
  it('keeps the order they came in and each id once', () => {
    const items = appendPages([
      [{ id: 'a' }, { id: 'b' }],
      [{ id: 'b' }, { id: 'c' }],
    ]);
    expect(items.map((item) => item.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('excludeIdsQuery', () => {
  it('joins the shown ids, and asks nothing for the first answer', () => {
    expect(excludeIdsQuery(['7', '9'])).toEqual({ exclude_ids: '7,9' });
    expect(excludeIdsQuery([])).toEqual({});
  });
});

describe('loadMoreState', () => {
  it('offers more only when the latest answer says has_more: true', () => {
    expect(loadMoreState([page(['a'], true)])).toBe('more');
    expect(loadMoreState([page(['a'], false)])).toBe('none');
    expect(loadMoreState([page(['a'], true), page(['b'], true)])).toBe('more');
    expect(loadMoreState([])).toBe('none');
  });

  it('offers nothing to a backend that answers only the spec (no has_more)', () => {
    expect(loadMoreState([page(['a', 'b'])])).toBe('none');
  });

  it('says the end once something was appended and no more follow', () => {
    expect(loadMoreState([page(['a'], true), page(['b'], false)])).toBe('end');
    expect(loadMoreState([page(['a'], true), page([], false)])).toBe('end');
  });

  it('ends when an appended answer brought nothing new (exclude_ids ignored), or at the ids the API takes', () => {
    expect(loadMoreState([page(['a', 'b'], true), page(['b', 'a'], true)])).toBe('end');
    const ids = Array.from({ length: MAX_SHOWN_IDS }, (_, index) => String(index + 1));
    expect(loadMoreState([page(ids.slice(0, 250), true), page(ids.slice(250), true)])).toBe('end');
  });
});
