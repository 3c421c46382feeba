import { describe, expect, it } from 'vitest';
import {
  readKeywordAnswer,
  readKeywordList,
  readKeywordSuggestions,
  readNewsPage,
  readNewsRecommendations,
  readPaper,
  readPaperPage,
  readPaperRecommendations,
} from './spec-answers';

describe('readPaperRecommendations: the contract’s answer, extras optional', () => {
  it('reads an answer with only the contract’s fields', () => {
    const answer = readPaperRecommendations({
      success: true,
      recommendations: [
        {
          id: 5,
          title: 'T',
          authors: ['A'],
          abstract: 'x',
          year: 2025,
          journal: 'J',
          doi: '10.1/x',
          jcr: 2,
          llm_summary: null,
          similarity_score: 0.5,
        },
      ],
      recommendations_count: 1,
      user_id: 7,
      similarity_threshold: 0.3,
    });
    expect(answer.recommendations[0]).toMatchObject({
      id: '5',
      url: '',
      doi: '10.1/x',
      date: null,
      year: 2025,
      similarity_score: 0.5,
      is_favorited: false,
      is_saved: false,
      reason: null,
    });
    // A spec-only answer says nothing of where the tier comes from.
    expect(answer.recommendations[0]).not.toHaveProperty('jcr_source');
    expect(answer.freshness).toBeUndefined();
    expect(answer.learning).toBeUndefined();
    expect(answer.empty_explanation).toBeNull();
    expect(answer.filtered_out_count).toBeUndefined();
  });

  it('counts the list when the count is missing and keeps our extras when present', () => {
    const freshness = { last_new_item_at: null, last_checked_at: null, new_items_last_7_days: 0 };
    const answer = readPaperRecommendations({ success: true, recommendations: [], freshness, filtered_out_count: 4 });
    expect(answer.recommendations_count).toBe(0);
    expect(answer.freshness).toEqual(freshness);
    expect(answer.filtered_out_count).toBe(4);
  });
});

describe('readPaper', () => {
  it('takes the date from `time` and tolerates missing fields', () => {
    expect(readPaper({ id: 'p', title: 'T', time: '2026-01-02' })).toMatchObject({
      date: '2026-01-02',
      authors: [],
      abstract: '',
      journal: '',
      jcr: null,
      keywords: [],
    });
  });

  it('keeps where the tier comes from when the answer says, and drops an unknown system', () => {
    expect(readPaper({ id: 'p', jcr: 1, jcr_source: 'scimago', jcr_year: 2024 })).toMatchObject({
      jcr: 1,
      jcr_source: 'scimago',
      jcr_year: 2024,
    });
    expect(readPaper({ id: 'p', jcr: 1, jcr_source: 'jcr', jcr_year: 2024 })).not.toHaveProperty('jcr_source');
  });
});

describe('readNewsPage and readNewsRecommendations', () => {
  it('reads either score name and counts the pages from total_count', () => {
    const page = readNewsPage(
      {
        data: [{ id: 1, title: 'N', content: 'c', url: 'u', similarity_score: 0.4, publish_date: '2026-01-01' }],
        pagination: { total_count: 45, current_page: 2 },
      },
      { pageSize: 20, isRecommended: false },
    );
    expect(page.data[0]).toMatchObject({
      id: '1',
      recommendation_score: 0.4,
      crawl_date: '2026-01-01',
      institute_name: '',
      is_recommended: false,
    });
    expect(page.pagination).toEqual({ total_count: 45, current_page: 2, page_size: 20, total_pages: 3 });
  });

  it('leaves freshness out when the answer has none', () => {
    const answer = readNewsRecommendations({ data: [], pagination: { total_count: 0, current_page: 1 } }, 20);
    expect(answer.freshness).toBeUndefined();
    expect(answer.empty_explanation).toBeNull();
  });
});

describe('readPaperPage', () => {
  it('reads results, count and next', () => {
    const page = readPaperPage({ results: [{ id: 'a', title: 'A' }], next: 'x' });
    expect(page.count).toBe(1);
    expect(page.next).toBe('x');
    expect(page.results[0]?.id).toBe('a');
  });
});

describe('keywords', () => {
  it('reads a bare list and our { keywords, count }, with alert settings off by default', () => {
    const bare = readKeywordList([{ id: 1, name: 'catalysis', created_at: '2026-01-01' }]);
    expect(bare).toEqual({
      keywords: [
        {
          id: '1',
          name: 'catalysis',
          created_at: '2026-01-01',
          alert_enabled: false,
          alert_frequency: 'daily',
          negative_terms: [],
          last_alerted_at: null,
        },
      ],
      count: 1,
    });
    expect(
      readKeywordList({ keywords: [{ id: 'k', name: 'x', alert_enabled: true, alert_frequency: 'weekly' }], count: 1 })
        .keywords[0],
    ).toMatchObject({ alert_enabled: true, alert_frequency: 'weekly' });
    expect(readKeywordList(null)).toEqual({ keywords: [], count: 0 });
  });

  it('reads suggestions given as names or objects', () => {
    expect(
      readKeywordSuggestions(['a', { name: 'b', score: 1, source: 'similar_papers' }, { keyword: 'c' }, '']),
    ).toEqual({
      keywords: [
        { name: 'a', score: 0, source: 'research_summary' },
        { name: 'b', score: 1, source: 'similar_papers' },
        { name: 'c', score: 0, source: 'research_summary' },
      ],
    });
  });

  it('names the keyword as sent when the add answer does not carry it', () => {
    expect(readKeywordAnswer(undefined, { name: 'catalysis' }).keyword).toMatchObject({ id: '', name: 'catalysis' });
    expect(readKeywordAnswer({ success: true, keyword: { id: 'k', name: 'x' } }, { name: 'x' }).keyword.id).toBe('k');
    expect(readKeywordAnswer({ id: 3, name: 'y' }, { name: 'y' }).keyword.id).toBe('3');
  });
});
