import { describe, expect, it } from 'vitest';
import { ELLIPSIS, truncateText } from './text';

describe('truncateText', () => {
  it('keeps text that fits, including exactly at the limit', () => {
    expect(truncateText('短文本', 300)).toBe('短文本');
    expect(truncateText('a'.repeat(300), 300)).toBe('a'.repeat(300));
  });

  it('cuts longer text at the limit and adds an ellipsis', () => {
    const result = truncateText('研'.repeat(301), 300);
    expect(result).toBe(`${'研'.repeat(300)}${ELLIPSIS}`);
  });

  it('counts code points, never splitting a surrogate pair', () => {
    const text = `${'😀'.repeat(5)}tail`;
    expect(truncateText(text, 3)).toBe(`😀😀😀${ELLIPSIS}`);
  });

  it('drops whitespace before the ellipsis', () => {
    expect(truncateText('abc   def', 5)).toBe(`abc${ELLIPSIS}`);
  });

  it('treats null and undefined as empty', () => {
    expect(truncateText(null, 10)).toBe('');
    expect(truncateText(undefined, 10)).toBe('');
  });
});
