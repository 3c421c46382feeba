import type { DateFilterLabel } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import {
  dateFilterQueryValue,
  effectiveDateFilter,
  mergeSharedParamsChange,
  normaliseThreshold,
  normaliseTopK,
  parseDateFilterQuery,
  parseDateFilterSelection,
  readStoredObject,
  shownDateFilter,
  snapToSlider,
  toggleDateFilter,
  writeStoredObject,
} from './recommendation-params';
import { memoryStorage } from './testing/memory-storage';

describe('slider values', () => {
  it('keeps values on the grid', () => {
    expect(normaliseTopK(5, 20)).toBe(5);
    expect(normaliseTopK(50, 20)).toBe(50);
    expect(normaliseThreshold(0.05, 0.3)).toBe(0.05);
    expect(normaliseThreshold(0.5, 0.3)).toBe(0.5);
  });

  it('snaps to the nearest step and clamps to the range', () => {
    expect(normaliseTopK(23, 20)).toBe(25);
    expect(normaliseTopK(1, 20)).toBe(5);
    expect(normaliseTopK(500, 20)).toBe(50);
    expect(normaliseThreshold(0.33, 0.3)).toBe(0.35);
    expect(normaliseThreshold(0.9, 0.3)).toBe(0.5);
    expect(normaliseThreshold(0, 0.3)).toBe(0.05);
  });

  it('rounds away floating-point noise', () => {
    expect(normaliseThreshold(0.15000000000000002, 0.3)).toBe(0.15);
    expect(snapToSlider(0.1 + 0.2, { min: 0.05, max: 0.5, step: 0.05 }, 0.3)).toBe(0.3);
  });

  it('falls back for anything that is not a finite number', () => {
    expect(normaliseTopK('20', 20)).toBe(20);
    expect(normaliseTopK(null, 15)).toBe(15);
    expect(normaliseThreshold(Number.NaN, 0.3)).toBe(0.3);
    expect(normaliseThreshold(Number.POSITIVE_INFINITY, 0.3)).toBe(0.3);
  });
});

describe('toggleDateFilter', () => {
  it('ticking a range selects it and every shorter one', () => {
    expect(toggleDateFilter([], '一周内', true)).toEqual(['一天内', '两天内', '三天内', '一周内']);
    expect(toggleDateFilter(['一天内'], '两天内', true)).toEqual(['一天内', '两天内']);
    expect(toggleDateFilter(['一天内', '两天内'], '一月内', true)).toEqual([
      '一天内',
      '两天内',
      '三天内',
      '一周内',
      '一月内',
    ]);
  });

  it('unticking a range removes it and every longer one', () => {
    const all: DateFilterLabel[] = ['一天内', '两天内', '三天内', '一周内', '一月内'];
    expect(toggleDateFilter(all, '三天内', false)).toEqual(['一天内', '两天内']);
    expect(toggleDateFilter(all, '一月内', false)).toEqual(['一天内', '两天内', '三天内', '一周内']);
    expect(toggleDateFilter(all, '一天内', false)).toEqual([]);
  });

  it('shows and toggles a selection naming only its widest range as the cumulative set it stands for', () => {
    expect(shownDateFilter(['一周内'])).toEqual(['一天内', '两天内', '三天内', '一周内']);
    expect(shownDateFilter(['不限'])).toEqual(['不限']);
    expect(shownDateFilter([])).toEqual([]);
    expect(toggleDateFilter(['一周内'], '两天内', false)).toEqual(['一天内']);
    expect(toggleDateFilter(['一周内'], '一月内', true)).toEqual(['一天内', '两天内', '三天内', '一周内', '一月内']);
  });

  it('不限 is exclusive', () => {
    expect(toggleDateFilter(['一天内', '两天内'], '不限', true)).toEqual(['不限']);
    expect(toggleDateFilter(['不限'], '三天内', true)).toEqual(['一天内', '两天内', '三天内']);
    expect(toggleDateFilter(['不限'], '不限', false)).toEqual([]);
  });

  it('the range that applies is the widest, 不限 for none', () => {
    expect(effectiveDateFilter(['一天内', '两天内', '一周内'])).toBe('一周内');
    expect(effectiveDateFilter(['一月内', '一天内'])).toBe('一月内');
    expect(effectiveDateFilter(['不限'])).toBe('不限');
    expect(effectiveDateFilter([])).toBe('不限');
  });
});

describe('date filter as stored and sent', () => {
  it('keeps a valid stored selection, in order, without repeats', () => {
    expect(parseDateFilterSelection(['一周内', '一天内', '一天内'], ['一周内'])).toEqual(['一天内', '一周内']);
    expect(parseDateFilterSelection([], ['一周内'])).toEqual([]);
    expect(parseDateFilterSelection(['一天内', '不限'], ['一周内'])).toEqual(['不限']);
  });

  it('falls back on anything else', () => {
    expect(parseDateFilterSelection(['一年内'], ['一周内'])).toEqual(['一周内']);
    expect(parseDateFilterSelection('一周内', ['一周内'])).toEqual(['一周内']);
    expect(parseDateFilterSelection([7], ['一周内'])).toEqual(['一周内']);
  });

  it('sends labels comma-joined and an empty selection as an empty value', () => {
    expect(dateFilterQueryValue(['一周内', '一天内'])).toBe('一天内,一周内');
    expect(dateFilterQueryValue([])).toBe('');
  });
});

describe('stored objects', () => {
  it('reads back what was written', () => {
    const storage = memoryStorage();
    writeStoredObject(storage, 'key', { a: 1 });
    expect(readStoredObject(storage, 'key')).toEqual({ a: 1 });
  });

  it('is null for missing, unparsable or non-object values', () => {
    expect(readStoredObject(memoryStorage(), 'key')).toBeNull();
    expect(readStoredObject(memoryStorage({ key: '{oops' }), 'key')).toBeNull();
    expect(readStoredObject(memoryStorage({ key: '[1,2]' }), 'key')).toBeNull();
    expect(readStoredObject(memoryStorage({ key: '42' }), 'key')).toBeNull();
    expect(readStoredObject(null, 'key')).toBeNull();
  });

  it('survives a storage that refuses to write', () => {
    const full: Storage = {
      ...memoryStorage(),
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => writeStoredObject(full, 'key', { a: 1 })).not.toThrow();
  });
});

describe("an empty result's suggested change", () => {
  const current = {
    topK: 20,
    threshold: 0.3,
    dateFilter: ['一天内', '两天内', '三天内', '一周内'] as DateFilterLabel[],
  };

  it('reads a date_filter value as the selection ticking its widest range gives', () => {
    expect(parseDateFilterQuery('一月内')).toEqual(['一天内', '两天内', '三天内', '一周内', '一月内']);
    expect(parseDateFilterQuery('一天内,三天内')).toEqual(['一天内', '两天内', '三天内']);
    expect(parseDateFilterQuery('不限')).toEqual(['不限']);
    expect(parseDateFilterQuery('')).toEqual(['不限']);
    expect(parseDateFilterQuery('一年内')).toBeNull();
  });

  it('merges the named settings, snapped to the sliders, and keeps the rest', () => {
    expect(mergeSharedParamsChange(current, { similarity_threshold: '0.2' })).toEqual({ ...current, threshold: 0.2 });
    // Between two steps: the threshold goes down and the count up, so the suggested results still show.
    expect(mergeSharedParamsChange(current, { similarity_threshold: '0.24', top_k: '23' })).toEqual({
      ...current,
      topK: 25,
      threshold: 0.2,
    });
    expect(mergeSharedParamsChange(current, { similarity_threshold: '0.25', top_k: '50' })).toEqual({
      ...current,
      topK: 50,
      threshold: 0.25,
    });
    expect(mergeSharedParamsChange(current, { date_filter: '一月内' }).dateFilter).toEqual([
      '一天内',
      '两天内',
      '三天内',
      '一周内',
      '一月内',
    ]);
  });

  it('ignores unreadable values and names it does not know', () => {
    expect(
      mergeSharedParamsChange(current, { similarity_threshold: 'low', top_k: '', date_filter: '永远', page: '2' }),
    ).toEqual(current);
  });
});
