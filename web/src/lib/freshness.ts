import type { Freshness } from '@radar/shared';
import type { RecommendationKind } from './recommendation-list';
import { formatTimeAgo } from './relative-time';

const NOUN: Record<RecommendationKind, { source: string; unit: string; item: string }> = {
  paper: { source: '论文来源', unit: '篇', item: '论文' },
  news: { source: '新闻来源', unit: '条', item: '新闻' },
};

/**
 * The freshness line of a recommendation page, e.g. '论文来源最近更新：3小时前（近 7 天新增 42 篇）': when a
 * source last finished a run and how many items the last week brought; with nothing new that week, when
 * the newest item came. Items that came without a source run (demo data, an imported file) are dated by
 * the newest item instead of calling the sources idle.
 */
export function describeFreshness(kind: RecommendationKind, freshness: Freshness, now: Date = new Date()): string {
  const noun = NOUN[kind];
  const week = freshness.new_items_last_7_days;
  if (!freshness.last_checked_at) {
    if (!freshness.last_new_item_at) return `${noun.source}尚未更新（暂无${noun.item}）`;
    const newest = `最新${noun.item}收录于${formatTimeAgo(freshness.last_new_item_at, now)}`;
    return week > 0 ? `${newest}（近 7 天新增 ${week} ${noun.unit}）` : `${newest}（近 7 天无新增）`;
  }
  const checked = `${noun.source}最近更新：${formatTimeAgo(freshness.last_checked_at, now)}`;
  if (week > 0) return `${checked}（近 7 天新增 ${week} ${noun.unit}）`;
  if (freshness.last_new_item_at) {
    return `${checked}（近 7 天无新增，最新${noun.item}收录于${formatTimeAgo(freshness.last_new_item_at, now)}）`;
  }
  return `${checked}（暂无${noun.item}）`;
}
