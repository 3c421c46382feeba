import type { PaperRecommendationResponse, RecommendedPaper } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import { patchRecommendedPaper } from './paper-state';

const paper = (id: string): RecommendedPaper => ({
  id,
  title: `Paper ${id}`,
  authors: ['A'],
  abstract: '',
  date: '2026-11-20',
  year: 2026,
  journal: 'J',
  keywords: [],
  url: `https://example.org/${id}`,
  doi: null,
  pdf_url: null,
  jcr: 1,
  llm_summary: null,
  is_favorited: false,
  is_saved: false,
  created_at: '2026-11-20T00:00:00Z',
  updated_at: '2026-11-20T00:00:00Z',
  similarity_score: 0.5,
});

const response = (ids: string[]) =>
  ({ success: true, recommendations: ids.map(paper) }) as unknown as PaperRecommendationResponse;

describe('patchRecommendedPaper', () => {
  it("changes only that paper's state", () => {
    const before = response(['1', '2']);
    const after = patchRecommendedPaper(before, '2', { is_favorited: true });
    expect(after?.recommendations.map((item) => item.is_favorited)).toEqual([false, true]);
    expect(after?.recommendations[0]).toBe(before.recommendations[0]);
    expect(before.recommendations[1]?.is_favorited).toBe(false);
  });

  it('returns the same object when the paper is not in the list, or there is no list', () => {
    const before = response(['1']);
    expect(patchRecommendedPaper(before, '9', { is_saved: true })).toBe(before);
    expect(patchRecommendedPaper(undefined, '1', { is_saved: true })).toBeUndefined();
  });
});
