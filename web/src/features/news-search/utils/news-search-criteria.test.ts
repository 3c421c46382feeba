import { newsSearchRequestSchema } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import {
  criteriaFromForm,
  type NewsSearchCriteria,
  parseNewsSearchParams,
  toNewsSearchParams,
} from './news-search-criteria';

const toParams = (criteria: NewsSearchCriteria) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(toNewsSearchParams(criteria)))
    if (value !== undefined) params.set(key, value);
  return params;
};

describe('criteriaFromForm', () => {
  it('turns the validated form back into the request fields, on page 1', () => {
    const values = newsSearchRequestSchema.parse({
      query: ' 量子 计算 ',
      search_type: 'semantic',
      institute_name: ' 中国科学技术大学 ',
      date_from: '2026-11-01',
      date_to: '2026-11-23',
    });
    expect(criteriaFromForm(values)).toEqual({
      query: '量子 计算',
      search_type: 'semantic',
      institute_name: '中国科学技术大学',
      date_from: '2026-11-01',
      date_to: '2026-11-23',
      page: 1,
    });
  });

  it('keeps empty filters empty and keyword search the default', () => {
    const values = newsSearchRequestSchema.parse({ query: 'AI', institute_name: '', date_from: '', date_to: '' });
    expect(criteriaFromForm(values)).toEqual({
      query: 'AI',
      search_type: 'keyword',
      institute_name: '',
      date_from: '',
      date_to: '',
      page: 1,
    });
  });
});

describe('URL round trip', () => {
  it('keeps every field, leaving defaults out of the URL', () => {
    const full: NewsSearchCriteria = {
      query: '人工智能 论坛',
      search_type: 'semantic',
      institute_name: '复旦',
      date_from: '2026-10-01',
      date_to: '2026-11-01',
      page: 3,
    };
    expect(parseNewsSearchParams(toParams(full))).toEqual(full);
    const plain: NewsSearchCriteria = {
      ...full,
      search_type: 'keyword',
      institute_name: '',
      date_from: '',
      date_to: '',
      page: 1,
    };
    expect(toParams(plain).toString()).toBe(new URLSearchParams({ query: '人工智能 论坛' }).toString());
    expect(parseNewsSearchParams(toParams(plain))).toEqual(plain);
  });

  it('has no search without a text, and repairs an unknown type or a bad page', () => {
    expect(parseNewsSearchParams(new URLSearchParams('query=%20%20&page=2'))).toBeNull();
    expect(parseNewsSearchParams(new URLSearchParams('query=x&search_type=fuzzy&page=0'))).toMatchObject({
      search_type: 'keyword',
      page: 1,
    });
    expect(parseNewsSearchParams(new URLSearchParams('query=x&page=2.5'))?.page).toBe(1);
    expect(parseNewsSearchParams(new URLSearchParams('query=x&page=10001'))?.page).toBe(1);
  });
});
