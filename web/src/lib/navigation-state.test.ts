import { describe, expect, it } from 'vitest';
import { createAuthNavigationState, createReturnState, getReturnTarget, getStateEmail } from './navigation-state';

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

describe('auth navigation state (email and origin carried between login, register, forgot-password)', () => {
  it('carries the typed email and the origin', () => {
    const state = createAuthNavigationState({ email: ' me@uni.edu ', from: '/papers' });
    expect(state).toEqual({ email: 'me@uni.edu', from: '/papers' });
    expect(getStateEmail(state)).toBe('me@uni.edu');
    expect(getReturnTarget(state)).toBe('/papers');
  });

  it('leaves out what is empty', () => {
    expect(createAuthNavigationState({ email: '  ', from: undefined })).toEqual({});
    expect(createAuthNavigationState({})).toEqual({});
  });

  it.each([null, undefined, 'me@uni.edu', {}, { email: 42 }, { email: '   ' }, { email: `${'a'.repeat(250)}@x.org` }])(
    'reads no email from %j',
    (state) => {
      expect(getStateEmail(state)).toBeUndefined();
    },
  );
});
