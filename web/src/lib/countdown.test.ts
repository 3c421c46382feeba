import { describe, expect, it } from 'vitest';
import { formatCountdown, formatRetryWait, msUntilNextTick, secondsUntil } from './countdown';

describe('formatCountdown (m:ss)', () => {
  it.each([
    [300, '5:00'],
    [299, '4:59'],
    [60, '1:00'],
    [59, '0:59'],
    [5, '0:05'],
    [0, '0:00'],
    [3600, '60:00'],
  ])('%i s -> %s', (seconds, text) => {
    expect(formatCountdown(seconds)).toBe(text);
  });

  it('rounds fractions up and treats negative or non-finite values as 0', () => {
    expect(formatCountdown(4.2)).toBe('0:05');
    expect(formatCountdown(-3)).toBe('0:00');
    expect(formatCountdown(Number.NaN)).toBe('0:00');
  });
});

describe('secondsUntil', () => {
  it('rounds up to whole seconds and stops at 0', () => {
    expect(secondsUntil(10_000, 0)).toBe(10);
    expect(secondsUntil(10_000, 1)).toBe(10);
    expect(secondsUntil(10_000, 1000)).toBe(9);
    expect(secondsUntil(10_000, 9_999)).toBe(1);
    expect(secondsUntil(10_000, 10_000)).toBe(0);
    expect(secondsUntil(10_000, 20_000)).toBe(0);
  });
});

describe('msUntilNextTick', () => {
  it('is the time until the shown second changes', () => {
    expect(msUntilNextTick(10_000, 0)).toBe(1000);
    expect(msUntilNextTick(10_000, 250)).toBe(750);
    expect(msUntilNextTick(10_000, 9_500)).toBe(500);
    expect(msUntilNextTick(10_000, 10_000)).toBe(0);
    expect(msUntilNextTick(10_000, 12_000)).toBe(0);
  });

  it('after waiting it, the whole seconds left dropped by exactly one', () => {
    for (const now of [0, 123, 999, 4_001, 8_999]) {
      const next = now + msUntilNextTick(10_000, now);
      expect(secondsUntil(10_000, next)).toBe(secondsUntil(10_000, now) - 1);
    }
  });
});

describe('formatRetryWait', () => {
  it('reads seconds up to a minute, m:ss under ten minutes, rounded-up minutes beyond', () => {
    expect(formatRetryWait(42)).toBe('42 秒');
    expect(formatRetryWait(60)).toBe('60 秒');
    expect(formatRetryWait(61)).toBe('1:01');
    expect(formatRetryWait(545)).toBe('9:05');
    expect(formatRetryWait(599)).toBe('9:59');
    expect(formatRetryWait(600)).toBe('约 10 分钟');
    expect(formatRetryWait(3245)).toBe('约 55 分钟');
    expect(formatRetryWait(-3)).toBe('0 秒');
  });
});
