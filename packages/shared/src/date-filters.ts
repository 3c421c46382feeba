/**
 * Publication-window filters (spec section 9). The Chinese label is the wire value: the web app
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
