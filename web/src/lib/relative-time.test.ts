import { afterEach, describe, expect, it } from 'vitest';
import {
  formatAbsoluteDate,
  formatRelativeTime,
  formatTimeAgo,
  getDisplayTimeZone,
  parseDate,
  setDisplayTimeZone,
  UNDATED_LABEL,
} from './relative-time';

/** A moment given as Beijing wall-clock time (UTC+8), whatever the machine's zone. */
const beijing = (day: number, hour: number, minute = 0) => new Date(Date.UTC(2026, 10, day, hour - 8, minute));

// 09:30 on 21 November 2026 in Beijing; the labels count Beijing's calendar days by default.
const NOW = beijing(21, 9, 30);
const daysAgo = (days: number, hour = 12) => beijing(21 - days, hour);

afterEach(() => {
  setDisplayTimeZone('Asia/Shanghai');
});

describe('formatRelativeTime', () => {
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
    expect(formatRelativeTime(beijing(20, 23, 50), beijing(21, 0, 10))).toBe('昨天');
    expect(formatRelativeTime(beijing(21, 0, 1), beijing(21, 23, 59))).toBe('今天');
  });

  it("counts the days of the readers' zone (Asia/Shanghai), not the browser's, as the date windows do", () => {
    expect(getDisplayTimeZone()).toBe('Asia/Shanghai');
    // 01:00 on the 27th in Beijing is still the 26th in UTC (and on a machine set to UTC).
    const oneAm = new Date('2026-11-26T17:00:00Z');
    expect(formatRelativeTime('2026-11-25', oneAm)).toBe('前天');
    expect(formatRelativeTime('2026-11-26', oneAm)).toBe('昨天');
    expect(formatRelativeTime('2026-11-27', oneAm)).toBe('今天');
    // A moment: 23:59:59 on the 25th in Beijing is 前天, one second later it is 昨天.
    expect(formatRelativeTime('2026-11-25T15:59:59Z', oneAm)).toBe('前天');
    expect(formatRelativeTime('2026-11-25T16:00:00Z', oneAm)).toBe('昨天');
  });

  it('takes the zone the server names, and ignores one that is not a zone', () => {
    const oneAm = new Date('2026-11-26T17:00:00Z');
    setDisplayTimeZone('UTC');
    expect(formatRelativeTime('2026-11-25', oneAm)).toBe('昨天');
    setDisplayTimeZone('Beijing');
    expect(getDisplayTimeZone()).toBe('UTC');
  });

  it('accepts date-only strings as calendar days, ISO timestamps and bare years', () => {
    expect(formatRelativeTime('2026-11-20', NOW)).toBe('昨天');
    expect(formatRelativeTime(daysAgo(3).toISOString(), NOW)).toBe('3天前');
    expect(formatRelativeTime('2024', NOW)).toBe('2年前');
    expect(formatRelativeTime(2024, NOW)).toBe('2年前');
    expect(formatRelativeTime(daysAgo(1).getTime(), NOW)).toBe('昨天');
  });

  it('treats a future date (clock skew) as today', () => {
    expect(formatRelativeTime(beijing(23, 0), NOW)).toBe('今天');
    expect(formatRelativeTime('2026-11-23', NOW)).toBe('今天');
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

describe('formatAbsoluteDate', () => {
  it("gives a moment as its day and minute in the readers' zone, named", () => {
    expect(formatAbsoluteDate('2026-11-21T02:05:00Z')).toBe('2026-11-21 10:05（北京时间）');
    // 23:30 UTC is already the next day in Beijing.
    expect(formatAbsoluteDate(new Date(Date.UTC(2026, 10, 20, 23, 30)))).toBe('2026-11-21 07:30（北京时间）');
    setDisplayTimeZone('Europe/Berlin');
    expect(formatAbsoluteDate('2026-11-21T02:05:00Z')).toBe('2026-11-21 03:05（Europe/Berlin）');
  });

  it('gives a date without a time as written, in every zone', () => {
    setDisplayTimeZone('America/Los_Angeles');
    expect(formatAbsoluteDate('2024-3-5')).toBe('2024-03-05');
    expect(formatAbsoluteDate('2024')).toBe('2024 年');
    expect(formatAbsoluteDate(2024)).toBe('2024 年');
  });

  it('claims no date it cannot read', () => {
    expect(formatAbsoluteDate(undefined)).toBeUndefined();
    expect(formatAbsoluteDate(null)).toBeUndefined();
    expect(formatAbsoluteDate('')).toBeUndefined();
    expect(formatAbsoluteDate('2024-02-31')).toBeUndefined();
    expect(formatAbsoluteDate('soon')).toBeUndefined();
  });
});
