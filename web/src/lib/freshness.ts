import type { Freshness } from '@radar/shared';
import type { RecommendationKind } from './recommendation-list';
import { formatTimeAgo } from './relative-time';

const NOUN: Record<RecommendationKind, { source: string; unit: string; item: string }> = {
  paper: { source: '论文来源', unit: '篇', item: '论文' },
  news: { source: '新闻来源', unit: '条', item: '新闻' },
};

/**
 * The freshness line of a recommendation page, e.g. '论文来源最近更新：3小时前（近 7 天新增 42 篇）':
 * when a source last finished a run and how many items the last week brought. With nothing new that
 * week it says when the newest item came instead.
 */
export function describeFreshness(kind: RecommendationKind, freshness: Freshness, now: Date = new Date()): string {
  const noun = NOUN[kind];
  const checked = freshness.last_checked_at
    ? `${noun.source}最近更新：${formatTimeAgo(freshness.last_checked_at, now)}`
    : `${noun.source}尚未更新`;
  if (freshness.new_items_last_7_days > 0) {
    return `${checked}（近 7 天新增 ${freshness.new_items_last_7_days} ${noun.unit}）`;
  }
  if (freshness.last_new_item_at) {
    return `${checked}（近 7 天无新增，最新${noun.item}收录于${formatTimeAgo(freshness.last_new_item_at, now)}）`;
  }
  return `${checked}（暂无${noun.item}）`;
}
