import { describe, expect, it } from 'vitest';
import { createReturnState, getReturnTarget } from './navigation-state';

describe('getReturnTarget', () => {
  it('reads a same-origin path', () => {
    expect(getReturnTarget(createReturnState('/papers?page=2'))).toBe('/papers?page=2');
  });

  it.each([
    null,
    undefined,
    'papers',
    {},
    { from: 42 },
    { from: 'https://evil.example' },
    { from: '//evil.example' },
    { from: '/\\evil.example' },
  ])('ignores %j', (state) => {
    expect(getReturnTarget(state)).toBeUndefined();
  });
});
