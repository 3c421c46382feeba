import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  calendarDayIn,
  calendarDaysBetween,
  DATE_FILTERS,
  startOfCalendarDay,
  windowFirstDay,
} from '../src/date-filters';

describe("publication windows in the reader's time zone", () => {
  // 01:00 on 27 November in Beijing is still 26 November in UTC.
  const beijingOneAm = new Date('2026-11-26T17:00:00Z');

  it('count calendar days of the zone, not of UTC', () => {
    expect(calendarDayIn(beijingOneAm, 'Asia/Shanghai')).toBe('2026-11-27');
    expect(calendarDayIn(beijingOneAm, 'UTC')).toBe('2026-11-26');
    // 一天内 at 01:00 Beijing time: today (27th) and yesterday (26th); the 25th (前天) is out.
    expect(windowFirstDay(1, beijingOneAm, 'Asia/Shanghai')).toBe('2026-11-26');
    expect(windowFirstDay(1, beijingOneAm, 'UTC')).toBe('2026-11-25');
  });

  it('hold today and N calendar days before it, like the labels 今天 ... N天前', () => {
    const firstDays = DATE_FILTERS.map((filter) => [
      filter.label,
      windowFirstDay(filter.days, beijingOneAm, 'Asia/Shanghai'),
    ]);
    expect(firstDays).toEqual([
      ['一天内', '2026-11-26'],
      ['两天内', '2026-11-25'],
      ['三天内', '2026-11-24'],
      ['一周内', '2026-11-20'],
      ['一月内', '2026-10-28'],
      ['不限', undefined],
    ]);
  });

  it("change day at the zone's midnight, to the second", () => {
    expect(windowFirstDay(1, new Date('2026-11-26T15:59:59Z'), 'Asia/Shanghai')).toBe('2026-11-25');
    expect(windowFirstDay(1, new Date('2026-11-26T16:00:00Z'), 'Asia/Shanghai')).toBe('2026-11-26');
  });

  it('find the first instant of a calendar day, also where a zone skips midnight', () => {
    expect(startOfCalendarDay('2026-11-26', 'Asia/Shanghai').toISOString()).toBe('2026-11-25T16:00:00.000Z');
    expect(startOfCalendarDay('2026-11-26', 'UTC').toISOString()).toBe('2026-11-26T00:00:00.000Z');
    expect(startOfCalendarDay('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfCalendarDay('2026-11-26', 'Pacific/Kiritimati').toISOString()).toBe('2026-11-25T10:00:00.000Z');
    // Santiago's clocks go from 00:00 to 01:00 on 6 September 2026: that day starts at 01:00 (-03:00).
    expect(startOfCalendarDay('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });

  it('do calendar arithmetic across months and years', () => {
    expect(addCalendarDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addCalendarDays('2027-01-01', -30)).toBe('2026-12-02');
    expect(calendarDaysBetween('2026-11-25', '2026-11-27')).toBe(2);
    expect(calendarDaysBetween('2026-11-27', '2026-11-25')).toBe(-2);
  });
});
