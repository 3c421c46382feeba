import { describe, expect, it } from 'vitest';
import { DATE_FILTER_LABELS, RESEARCH_FIELDS, toResearchFieldId, widestWindowDays } from '../src';

describe('research fields', () => {
  it('has the 21 ids of the spec', () => {
    expect(RESEARCH_FIELDS.map((field) => field.id)).toEqual([
      'materials-science',
      'biology',
      'engineering-technology',
      'management',
      'earth-sciences',
      'medicine',
      'mathematics',
      'education',
      'agricultural-forestry',
      'philosophy',
      'chemistry',
      'computer-science',
      'physics-astronomy',
      'environmental-ecology',
      'multidisciplinary',
      'psychology',
      'economics',
      'sociology',
      'arts',
      'history',
      'literature',
    ]);
  });

  it.each([
    ['computer-science', 'computer-science'],
    ['Computer Science', 'computer-science'],
    ['  physics & astronomy ', 'physics-astronomy'],
    ['Agricultural and Forestry', 'agricultural-forestry'],
    ['数学', 'mathematics'],
    ['Alchemy', undefined],
  ])('maps %j to %j', (text, id) => {
    expect(toResearchFieldId(text)).toBe(id);
  });
});

describe('date filters', () => {
  it('uses the labels of the spec, in order', () => {
    expect(DATE_FILTER_LABELS).toEqual(['一天内', '两天内', '三天内', '一周内', '一月内', '不限']);
  });

  it('takes the widest selected window; 不限 or nothing means no limit', () => {
    expect(widestWindowDays(['一天内', '一周内'])).toBe(7);
    expect(widestWindowDays(['一月内'])).toBe(30);
    expect(widestWindowDays(['一天内', '不限'])).toBeNull();
    expect(widestWindowDays([])).toBeNull();
  });
});
