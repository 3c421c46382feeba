import { PAPER_RECOMMENDATION_DEFAULTS } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '@/lib/testing/memory-storage';
import {
  arePaperParamsEqual,
  defaultPaperParams,
  loadPaperParams,
  mergePaperParamsChange,
  PAPER_PARAMS_STORAGE_KEY,
  parsePaperParams,
  savePaperParams,
  toggleExcludedTier,
  toPaperRecommendationQuery,
} from './recommendation-params';

describe('toggleExcludedTier', () => {
  it('ticking a tier excludes it and every tier before it in the order 4, 3, 2, 1', () => {
    expect(toggleExcludedTier([], 4, true)).toEqual([4]);
    expect(toggleExcludedTier([], 3, true)).toEqual([4, 3]);
    expect(toggleExcludedTier([4, 3], 2, true)).toEqual([4, 3, 2]);
    expect(toggleExcludedTier([4], 1, true)).toEqual([4, 3, 2, 1]);
  });

  it('unticking a tier removes it and every tier after it', () => {
    expect(toggleExcludedTier([4, 3, 2, 1], 3, false)).toEqual([4]);
    expect(toggleExcludedTier([4, 3, 2, 1], 1, false)).toEqual([4, 3, 2]);
    expect(toggleExcludedTier([4, 3], 4, false)).toEqual([]);
  });

  it('keeps the order and no repeats whatever it starts from', () => {
    expect(toggleExcludedTier([3, 4, 4], 2, true)).toEqual([4, 3, 2]);
    expect(toggleExcludedTier([2], 4, true)).toEqual([4, 2]);
  });
});

describe('stored params (localStorage recommendationParams)', () => {
  it('starts from the defaults', () => {
    expect(loadPaperParams(memoryStorage())).toEqual({
      topK: 20,
      threshold: 0.3,
      excludedJCR: [4, 3],
      dateFilter: ['一周内'],
    });
    expect(defaultPaperParams().excludedJCR).not.toBe(PAPER_RECOMMENDATION_DEFAULTS.excludedJcr);
  });

  it('reads back what was saved, under recommendationParams', () => {
    const storage = memoryStorage();
    const params = { topK: 35, threshold: 0.15, excludedJCR: [4, 3, 2] as const, dateFilter: ['一天内'] as const };
    savePaperParams({ ...params, excludedJCR: [...params.excludedJCR], dateFilter: [...params.dateFilter] }, storage);
    expect(JSON.parse(storage.getItem(PAPER_PARAMS_STORAGE_KEY) ?? '')).toEqual(params);
    expect(loadPaperParams(storage)).toEqual(params);
  });

  it('replaces only the fields that are invalid', () => {
    expect(
      parsePaperParams({ topK: 'many', threshold: 0.2, excludedJCR: [5], dateFilter: ['两天内', '一天内'] }),
    ).toEqual({ topK: 20, threshold: 0.2, excludedJCR: [4, 3], dateFilter: ['一天内', '两天内'] });
    expect(parsePaperParams({ topK: 12, threshold: 2, excludedJCR: [], dateFilter: [] })).toEqual({
      topK: 10,
      threshold: 0.5,
      excludedJCR: [],
      dateFilter: [],
    });
  });

  it('keeps 含已评价 only when on: stored as includeRated true, absent (an older object) or anything else is off', () => {
    const storage = memoryStorage();
    savePaperParams({ ...defaultPaperParams(), includeRated: true }, storage);
    expect(JSON.parse(storage.getItem(PAPER_PARAMS_STORAGE_KEY) ?? '').includeRated).toBe(true);
    expect(loadPaperParams(storage).includeRated).toBe(true);
    savePaperParams({ ...defaultPaperParams(), includeRated: false }, storage);
    expect(JSON.parse(storage.getItem(PAPER_PARAMS_STORAGE_KEY) ?? '')).not.toHaveProperty('includeRated');
    expect(parsePaperParams({ topK: 20, includeRated: 'yes' })).toEqual(defaultPaperParams());
  });

  it('ignores storage that is unreadable', () => {
    expect(loadPaperParams(memoryStorage({ [PAPER_PARAMS_STORAGE_KEY]: 'not json' }))).toEqual(defaultPaperParams());
    expect(loadPaperParams(null)).toEqual(defaultPaperParams());
  });
});

describe('toPaperRecommendationQuery', () => {
  it('sends the defaults as the API names them', () => {
    expect(toPaperRecommendationQuery(defaultPaperParams())).toEqual({
      top_k: 20,
      similarity_threshold: 0.3,
      excluded_jcr: '4,3',
      date_filter: '一周内',
    });
  });

  it('sends empty lists as empty values, so the API does not apply its defaults', () => {
    expect(toPaperRecommendationQuery({ topK: 5, threshold: 0.05, excludedJCR: [], dateFilter: [] })).toEqual({
      top_k: 5,
      similarity_threshold: 0.05,
      excluded_jcr: '',
      date_filter: '',
    });
    expect(toPaperRecommendationQuery({ ...defaultPaperParams(), dateFilter: ['不限'] }).date_filter).toBe('不限');
  });

  it("puts the sliders' values on their steps (0.3 + 3 x 0.05 is 0.44999999999999996 in floating point)", () => {
    const query = toPaperRecommendationQuery({
      ...defaultPaperParams(),
      topK: 25.000000000000004,
      threshold: 0.3 + 0.05 + 0.05 + 0.05,
    });
    expect(new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)])).toString()).toBe(
      'top_k=25&similarity_threshold=0.45&excluded_jcr=4%2C3&date_filter=%E4%B8%80%E5%91%A8%E5%86%85',
    );
  });

  it('sends include_rated=true with 含已评价 on, and nothing for it when off', () => {
    expect(toPaperRecommendationQuery({ ...defaultPaperParams(), includeRated: true }).include_rated).toBe('true');
    expect(toPaperRecommendationQuery({ ...defaultPaperParams(), includeRated: false })).not.toHaveProperty(
      'include_rated',
    );
  });

  it('compares params by what they request', () => {
    expect(arePaperParamsEqual(defaultPaperParams(), { ...defaultPaperParams(), excludedJCR: [3, 4] })).toBe(true);
    expect(arePaperParamsEqual(defaultPaperParams(), { ...defaultPaperParams(), topK: 25 })).toBe(false);
    expect(arePaperParamsEqual(defaultPaperParams(), { ...defaultPaperParams(), includeRated: false })).toBe(true);
    expect(arePaperParamsEqual(defaultPaperParams(), { ...defaultPaperParams(), includeRated: true })).toBe(false);
  });
});

describe('mergePaperParamsChange', () => {
  it('reads excluded_jcr: empty for none, tiers in exclusion order, anything else ignored', () => {
    const params = defaultPaperParams();
    expect(mergePaperParamsChange(params, { excluded_jcr: '' }).excludedJCR).toEqual([]);
    expect(mergePaperParamsChange(params, { excluded_jcr: '3,4' }).excludedJCR).toEqual([4, 3]);
    expect(mergePaperParamsChange(params, { excluded_jcr: '5' }).excludedJCR).toEqual(params.excludedJCR);
  });

  it('merges the shared settings too and sends the result as the API reads it', () => {
    const merged = mergePaperParamsChange(defaultPaperParams(), { similarity_threshold: '0.2', excluded_jcr: '' });
    expect(toPaperRecommendationQuery(merged)).toMatchObject({ similarity_threshold: 0.2, excluded_jcr: '' });
  });
});
