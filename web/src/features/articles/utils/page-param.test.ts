import { describe, expect, it } from 'vitest';
import { parsePageParam } from './page-param';

describe('parsePageParam', () => {
  it('reads a whole page number', () => {
    expect(parsePageParam('3')).toBe(3);
    expect(parsePageParam(' 12 ')).toBe(12);
    expect(parsePageParam('10000')).toBe(10_000);
  });

  it('falls back to page 1 for anything else', () => {
    for (const value of [null, undefined, '', '0', '-2', '1.5', 'abc', '10001', '9999999']) {
      expect(parsePageParam(value)).toBe(1);
    }
  });
});
