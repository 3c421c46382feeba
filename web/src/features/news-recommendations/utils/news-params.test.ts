import { describe, expect, it } from 'vitest';
import { memoryStorage } from '@/lib/testing/memory-storage';
import {
  defaultNewsParams,
  loadNewsParams,
  NEWS_PARAMS_STORAGE_KEY,
  pageCount,
  parseNewsParams,
  saveNewsParams,
  toNewsRecommendationQuery,
} from './news-params';

describe('news params', () => {
  it('starts from topK 20, threshold 0.3, one week', () => {
    expect(loadNewsParams(memoryStorage())).toEqual({ topK: 20, threshold: 0.3, dateFilter: ['一周内'] });
  });

  it('persists under newsRecommendationParams', () => {
    const storage = memoryStorage();
    saveNewsParams({ topK: 10, threshold: 0.45, dateFilter: ['不限'] }, storage);
    expect(JSON.parse(storage.getItem(NEWS_PARAMS_STORAGE_KEY) ?? '')).toEqual({
      topK: 10,
      threshold: 0.45,
      dateFilter: ['不限'],
    });
    expect(loadNewsParams(storage)).toEqual({ topK: 10, threshold: 0.45, dateFilter: ['不限'] });
  });

  it('stores 含已评价 only when on and reads its absence as off', () => {
    const storage = memoryStorage();
    saveNewsParams({ ...defaultNewsParams(), includeRated: true }, storage);
    expect(loadNewsParams(storage)).toEqual({ ...defaultNewsParams(), includeRated: true });
    saveNewsParams({ ...defaultNewsParams(), includeRated: false }, storage);
    expect(JSON.parse(storage.getItem(NEWS_PARAMS_STORAGE_KEY) ?? '')).not.toHaveProperty('includeRated');
    expect(toNewsRecommendationQuery({ ...defaultNewsParams(), includeRated: true }, 1).include_rated).toBe('true');
    expect(toNewsRecommendationQuery(defaultNewsParams(), 1)).not.toHaveProperty('include_rated');
  });

  it('replaces only invalid fields', () => {
    expect(parseNewsParams({ topK: 7, threshold: 'high', dateFilter: ['三天内', 'x'] })).toEqual({
      topK: 5,
      threshold: 0.3,
      dateFilter: ['一周内'],
    });
    expect(parseNewsParams(null)).toEqual(defaultNewsParams());
  });

  it('asks for one page of 20, an empty date selection as an empty value', () => {
    expect(toNewsRecommendationQuery(defaultNewsParams(), 2)).toEqual({
      top_k: 20,
      similarity_threshold: 0.3,
      date_filter: '一周内',
      page: 2,
      page_size: 20,
    });
    expect(toNewsRecommendationQuery({ ...defaultNewsParams(), dateFilter: [] }, 1).date_filter).toBe('');
  });

  it("puts the sliders' values on their steps (0.3 + 3 x 0.05 is 0.44999999999999996 in floating point)", () => {
    const query = toNewsRecommendationQuery({ ...defaultNewsParams(), threshold: 0.3 + 0.05 + 0.05 + 0.05 }, 1);
    expect(query).toMatchObject({ top_k: 20, similarity_threshold: 0.45 });
  });

  it('counts pages of 20', () => {
    expect(pageCount(0)).toBe(0);
    expect(pageCount(20)).toBe(1);
    expect(pageCount(21)).toBe(2);
    expect(pageCount(50)).toBe(3);
  });
});
