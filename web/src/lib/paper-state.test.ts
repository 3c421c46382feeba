import type { Paper } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import { patchPaperInAnswer } from './paper-state';

const paper = (id: string): Paper => ({
  id,
  title: `Paper ${id}`,
  authors: [],
  abstract: '',
  date: null,
  year: null,
  journal: '',
  keywords: [],
  url: `https://example.org/${id}`,
  doi: null,
  pdf_url: null,
  jcr: null,
  llm_summary: null,
  is_favorited: false,
  is_saved: false,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
});

describe('patchPaperInAnswer', () => {
  it.each([
    ['a search or library page', 'results'],
    ['a recommendation answer', 'recommendations'],
  ] as const)('changes the one paper in %s, keeping the rest', (_name, field) => {
    const papers = [paper('1'), paper('2')];
    const answer: Record<string, unknown> = { [field]: papers, count: 2, success: true };
    const patched = patchPaperInAnswer(answer, '2', { is_favorited: true });
    expect(patched).not.toBe(answer);
    const patchedPapers = patched[field] as Paper[];
    expect(patchedPapers.map((item) => item.is_favorited)).toEqual([false, true]);
    expect(patchedPapers[0]).toBe(papers[0]);
    expect(patched).toMatchObject({ count: 2, success: true });
    // The cached object itself is left alone.
    expect(papers[1]?.is_favorited).toBe(false);
  });

  it('returns the same object when the paper is not listed, for other answers and for no data', () => {
    const page = { results: [paper('1')], count: 1 };
    expect(patchPaperInAnswer(page, '9', { is_saved: true })).toBe(page);
    const user = { id: '2', email: 'a@example.org' };
    expect(patchPaperInAnswer(user, '2', { is_saved: true })).toBe(user);
    const news = { data: [{ id: '2' }], pagination: { total_count: 1, current_page: 1 } };
    expect(patchPaperInAnswer(news, '2', { is_saved: true })).toBe(news);
    expect(patchPaperInAnswer(undefined, '1', { is_saved: true })).toBeUndefined();
    expect(patchPaperInAnswer(null, '1', { is_saved: true })).toBeNull();
  });
});
