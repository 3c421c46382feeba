/**
 * Publication-window filters. The Chinese label is the wire value: the web app
 * sends `date_filter=一天内,一周内`; `days` is null for 不限 (unlimited).
 */
export const DATE_FILTERS = [
  { label: '一天内', days: 1 },
  { label: '两天内', days: 2 },
  { label: '三天内', days: 3 },
  { label: '一周内', days: 7 },
  { label: '一月内', days: 30 },
  { label: '不限', days: null },
] as const;

export type DateFilterLabel = (typeof DATE_FILTERS)[number]['label'];

export const DATE_FILTER_LABELS: readonly DateFilterLabel[] = DATE_FILTERS.map((filter) => filter.label);

export function isDateFilterLabel(value: string): value is DateFilterLabel {
  return (DATE_FILTER_LABELS as readonly string[]).includes(value);
}

/**
 * The filters are cumulative, so the widest selected window wins; any 不限 (or nothing) means no limit.
 * Returns the number of days to look back, or null for no limit.
 */
export function widestWindowDays(labels: readonly DateFilterLabel[]): number | null {
  if (labels.length === 0) return null;
  let widest = 0;
  for (const label of labels) {
    const days = DATE_FILTERS.find((filter) => filter.label === label)?.days ?? null;
    if (days === null) return null;
    widest = Math.max(widest, days);
  }
  return widest;
}

/**
 * The reader's time zone when nothing else is configured: the product's readers are in China, and the
 * relative-time labels (今天, 昨天, 前天) and the feedback timestamp are in China Standard Time.
 */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

/** Whether `zone` is an IANA time zone this runtime knows (Asia/Shanghai, UTC, Europe/Berlin ...). */
export function isTimeZone(zone: string): boolean {
  if (zone.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const DAY_MS = 86_400_000;
const calendarFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) an instant falls on in `timeZone`. */
export function calendarDayIn(instant: Date, timeZone: string): string {
  let format = calendarFormats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    calendarFormats.set(timeZone, format);
  }
  return format.format(instant);
}

/** The calendar day `days` after `day` (negative: before); both YYYY-MM-DD, no zone involved. */
export function addCalendarDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole calendar days from `earlier` to `later` (YYYY-MM-DD each); negative when `earlier` is later. */
export function calendarDaysBetween(earlier: string, later: string): number {
  return Math.round((Date.parse(`${later}T00:00:00Z`) - Date.parse(`${earlier}T00:00:00Z`)) / DAY_MS);
}

/**
 * The first instant of calendar day `day` (YYYY-MM-DD) in `timeZone`: its midnight, or the end of the
 * clock change where a zone skips midnight (America/Santiago in September).
 */
export function startOfCalendarDay(day: string, timeZone: string): Date {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  // The zone's offset is at most 14 hours either way: the day starts within 14 hours of UTC midnight.
  let low = utcMidnight - 15 * 3_600_000;
  let high = utcMidnight + 15 * 3_600_000;
  // The first minute whose calendar day is `day` (every offset in use is whole minutes).
  while (high - low > 60_000) {
    const middle = low + Math.floor((high - low) / 120_000) * 60_000;
    if (calendarDayIn(new Date(middle), timeZone) >= day) high = middle;
    else low = middle;
  }
  return new Date(high);
}

/**
 * The first calendar day of a publication window of `days` days, in the reader's zone: a window of N
 * days holds today and the N calendar days before it, so it agrees with the relative-time labels
 * (一天内: 今天 and 昨天, never 前天; 两天内 adds 前天; 一周内 reaches 7天前; 一月内 30 days back).
 * undefined for 不限.
 */
export function windowFirstDay(days: number | null, now: Date, timeZone: string): string | undefined {
  if (days === null) return undefined;
  return addCalendarDays(calendarDayIn(now, timeZone), -days);
}
