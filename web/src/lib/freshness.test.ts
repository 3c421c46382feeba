import type { Freshness } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import { describeFreshness } from './freshness';

const NOW = new Date(2026, 10, 21, 12, 0);
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3600 * 1000).toISOString();
const freshness = (overrides: Partial<Freshness>): Freshness => ({
  last_new_item_at: hoursAgo(5),
  last_checked_at: hoursAgo(3),
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

  it('says so when the sources never ran or brought nothing', () => {
    // Items without a source run (demo data, an imported file): dated by the newest one.
    expect(describeFreshness('paper', freshness({ last_checked_at: null }), NOW)).toBe(
      '最新论文收录于5小时前（近 7 天新增 42 篇）',
    );
    expect(describeFreshness('paper', freshness({ last_checked_at: null, new_items_last_7_days: 0 }), NOW)).toBe(
      '最新论文收录于5小时前（近 7 天无新增）',
    );
    const empty = freshness({ last_checked_at: null, last_new_item_at: null, new_items_last_7_days: 0 });
    expect(describeFreshness('news', empty, NOW)).toBe('新闻来源尚未更新（暂无新闻）');
  });
});
