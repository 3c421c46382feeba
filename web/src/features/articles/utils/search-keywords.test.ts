import { splitSearchKeywords } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import { hasSearchKeyword, joinSearchKeywords, toggleSearchKeyword } from './search-keywords';

describe('joinSearchKeywords', () => {
  it('joins keywords with spaces, quoting a keyword that has spaces, so the server splits them back', () => {
    const keywords = ['graph neural network', '分子', 'GNN'];
    const query = joinSearchKeywords(keywords);
    expect(query).toBe('"graph neural network" 分子 GNN');
    expect(splitSearchKeywords(query)).toEqual(keywords);
  });

  it('leaves out blanks and repeats (ignoring case) and turns quotes into spaces', () => {
    expect(joinSearchKeywords(['  ', 'Quantum', 'quantum', ' say "hi" ', '“量子”'])).toBe('Quantum "say hi" 量子');
  });

  it('is empty for no keywords', () => {
    expect(joinSearchKeywords([])).toBe('');
  });
});

describe('hasSearchKeyword', () => {
  it('finds a keyword in the search text as the server splits it, ignoring case', () => {
    expect(hasSearchKeyword('quantum "Error Correction"', 'error correction')).toBe(true);
    expect(hasSearchKeyword('quantum error correction', 'error correction')).toBe(false);
    expect(hasSearchKeyword('量子 计算', '量子')).toBe(true);
    expect(hasSearchKeyword('量子计算', '量子')).toBe(false);
    expect(hasSearchKeyword('量子', '  ')).toBe(false);
  });
});

describe('toggleSearchKeyword', () => {
  it('adds a keyword at the end and removes it again', () => {
    const added = toggleSearchKeyword('quantum', 'error correction');
    expect(added).toBe('quantum "error correction"');
    expect(toggleSearchKeyword(added, 'Error Correction')).toBe('quantum');
  });

  it('starts from an empty search and can empty it', () => {
    expect(toggleSearchKeyword('', '量子')).toBe('量子');
    expect(toggleSearchKeyword('量子', '量子')).toBe('');
  });
});
