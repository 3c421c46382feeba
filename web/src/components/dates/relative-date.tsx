import { type DateInput, formatAbsoluteDate, formatRelativeTime, formatTimeAgo } from '@/lib/relative-time';

/**
 * A relative date in running text (关注于3天前, 最近活动：2小时前) whose hover text is the absolute date in the
 * readers' zone: a relative label alone never says which day it means. `moment` counts minutes and hours
 * (formatTimeAgo) instead of calendar days.
 */
export function RelativeDate({
  value,
  moment = false,
  format = (relative) => relative,
  now,
}: {
  value: DateInput;
  moment?: boolean;
  /** Places the relative label in its sentence. */
  format?: (relative: string) => string;
  now?: Date;
}) {
  const relative = moment ? formatTimeAgo(value, now) : formatRelativeTime(value, now);
  const absolute = formatAbsoluteDate(value);
  return (
    <span title={absolute} data-testid="relative-date">
      {format(relative)}
    </span>
  );
}
