import { KEYWORD_LIMITS } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import { addNegativeTerms, NEGATIVE_TERM_MESSAGES } from './negative-terms';

describe('addNegativeTerms', () => {
  it('adds a trimmed term', () => {
    expect(addNegativeTerms([], '  survey ')).toEqual({ terms: ['survey'] });
  });

  it('splits pasted lists on commas, 、, semicolons and line breaks, skipping blanks', () => {
    expect(addNegativeTerms(['综述'], 'survey, review，回顾、 ;erratum\n\n')).toEqual({
      terms: ['综述', 'survey', 'review', '回顾', 'erratum'],
    });
  });

  it('does not add a term twice, ignoring case', () => {
    expect(addNegativeTerms(['Survey'], 'survey, SURVEY, review, Review')).toEqual({ terms: ['Survey', 'review'] });
  });

  it('refuses a term over 100 characters, keeping the others', () => {
    const long = '长'.repeat(KEYWORD_LIMITS.negativeTermMaxLength + 1);
    expect(addNegativeTerms([], `${long}, review`)).toEqual({
      terms: ['review'],
      error: NEGATIVE_TERM_MESSAGES.tooLong,
    });
    expect(addNegativeTerms([], '长'.repeat(KEYWORD_LIMITS.negativeTermMaxLength)).terms).toHaveLength(1);
  });

  it('stops at 20 terms', () => {
    const nineteen = Array.from({ length: KEYWORD_LIMITS.negativeTermsPerKeyword - 1 }, (_, index) => `t${index}`);
    const result = addNegativeTerms(nineteen, 'a, b, c');
    expect(result.terms).toHaveLength(KEYWORD_LIMITS.negativeTermsPerKeyword);
    expect(result.terms.at(-1)).toBe('a');
    expect(result.error).toBe(NEGATIVE_TERM_MESSAGES.tooMany);
    expect(NEGATIVE_TERM_MESSAGES.tooMany).toBe('排除词最多 20 个');
  });

  it('leaves the list as it is for blank input', () => {
    expect(addNegativeTerms(['a'], ' ,， ')).toEqual({ terms: ['a'] });
  });
});
