import { describe, expect, it } from 'vitest';
import { createAuthNavigationState, createReturnState } from '@/lib/navigation-state';
import { getPostLoginTarget } from './return-target';

describe('getPostLoginTarget (the originating page or /my)', () => {
  it('returns to the originating route', () => {
    expect(getPostLoginTarget(createReturnState('/papers?page=2'))).toBe('/papers?page=2');
    expect(getPostLoginTarget(createAuthNavigationState({ email: 'a@b.co', from: '/news' }))).toBe('/news');
  });

  it('goes to /my without one, or when it is an auth screen or off-site', () => {
    expect(getPostLoginTarget(undefined)).toBe('/my');
    expect(getPostLoginTarget({ email: 'a@b.co' })).toBe('/my');
    for (const from of [
      '/login',
      '/login?email=a',
      '/register/',
      '/verify-email?email=a',
      '/reset-password#x',
      '/forgot-password',
    ]) {
      expect(getPostLoginTarget(createReturnState(from))).toBe('/my');
    }
    expect(getPostLoginTarget({ from: '//evil.example' })).toBe('/my');
  });
});
