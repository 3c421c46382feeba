import { describe, expect, it } from 'vitest';
import type { SourceSetup } from '../src/content-sources';
import { explainEmptyList, explainEmptyResult, narrowestWiderWindow } from '../src/empty-explanation';

/** The empty-result explanation's rules that the HTTP tests (learning.test.ts) cannot reach cheaply. */

const facts = (overrides: Partial<Parameters<typeof explainEmptyList>[0]> = {}) => ({
  kind: 'paper' as const,
  availability: { total: 10, embedded: 10, inWindow: 10, allowed: 10 },
  windowLabel: '一周内' as const,
  excludedTiers: [4, 3],
  threshold: 0.3,
  nearestSimilarities: [0.27, 0.26, 0.12],
  ...overrides,
});

describe('explainEmptyList', () => {
  it('offers the highest threshold on the slider grid that lets the closest through, with the count', () => {
    expect(explainEmptyList(facts())).toEqual({
      cause: 'below_threshold',
      message: '没有论文达到相似度阈值 30%（最接近的为 27.0%）',
      suggestion: '把相似度阈值降到 25%，可看到 2 篇论文',
      change: { similarity_threshold: '0.25' },
    });
    // Exactly on the grid: kept, and never above the closest similarity.
    expect(explainEmptyList(facts({ nearestSimilarities: [0.15] })).change).toEqual({ similarity_threshold: '0.15' });
  });

  it('offers no threshold below the slider minimum; a wider window instead when there is one', () => {
    const weak = explainEmptyList(facts({ nearestSimilarities: [0.03] }));
    expect(weak).toMatchObject({ cause: 'below_threshold', change: null });
    const widened = explainEmptyList(
      facts({ nearestSimilarities: [0.03], widerWindow: { label: '一月内', count: 40 } }),
    );
    expect(widened.change).toEqual({ date_filter: '一月内' });
  });

  it('checks the causes in filter order', () => {
    expect(explainEmptyList(facts({ availability: { total: 0, embedded: 0, inWindow: 0, allowed: 0 } })).cause).toBe(
      'no_items',
    );
    expect(explainEmptyList(facts({ availability: { total: 5, embedded: 0, inWindow: 0, allowed: 0 } })).cause).toBe(
      'items_not_embedded',
    );
    expect(explainEmptyList(facts({ availability: { total: 5, embedded: 5, inWindow: 0, allowed: 0 } })).cause).toBe(
      'nothing_in_window',
    );
    const tiers = explainEmptyList(facts({ availability: { total: 5, embedded: 5, inWindow: 3, allowed: 0 } }));
    expect(tiers).toMatchObject({ cause: 'excluded_tiers', change: { excluded_jcr: '' } });
    expect(tiers.message).toContain('Q4、Q3');
    expect(explainEmptyList(facts({ nearestSimilarities: [] })).cause).toBe('all_dismissed');
  });

  it('with nothing stored, names what is missing and who can fix it, promising content only when a run will come', () => {
    const none = { total: 0, embedded: 0, inWindow: 0, allowed: 0 };
    const failure = { name: 'arxiv-cs', since: new Date('2026-11-26T02:20:00Z'), error: 'HTTP 503' };
    const read = (overrides: object): SourceSetup => ({
      state: 'read' as const,
      catalogue: false,
      configured: 1,
      relevant: 1,
      readerHasFields: false,
      fieldsWithoutSource: [],
      scheduled: true,
      finished: 0,
      failing: [],
      ...overrides,
    });
    const explain = (sources: Parameters<typeof explainEmptyList>[0]['sources']) =>
      explainEmptyList(facts({ availability: none, sources }));

    expect(explain(read({ configured: 0 }))).toEqual({
      cause: 'no_items',
      message: '还没有任何论文：管理员尚未配置论文来源',
      suggestion: '请联系管理员添加论文来源；管理员也可运行 radar demo 载入演示数据先行体验',
      change: null,
      sources: { state: 'no_source', fields_without_source: [] },
    });
    expect(explain(read({})).message).toBe('还没有任何论文：论文来源已配置，正在等待首次抓取');
    expect(explain(read({ scheduled: false })).message).toBe('还没有任何论文：论文来源已配置，但定时抓取已关闭');
    expect(explain(read({ finished: 1, failing: [failure] })).message).toBe(
      '还没有任何论文：论文来源抓取失败（arxiv-cs 自 11月26日 10:20 起：HTTP 503）',
    );
    expect(explain(read({ finished: 1 })).message).toBe('还没有任何论文：论文来源已运行，但没有抓取到论文');
    expect(explain({ state: 'unreadable' }).message).toBe('还没有任何论文：内容来源的配置有误，无法抓取');
    // Only a scheduled source that has yet to run may say content is coming; nothing says "come back later".
    for (const sources of [
      read({ configured: 0 }),
      read({ scheduled: false }),
      read({ failing: [failure] }),
      undefined,
    ]) {
      const { message, suggestion } = explain(sources);
      expect(`${message}${suggestion}`).not.toMatch(/请稍后再来|首次抓取按计划/);
    }
  });

  it('keeps a filter change as the suggestion and says beside it that the first fetch is still running', () => {
    const firstFetch = {
      sources: ['arxiv-cond-mat'],
      startedAt: new Date('2026-11-26T02:20:00Z'),
      expectedBy: new Date('2026-11-26T02:25:00Z'),
    };
    const sources: SourceSetup = {
      state: 'read',
      catalogue: true,
      configured: 3,
      relevant: 3,
      readerHasFields: true,
      fieldsWithoutSource: [],
      scheduled: true,
      finished: 1,
      failing: [],
      firstFetch,
    };
    const explanation = explainEmptyList(
      facts({
        availability: { total: 3, embedded: 3, inWindow: 0, allowed: 0 },
        widerWindow: { label: '不限', count: 3 },
        sources,
      }),
    );
    expect(explanation).toMatchObject({
      cause: 'nothing_in_window',
      suggestion: '把发布时间放宽到“不限”，有 3 篇论文可供推荐',
      change: { date_filter: '不限' },
      sources: { state: 'first_fetch' },
    });
    expect(explanation.sources_note).toBe(
      '你的研究领域的论文来源正在首次抓取（10:20 开始，预计 10:25 前完成，此为估计），完成后本页会自动刷新',
    );
    // With no filter change to offer, the note is the suggestion, and is not repeated.
    const noChange = explainEmptyList(
      facts({ availability: { total: 3, embedded: 3, inWindow: 0, allowed: 0 }, sources }),
    );
    expect(noChange.suggestion).toBe(explanation.sources_note);
    expect(noChange.sources_note).toBeUndefined();
  });

  it('finds the narrowest wider window with items, asking one window at a time', async () => {
    const asked: (number | null)[] = [];
    const counts = new Map<number | null, number>([
      [30, 0],
      [null, 12],
    ]);
    const found = await narrowestWiderWindow(7, async (days) => {
      asked.push(days);
      return counts.get(days) ?? 0;
    });
    expect(found).toEqual({ label: '不限', count: 12 });
    expect(asked).toEqual([30, null]);
    expect(await narrowestWiderWindow(null, async () => 5)).toBeUndefined();
    expect(await narrowestWiderWindow(1, async (days) => (days === 3 ? 4 : 0))).toEqual({ label: '三天内', count: 4 });
  });

  it('says "超过" for a count above the cap of a capped count, and the exact number below it', () => {
    const cap = 10_000;
    expect(
      explainEmptyList(facts({ availability: { total: cap + 1, embedded: 0, inWindow: 0, allowed: 0, cap } })).message,
    ).toBe('超过 10000 篇论文的向量正在计算中');
    const empty = { total: cap + 1, embedded: cap + 1, inWindow: 0, allowed: 0, cap };
    expect(
      explainEmptyList(facts({ availability: empty, widerWindow: { label: '不限', count: cap + 1 } })).suggestion,
    ).toBe('把发布时间放宽到“不限”，有超过 10000 篇论文可供推荐');
    expect(
      explainEmptyList(
        facts({ availability: { ...empty, total: 12, embedded: 12 }, widerWindow: { label: '一月内', count: 12 } }),
      ).suggestion,
    ).toBe('把发布时间放宽到“一月内”，有 12 篇论文可供推荐');
    expect(
      explainEmptyList(
        facts({ availability: { total: cap + 1, embedded: cap + 1, inWindow: cap + 1, allowed: 0, cap } }),
      ).suggestion,
    ).toBe('取消排除 JCR 分区，有超过 10000 篇论文可供推荐');
  });

  it('counts nothing when candidates passing every filter but the threshold were found', async () => {
    let counted = 0;
    const explanation = await explainEmptyResult({
      kind: 'paper',
      days: 7,
      threshold: 0.5,
      excludedTiers: [],
      availability: async () => {
        counted += 1;
        return { total: 0, embedded: 0, inWindow: 0, allowed: 0 };
      },
      widerAllowedIn: async () => {
        counted += 1;
        return 0;
      },
      nearestSimilarities: async () => [0.3, 0.2],
    });
    expect(counted).toBe(0);
    expect(explanation).toEqual({
      cause: 'below_threshold',
      message: '没有论文达到相似度阈值 50%（最接近的为 30.0%）',
      suggestion: '把相似度阈值降到 30%，可看到 1 篇论文',
      change: { similarity_threshold: '0.30' },
    });
  });
});
