/**
 * "Relative time" of spec section 9, for paper and news dates: 今天, 昨天, 前天, N天前 up to a week,
 * whole weeks up to 30 days, months (days / 30) under a year, then years.
 */
export const UNDATED_LABEL = '未标注日期';

const MS_PER_DAY = 24 * 60 * 60 * 1000;

export type DateInput = string | number | Date | null | undefined;

export function formatRelativeTime(input: DateInput, now: Date = new Date()): string {
  const date = parseDate(input);
  if (!date) return UNDATED_LABEL;

  // Calendar days in the viewer's time zone, so "昨天 23:00" is 昨天 even one hour later.
  const days = Math.max(0, Math.round((startOfDay(now) - startOfDay(date)) / MS_PER_DAY));
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
export function formatTimeAgo(input: DateInput, now: Date = new Date()): string {
  const date = parseDate(input);
  if (!date) return UNDATED_LABEL;
  const minutes = Math.floor((now.getTime() - date.getTime()) / MS_PER_MINUTE);
  if (minutes < 1) return '刚刚';
  if (minutes < 60) return `${minutes}分钟前`;
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)}小时前`;
  return formatRelativeTime(date, now);
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

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}
