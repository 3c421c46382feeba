import type { Paper } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import { patchPaperInPage } from './paper-cache';

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

describe('patchPaperInPage', () => {
  it('changes the one paper on the page, keeping the rest of the page', () => {
    const page = { results: [paper('1'), paper('2')], count: 2, page: 1 };
    const patched = patchPaperInPage(page, '2', { is_favorited: true });
    expect(patched).not.toBe(page);
    expect(patched?.results.map((item) => item.is_favorited)).toEqual([false, true]);
    expect(patched?.results[0]).toBe(page.results[0]);
    expect(patched).toMatchObject({ count: 2, page: 1 });
    // The cached object itself is left alone.
    expect(page.results[1]?.is_favorited).toBe(false);
  });

  it('returns the same object when the paper is not on the page, and undefined for no data', () => {
    const page = { results: [paper('1')], count: 1 };
    expect(patchPaperInPage(page, '9', { is_saved: true })).toBe(page);
    expect(patchPaperInPage(undefined, '1', { is_saved: true })).toBeUndefined();
  });
});
