import { calendarDayIn, calendarDaysBetween, DEFAULT_TIME_ZONE, isTimeZone } from '@radar/shared';

/**
 * Relative time, for paper and news dates: 今天, 昨天, 前天, N天前 up to a week,
 * whole weeks up to 30 days, months (days / 30) under a year, then years.
 */
export const UNDATED_LABEL = '未标注日期';

export type DateInput = string | number | Date | null | undefined;

/**
 * The zone whose calendar days the labels count: the server's readers' zone (TIME_ZONE), whose
 * publication windows count the same days, so a paper labelled 前天 is never in 一天内. Asia/Shanghai
 * (the server's default) until the server names another; the browser's own zone is never used, as the
 * windows do not follow it.
 */
let displayTimeZone = DEFAULT_TIME_ZONE;

/** Adopts the server's readers' zone (its public configuration); anything that is not a zone is ignored. */
export function setDisplayTimeZone(zone: string | null | undefined): void {
  if (zone && isTimeZone(zone)) displayTimeZone = zone;
}

export function getDisplayTimeZone(): string {
  return displayTimeZone;
}

export function formatRelativeTime(input: DateInput, now: Date = new Date(), timeZone = displayTimeZone): string {
  const day = calendarDayOf(input, timeZone);
  if (!day) return UNDATED_LABEL;

  // Calendar days, so "昨天 23:00" is 昨天 even one hour later; a future date (clock skew) is 今天.
  const days = Math.max(0, calendarDaysBetween(day, calendarDayIn(now, timeZone)));
  if (days === 0) return '今天';
  if (days === 1) return '昨天';
  if (days === 2) return '前天';
  if (days <= 7) return `${days}天前`;
  if (days <= 30) return `${Math.floor(days / 7)}周前`;
  if (days < 365) return `${Math.floor(days / 30)}个月前`;
  return `${Math.floor(days / 365)}年前`;
}

const MS_PER_MINUTE = 60 * 1000;

/**
 * How long ago something happened, for moments rather than dates (when a source last ran): 刚刚,
 * N分钟前 and N小时前 within the last 24 hours, then the days, weeks, months and years of
 * formatRelativeTime. A moment in the future (another machine's clock) is 刚刚.
 */
export function formatTimeAgo(input: DateInput, now: Date = new Date(), timeZone = displayTimeZone): string {
  const date = parseDate(input);
  if (!date) return UNDATED_LABEL;
  const minutes = Math.floor((now.getTime() - date.getTime()) / MS_PER_MINUTE);
  if (minutes < 1) return '刚刚';
  if (minutes < 60) return `${minutes}分钟前`;
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)}小时前`;
  return formatRelativeTime(date, now, timeZone);
}

/**
 * The absolute date behind a relative label, for its tooltip (a relative label alone hides which day it
 * means). A date without a time is its day as written (2024-03-05; a bare year stays 2024 年); a moment is
 * its day and minute in the readers' zone, named (北京时间 for Asia/Shanghai, else the IANA name), e.g.
 * '2026-11-21 10:30（北京时间）'. Undefined when unparseable, so no tooltip claims a date.
 */
export function formatAbsoluteDate(input: DateInput, timeZone = displayTimeZone): string | undefined {
  if (input === null || input === undefined) return undefined;
  const text = typeof input === 'string' ? input.trim() : undefined;
  const year =
    text !== undefined ? /^(\d{4})$/.exec(text)?.[1] : /^\d{4}$/.test(String(input)) ? String(input) : undefined;
  if (year) return `${year} 年`;
  if (text !== undefined && /^\d{4}-\d{1,2}-\d{1,2}$/.test(text)) return calendarDayOf(text, timeZone);
  const date = parseDate(input);
  if (!date) return undefined;
  const parts = momentFormat(timeZone).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((entry) => entry.type === type)?.value ?? '';
  const zoneName = timeZone === DEFAULT_TIME_ZONE ? '北京时间' : timeZone;
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}（${zoneName}）`;
}

/** A moment to the minute, two digits a field and a 24-hour clock (the locale sets the separators). */
export const MINUTE_FIELDS = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
} as const satisfies Intl.DateTimeFormatOptions;

const momentFormats = new Map<string, Intl.DateTimeFormat>();

function momentFormat(timeZone: string): Intl.DateTimeFormat {
  let format = momentFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, ...MINUTE_FIELDS });
    momentFormats.set(timeZone, format);
  }
  return format;
}

/**
 * The calendar day (YYYY-MM-DD) a date falls on in `timeZone`. A date without a time (a publication
 * day, a bare year) is that day in every zone, as the server's windows read it; a moment is the day it
 * falls on in the zone. Undefined when unparseable (see parseDate).
 */
function calendarDayOf(input: DateInput, timeZone: string): string | undefined {
  if (input === null || input === undefined || input instanceof Date || typeof input === 'number') {
    const date = parseDate(input);
    if (!date) return undefined;
    // A bare year given as a number (2024) is a day, not a moment.
    return typeof input === 'number' && /^\d{4}$/.test(String(input))
      ? `${input}-01-01`
      : calendarDayIn(date, timeZone);
  }
  const text = input.trim();
  const yearOnly = /^(\d{4})$/.exec(text);
  if (yearOnly) return `${yearOnly[1]}-01-01`;
  const date = parseDate(text);
  if (!date) return undefined;
  if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(text)) {
    // parseDate read it as local midnight: its local fields are the day itself.
    const pad = (value: number) => String(value).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  }
  return calendarDayIn(date, timeZone);
}

/**
 * Accepts ISO timestamps, date-only strings (read as local dates, not UTC midnight) and bare years
 * (recommendations may carry only the publication year). Anything else unparseable is undated.
 */
export function parseDate(input: DateInput): Date | null {
  if (input === null || input === undefined) return null;
  if (input instanceof Date) return Number.isNaN(input.getTime()) ? null : input;

  const text = String(input).trim();
  if (text === '') return null;

  const yearOnly = /^(\d{4})$/.exec(text);
  if (yearOnly) return new Date(Number(yearOnly[1]), 0, 1);

  const dateOnly = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (dateOnly) {
    const [, year, month, day] = dateOnly.map(Number);
    if (year === undefined || month === undefined || day === undefined) return null;
    const date = new Date(year, month - 1, day);
    // Reject roll-overs such as 2024-02-31.
    return date.getMonth() === month - 1 && date.getDate() === day ? date : null;
  }

  // Other numbers are epoch milliseconds only if they look like it; a stray "42" is not a date.
  if (typeof input === 'number') return input > 1e11 ? new Date(input) : null;

  const timestamp = Date.parse(text);
  return Number.isNaN(timestamp) ? null : new Date(timestamp);
}
