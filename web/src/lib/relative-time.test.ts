import { describe, expect, it } from 'vitest';
import { formatRelativeTime, formatTimeAgo, parseDate, UNDATED_LABEL } from './relative-time';

// Local-time constructors keep these tests independent of the machine's time zone.
const NOW = new Date(2026, 10, 21, 9, 30);
const daysAgo = (days: number, hour = 12) => new Date(2026, 10, 21 - days, hour);

describe('formatRelativeTime (spec section 9)', () => {
  it.each([
    [0, '今天'],
    [1, '昨天'],
    [2, '前天'],
    [3, '3天前'],
    [7, '7天前'],
    [8, '1周前'],
    [13, '1周前'],
    [14, '2周前'],
    [30, '4周前'],
    [31, '1个月前'],
    [59, '1个月前'],
    [60, '2个月前'],
    [364, '12个月前'],
    [365, '1年前'],
    [800, '2年前'],
  ])('%i days ago -> %s', (days, expected) => {
    expect(formatRelativeTime(daysAgo(days), NOW)).toBe(expected);
  });

  it('counts calendar days, not 24-hour periods', () => {
    expect(formatRelativeTime(new Date(2026, 10, 20, 23, 50), new Date(2026, 10, 21, 0, 10))).toBe('昨天');
    expect(formatRelativeTime(new Date(2026, 10, 21, 0, 1), new Date(2026, 10, 21, 23, 59))).toBe('今天');
  });

  it('accepts date-only strings as local dates, ISO timestamps and bare years', () => {
    expect(formatRelativeTime('2026-11-20', NOW)).toBe('昨天');
    expect(formatRelativeTime(daysAgo(3).toISOString(), NOW)).toBe('3天前');
    expect(formatRelativeTime('2024', NOW)).toBe('2年前');
    expect(formatRelativeTime(2024, NOW)).toBe('2年前');
    expect(formatRelativeTime(daysAgo(1).getTime(), NOW)).toBe('昨天');
  });

  it('treats a future date (clock skew) as today', () => {
    expect(formatRelativeTime(new Date(2026, 10, 23), NOW)).toBe('今天');
  });

  it.each([null, undefined, '', '   ', 'not a date', '2026-02-31', Number.NaN, 42, new Date(Number.NaN)])(
    '%s -> 未标注日期',
    (input) => {
      expect(formatRelativeTime(input, NOW)).toBe(UNDATED_LABEL);
    },
  );

  it('parseDate reads a date-only string as local midnight', () => {
    expect(parseDate('2026-01-05')?.getTime()).toBe(new Date(2026, 0, 5).getTime());
  });
});

describe('formatTimeAgo', () => {
  const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60 * 1000);

  it.each([
    [0, '刚刚'],
    [-5, '刚刚'],
    [1, '1分钟前'],
    [59, '59分钟前'],
    [60, '1小时前'],
    [3 * 60 + 20, '3小时前'],
    [23 * 60 + 59, '23小时前'],
    [24 * 60, '昨天'],
    [3 * 24 * 60, '3天前'],
  ])('%i minutes ago -> %s', (minutes, expected) => {
    expect(formatTimeAgo(minutesAgo(minutes), NOW)).toBe(expected);
  });

  it('reads ISO timestamps and says when there is no moment', () => {
    expect(formatTimeAgo(minutesAgo(90).toISOString(), NOW)).toBe('1小时前');
    expect(formatTimeAgo(null, NOW)).toBe(UNDATED_LABEL);
  });
});
