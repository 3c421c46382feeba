import type { Freshness } from '@radar/shared';
import type { RecommendationKind } from './recommendation-list';
import { formatTimeAgo } from './relative-time';

const NOUN: Record<RecommendationKind, { source: string; unit: string; item: string }> = {
  paper: { source: '论文来源', unit: '篇', item: '论文' },
  news: { source: '新闻来源', unit: '条', item: '新闻' },
};

/**
 * The freshness line of a recommendation page, e.g. '论文来源最近更新：3小时前（近 7 天新增 42 篇）': when a
 * source of this kind last fetched successfully (从未 when none did: a failed attempt is not an update),
 * and how many items were published in the last 7 days (the server counts by publication date, as the
 * 一周内 window does); with none that week, when the newest item was stored. An older server without
 * `last_success_at` is read by its last finished run.
 */
export function describeFreshness(kind: RecommendationKind, freshness: Freshness, now: Date = new Date()): string {
  const noun = NOUN[kind];
  const week = freshness.new_items_last_7_days;
  const success = freshness.last_success_at === undefined ? freshness.last_checked_at : freshness.last_success_at;
  const updated = `${noun.source}最近更新：${success ? formatTimeAgo(success, now) : '从未'}`;
  if (week > 0) return `${updated}（近 7 天新增 ${week} ${noun.unit}）`;
  if (freshness.last_new_item_at) {
    const newest = `最新${noun.item}收录于${formatTimeAgo(freshness.last_new_item_at, now)}`;
    return `${updated}（近 7 天无新增，${newest}）`;
  }
  return `${updated}（暂无${noun.item}）`;
}
