import { describe, expect, it } from 'vitest';
import {
  authorName,
  describeTierSource,
  formatJcrTier,
  formatSimilarityPercent,
  lastAuthor,
  normalizeDoi,
  paperHref,
  UNKNOWN_AUTHOR,
} from './paper-display';

describe('lastAuthor', () => {
  it('takes the last string author', () => {
    expect(lastAuthor(['Alice Li', 'Bo Wang', 'Chen Zhao'])).toBe('Chen Zhao');
  });

  it('reads the name of object entries', () => {
    expect(lastAuthor([{ name: 'Alice Li' }, { name: ' 王博 ' }])).toBe('王博');
    expect(authorName({ name: 'Alice' })).toBe('Alice');
  });

  it("is '未知' for no authors, a nameless entry or a blank name", () => {
    expect(lastAuthor([])).toBe(UNKNOWN_AUTHOR);
    expect(lastAuthor(null)).toBe(UNKNOWN_AUTHOR);
    expect(lastAuthor(undefined)).toBe(UNKNOWN_AUTHOR);
    expect(lastAuthor(['Alice', {}])).toBe(UNKNOWN_AUTHOR);
    expect(lastAuthor(['Alice', '  '])).toBe(UNKNOWN_AUTHOR);
    expect(lastAuthor([{ name: null }])).toBe(UNKNOWN_AUTHOR);
  });
});

describe('formatJcrTier', () => {
  it.each([
    [1, 'JCR Q1'],
    [4, 'JCR Q4'],
  ])('tier %i reads %s', (tier, label) => {
    expect(formatJcrTier(tier)).toBe(label);
  });

  it('is null for an unknown tier', () => {
    expect(formatJcrTier(null)).toBeNull();
    expect(formatJcrTier(undefined)).toBeNull();
    expect(formatJcrTier(0)).toBeNull();
    expect(formatJcrTier(5)).toBeNull();
    expect(formatJcrTier(1.5)).toBeNull();
  });
});

describe('formatSimilarityPercent', () => {
  it('shows one decimal on cards', () => {
    expect(formatSimilarityPercent(0.8234, 1)).toBe('82.3%');
    expect(formatSimilarityPercent(0.3, 1)).toBe('30.0%');
  });

  it('shows no decimals on chips', () => {
    expect(formatSimilarityPercent(0.3, 0)).toBe('30%');
    expect(formatSimilarityPercent(0.456, 0)).toBe('46%');
    expect(formatSimilarityPercent(0.15000000000000002, 0)).toBe('15%');
  });

  it('is null without a score', () => {
    expect(formatSimilarityPercent(null, 1)).toBeNull();
    expect(formatSimilarityPercent(undefined, 0)).toBeNull();
    expect(formatSimilarityPercent(Number.NaN, 0)).toBeNull();
  });
});

describe('paperHref: the url, else the DOI link', () => {
  it('prefers the url', () => {
    expect(paperHref({ url: 'https://example.org/p', doi: '10.1/x' })).toBe('https://example.org/p');
  });

  it('links the DOI when the url is absent or blank', () => {
    expect(paperHref({ doi: '10.1021/acscatal.5b00001' })).toBe('https://doi.org/10.1021/acscatal.5b00001');
    expect(paperHref({ url: '  ', doi: '10.1/x' })).toBe('https://doi.org/10.1/x');
    expect(paperHref({ url: null, doi: '10.1/x' })).toBe('https://doi.org/10.1/x');
  });

  it('normalises the DOI: no doi: or doi.org prefix', () => {
    expect(normalizeDoi('doi:10.1/x')).toBe('10.1/x');
    expect(normalizeDoi('DOI: 10.1/x')).toBe('10.1/x');
    expect(normalizeDoi('https://doi.org/10.1/x')).toBe('10.1/x');
    expect(normalizeDoi('http://dx.doi.org/10.1/x')).toBe('10.1/x');
    expect(paperHref({ url: '', doi: 'https://doi.org/10.1/x' })).toBe('https://doi.org/10.1/x');
  });

  it('is null with neither (the title is plain text)', () => {
    expect(paperHref({})).toBeNull();
    expect(paperHref({ url: '', doi: '' })).toBeNull();
    expect(paperHref({ url: '', doi: 'doi:' })).toBeNull();
  });
});

describe('describeTierSource', () => {
  it('names the system and year of a tier', () => {
    expect(describeTierSource('scimago', 2024)).toBe('SCImago 期刊分区 2024');
    expect(describeTierSource('openalex', 2026)).toBe('OpenAlex 引用指标分区 2026');
    expect(describeTierSource('imported', null)).toBe('本机构导入的分区表');
  });

  it('is null when the answer does not say (spec-only backends) or says something unknown', () => {
    expect(describeTierSource(undefined, undefined)).toBeNull();
    expect(describeTierSource(null, 2024)).toBeNull();
    expect(describeTierSource('toString', 2024)).toBeNull();
  });
});
