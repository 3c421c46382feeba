import type { Freshness } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import { describeFreshness } from './freshness';

const NOW = new Date(2026, 10, 21, 12, 0);
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3600 * 1000).toISOString();
const freshness = (overrides: Partial<Freshness>): Freshness => ({
  last_new_item_at: hoursAgo(5),
  last_checked_at: hoursAgo(3),
  last_success_at: hoursAgo(3),
  new_items_last_7_days: 42,
  ...overrides,
});

describe('describeFreshness', () => {
  it('says when the sources last ran and what the week brought', () => {
    expect(describeFreshness('paper', freshness({}), NOW)).toBe('论文来源最近更新：3小时前（近 7 天新增 42 篇）');
    expect(describeFreshness('news', freshness({ new_items_last_7_days: 5 }), NOW)).toBe(
      '新闻来源最近更新：3小时前（近 7 天新增 5 条）',
    );
  });

  it('names the newest item when the week brought nothing', () => {
    const stale = freshness({ new_items_last_7_days: 0, last_new_item_at: hoursAgo(24 * 15) });
    expect(describeFreshness('paper', stale, NOW)).toBe(
      '论文来源最近更新：3小时前（近 7 天无新增，最新论文收录于2周前）',
    );
  });

  it('says 从未 when no source of the kind ever fetched successfully, whatever was attempted', () => {
    // A failed attempt 3 hours ago is not an update (the observed "刚刚（暂无论文）" above "抓取失败").
    const failedOnly = freshness({ last_success_at: null, last_new_item_at: null, new_items_last_7_days: 0 });
    expect(describeFreshness('paper', failedOnly, NOW)).toBe('论文来源最近更新：从未（暂无论文）');
    // Items without a source run (demo data, an imported file).
    expect(describeFreshness('paper', freshness({ last_checked_at: null, last_success_at: null }), NOW)).toBe(
      '论文来源最近更新：从未（近 7 天新增 42 篇）',
    );
    expect(describeFreshness('news', freshness({ last_success_at: null, new_items_last_7_days: 0 }), NOW)).toBe(
      '新闻来源最近更新：从未（近 7 天无新增，最新新闻收录于5小时前）',
    );
    // The last success, not the last attempt.
    expect(describeFreshness('paper', freshness({ last_success_at: hoursAgo(24 * 3) }), NOW)).toBe(
      '论文来源最近更新：3天前（近 7 天新增 42 篇）',
    );
  });

  it('reads an older server without last_success_at by its last finished run', () => {
    const older = freshness({ last_checked_at: null, last_new_item_at: null, new_items_last_7_days: 0 });
    delete older.last_success_at;
    expect(describeFreshness('news', older, NOW)).toBe('新闻来源最近更新：从未（暂无新闻）');
  });
});
