import { describe, expect, it } from 'vitest';
import { parseDuration } from '../src/duration';
import { loadConfig } from '../src/server';

/** One reading of durations for JWT_EXPIRES_IN and `radar queues clean --grace` (@lukeed/ms, as fast-jwt). */

const SECOND = 1_000;
const HOUR = 3_600 * SECOND;
const DAY = 24 * HOUR;

describe('parseDuration', () => {
  it.each([
    ['90s', 90 * SECOND],
    ['30m', 30 * 60 * SECOND],
    ['12h', 12 * HOUR],
    ['7d', 7 * DAY],
    ['2w', 14 * DAY],
    ['1.5h', 1.5 * HOUR],
    ['30 min', 30 * 60 * SECOND],
    ['2 weeks', 14 * DAY],
    ['7D', 7 * DAY],
    [' 12h ', 12 * HOUR],
    ['500ms', 500],
  ])('reads %j as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([['100'], ['1.5'], ['-1h'], ['0s'], ['0'], ['h'], ['7x'], ['soon'], [''], ['1d2h'], ['Infinityd']])(
    'refuses %j',
    (text) => {
      expect(parseDuration(text)).toBeUndefined();
    },
  );

  it("reads '0' as zero only where the caller allows it", () => {
    expect(parseDuration('0', { allowZero: true })).toBe(0);
    expect(parseDuration('0s', { allowZero: true })).toBeUndefined();
  });
});

describe('JWT_EXPIRES_IN', () => {
  it('is the token lifetime in milliseconds, seven days by default', () => {
    expect(loadConfig({}).jwtExpiresInMs).toBe(7 * DAY);
    expect(loadConfig({ JWT_EXPIRES_IN: '12h' }).jwtExpiresInMs).toBe(12 * HOUR);
    expect(loadConfig({ JWT_EXPIRES_IN: '2 weeks' }).jwtExpiresInMs).toBe(14 * DAY);
  });

  it.each([['100'], ['0'], ['-7d'], ['a week']])('refuses %j with the forms it takes', (text) => {
    expect(() => loadConfig({ JWT_EXPIRES_IN: text })).toThrow(
      /JWT_EXPIRES_IN must be a duration like 7d, 12h, 30m, 90s/,
    );
  });
});
