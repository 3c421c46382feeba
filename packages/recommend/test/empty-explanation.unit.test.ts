import { describe, expect, it } from 'vitest';
import type { SourceSetup } from '../src/content-sources';
import { explainEmptyList, explainEmptyResult, findFilterRelief } from '../src/empty-explanation';

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
      facts({
        nearestSimilarities: [0.03],
        relief: { window: '一月内', includeTiers: false, count: 8, atLeast: false },
      }),
    );
    expect(widened).toEqual({
      cause: 'nothing_in_window',
      message: '“一周内”没有相似度达到 30% 的论文',
      suggestion: '把发布时间放宽到“一月内”，可看到 8 篇论文',
      change: { date_filter: '一月内' },
    });
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
    const failure = { name: 'arxiv-cs', since: new Date('2026-11-26T02:20:00Z'), reason: '来源服务器出错' };
    const read = (overrides: object): SourceSetup => ({
      state: 'read' as const,
      catalogue: false,
      configured: 1,
      relevant: 1,
      readerHasFields: false,
      fieldsWithoutSource: [],
      scheduled: true,
      finished: 0,
      succeeded: 0,
      failing: [],
      ...overrides,
    });
    const explain = (sources: Parameters<typeof explainEmptyList>[0]['sources']) =>
      explainEmptyList(facts({ availability: none, sources }));

    expect(explain(read({ configured: 0 }))).toEqual({
      cause: 'no_items',
      message: '还没有任何论文：管理员尚未配置论文来源',
      suggestion: '请联系管理员添加论文来源',
      change: null,
      sources: { state: 'no_source', fields_without_source: [] },
    });
    expect(explain(read({})).message).toBe('还没有任何论文：论文来源已配置，正在等待首次抓取');
    expect(explain(read({ scheduled: false })).message).toBe('还没有任何论文：论文来源已配置，但定时抓取已关闭');
    expect(explain(read({ finished: 1, failing: [failure] })).message).toBe(
      '还没有任何论文：论文来源抓取失败（arxiv-cs 自 11月26日 10:20 起来源服务器出错）',
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
    // The reader is never given a command: operators' advice stays in `pnpm radar sources` and /metrics.
    for (const sources of [
      read({ configured: 0 }),
      read({ scheduled: false }),
      read({ failing: [failure] }),
      read({ finished: 1 }),
      read({ relevant: 0 }),
      { state: 'unreadable' as const },
    ]) {
      const { message, suggestion } = explain(sources);
      expect(`${message}${suggestion}`).not.toMatch(/radar|运行 |<|[a-z]{4,} [a-z]{4,}/);
    }
  });

  it('keeps a filter change as the suggestion and says beside it that the first fetch is still running', () => {
    const firstFetch = {
      sources: ['arxiv-cond-mat'],
      startedAt: new Date('2026-11-26T02:20:00Z'),
      expectedBy: new Date('2026-11-26T02:25:00Z'),
      isLate: false,
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
      succeeded: 1,
      failing: [],
      firstFetch,
    };
    const explanation = explainEmptyList(
      facts({
        availability: { total: 3, embedded: 3, inWindow: 0, allowed: 0 },
        nearestSimilarities: [],
        relief: { window: '不限', includeTiers: false, count: 3, atLeast: false },
        sources,
      }),
    );
    expect(explanation).toMatchObject({
      cause: 'nothing_in_window',
      message: '“一周内”没有新论文',
      suggestion: '把发布时间放宽到“不限”，可看到 3 篇论文',
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

  it('says "超过" for a count above the cap of a capped count, and the exact number below it', () => {
    const cap = 10_000;
    expect(
      explainEmptyList(facts({ availability: { total: cap + 1, embedded: 0, inWindow: 0, allowed: 0, cap } })).message,
    ).toBe('超过 10000 篇论文的向量正在计算中');
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
      topK: 20,
      excludedTiers: [],
      availability: async () => {
        counted += 1;
        return { total: 0, embedded: 0, inWindow: 0, allowed: 0 };
      },
      beyondFilters: async () => ({ rows: [], complete: true }),
      mayRelieve: false,
      windowStart: () => '2026-11-20',
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

  it('searches beyond the filters only when the closest item of the corpus could pass the threshold', async () => {
    const searches: string[] = [];
    const explain = (closestSimilarity: number | undefined, nearest: number[]) =>
      explainEmptyResult({
        kind: 'paper',
        days: 7,
        threshold: 0.5,
        topK: 20,
        excludedTiers: [4, 3],
        availability: async () => ({ total: 9, embedded: 9, inWindow: 0, allowed: 0 }),
        beyondFilters: async () => {
          searches.push(`closest ${closestSimilarity}`);
          return { rows: [{ similarity: 0.45, date: '2025-05-01', tier: 4 }], complete: true };
        },
        mayRelieve: true,
        closestSimilarity,
        windowStart: (days) => (days === null ? undefined : '2026-11-20'),
        nearestSimilarities: async () => nearest,
      });
    // Candidates below the threshold, and nothing in the corpus reaches it: the threshold explains the
    // list, as the search beyond the filters would have found (its rows are all below the threshold too).
    const skipped = await explain(0.45, [0.3, 0.2]);
    expect(searches).toEqual([]);
    expect(skipped).toEqual(await explain(undefined, [0.3, 0.2]));
    expect(searches).toEqual(['closest undefined']);
    expect(skipped).toMatchObject({ cause: 'below_threshold', change: { similarity_threshold: '0.30' } });
    // No candidate in the request's filters: a filter change with a lower threshold is offered, so the
    // search runs.
    expect(await explain(0.45, [])).toMatchObject({
      cause: 'nothing_in_window',
      change: { date_filter: '不限', excluded_jcr: '', similarity_threshold: '0.45' },
    });
    expect(searches).toEqual(['closest undefined', 'closest 0.45']);
  });

  it('blames the window, not the threshold, when a wider window holds papers close enough', async () => {
    // The observed case: 一周内 has only distant papers (below the slider's minimum), 不限 has 8 close ones.
    const week = '2026-11-23';
    const rows = [
      ...Array.from({ length: 8 }, (_, index) => ({ similarity: 0.6 - index * 0.01, date: '2025-05-01', tier: 1 })),
      { similarity: 0.04, date: '2026-11-25', tier: null },
    ];
    const explanation = await explainEmptyResult({
      kind: 'paper',
      days: 7,
      threshold: 0.3,
      topK: 20,
      excludedTiers: [4, 3],
      availability: async () => {
        throw new Error('no count needed');
      },
      beyondFilters: async () => ({ rows, complete: true }),
      windowStart: (days) => (days === null ? undefined : days === 30 ? '2026-10-31' : week),
      nearestSimilarities: async () => [0.04],
    });
    expect(explanation).toEqual({
      cause: 'nothing_in_window',
      message: '“一周内”没有相似度达到 30% 的论文',
      suggestion: '把发布时间放宽到“不限”，可看到 8 篇论文',
      change: { date_filter: '不限' },
    });
  });

  it('finds the first window or tier change bringing items above the threshold, counting what the list would show', () => {
    const windowStart = (days: number | null) =>
      days === null ? undefined : `2026-11-${String(29 - days).padStart(2, '0')}`;
    const base = { threshold: 0.3, topK: 5, days: 1, excludedTiers: [4, 3], windowStart, complete: true };
    const row = (similarity: number, date: string, tier: number | null = null) => ({ similarity, date, tier });
    // Narrowest wider window first; items below the threshold never count.
    expect(
      findFilterRelief({ ...base, rows: [row(0.5, '2026-11-24'), row(0.2, '2026-11-27'), row(0.4, '2026-11-10')] }),
    ).toEqual({ window: '一周内', includeTiers: false, count: 1, atLeast: false });
    // Only excluded tiers hold close papers in the window: include the tiers.
    expect(findFilterRelief({ ...base, rows: [row(0.5, '2026-11-28', 4)] })).toEqual({
      includeTiers: true,
      count: 1,
      atLeast: false,
    });
    // Older and in an excluded tier: both.
    expect(findFilterRelief({ ...base, rows: [row(0.5, '2026-01-01', 3)] })).toEqual({
      window: '不限',
      includeTiers: true,
      count: 1,
      atLeast: false,
    });
    // Capped at top_k; a lower bound when rows were cut off above the threshold.
    const many = Array.from({ length: 3 }, () => row(0.9, '2026-11-27'));
    expect(findFilterRelief({ ...base, rows: many, complete: false })).toMatchObject({ count: 3, atLeast: true });
    expect(findFilterRelief({ ...base, rows: [...many, ...many], complete: false })).toMatchObject({
      count: 5,
      atLeast: false,
    });
    expect(findFilterRelief({ ...base, rows: [row(0.1, '2026-01-01')] })).toBeUndefined();
  });

  it('with nothing at all in the window, widens and lowers the threshold in one change when only that helps', () => {
    const windowStart = (days: number | null) =>
      days === null ? undefined : `2026-11-${String(29 - days).padStart(2, '0')}`;
    const base = { threshold: 0.3, topK: 20, days: 7, excludedTiers: [], windowStart, complete: true };
    const rows = [
      { similarity: 0.22, date: '2025-03-01', tier: null },
      { similarity: 0.21, date: '2025-02-01', tier: null },
    ];
    // Below the threshold everywhere: lowering it alone cannot help a window holding nothing.
    expect(findFilterRelief({ ...base, rows })).toBeUndefined();
    const relief = findFilterRelief({ ...base, rows, mayLowerThreshold: true });
    expect(relief).toEqual({ window: '不限', includeTiers: false, count: 2, atLeast: false, threshold: 0.2 });
    expect(
      explainEmptyList(
        facts({ availability: { total: 2, embedded: 2, inWindow: 0, allowed: 0 }, nearestSimilarities: [], relief }),
      ),
    ).toEqual({
      cause: 'nothing_in_window',
      message: '“一周内”没有新论文',
      suggestion: '把发布时间放宽到“不限”并把相似度阈值降到 20%，可看到 2 篇论文',
      change: { date_filter: '不限', similarity_threshold: '0.20' },
    });
    // Nothing the slider can reach: no change offered.
    expect(
      findFilterRelief({
        ...base,
        rows: [{ similarity: 0.02, date: '2025-03-01', tier: null }],
        mayLowerThreshold: true,
      }),
    ).toBeUndefined();
  });

  it('says failing sources in Chinese, grouped, with since when and the next retry; no first fetch once one failed', () => {
    const since = new Date('2026-11-28T22:45:00Z'); // 06:45 in Beijing
    const failing = Array.from({ length: 27 }, (_, index) => ({
      name: index === 0 ? 'arxiv-q-bio' : `arxiv-${index}`,
      since,
      reason: '无法连接（域名解析失败）',
      nextRetryAt: new Date('2026-11-29T04:10:00Z'),
    }));
    const sources: SourceSetup = {
      state: 'read',
      catalogue: true,
      configured: 30,
      relevant: 30,
      readerHasFields: true,
      fieldsWithoutSource: [],
      scheduled: true,
      finished: 27,
      succeeded: 0,
      failing,
      firstFetch: {
        sources: ['a', 'b', 'c'],
        startedAt: since,
        expectedBy: new Date('2026-11-28T22:54:00Z'),
        isLate: true,
      },
    };
    const now = new Date('2026-11-28T23:14:00Z');
    const none = explainEmptyList(
      facts({ availability: { total: 0, embedded: 0, inWindow: 0, allowed: 0 }, sources, now }),
    );
    expect(none.message).toBe(
      '还没有任何论文：论文来源抓取失败（arxiv-q-bio 等 27 个来源自 11月29日 06:45 起无法连接（域名解析失败），下次重试 12:10；其余 3 个来源仍在首次抓取）',
    );
    expect(none.suggestion).toBe('请联系管理员处理');
    expect(none.sources).toMatchObject({
      state: 'failing',
      failing: expect.arrayContaining([
        {
          source: 'arxiv-q-bio',
          since: since.toISOString(),
          error: '无法连接（域名解析失败）',
          next_retry_at: '2026-11-29T04:10:00.000Z',
        },
      ]),
    });
    // With papers stored and only the threshold left: the sources come first, then the threshold.
    const threshold = explainEmptyList(facts({ sources, now }));
    expect(threshold.suggestion).toMatch(
      /^你的研究领域的论文来源抓取失败（.*），请联系管理员处理；现在可先把相似度阈值降到 25%，可看到 2 篇论文$/,
    );
    expect(threshold.change).toEqual({ similarity_threshold: '0.25' });
  });

  it('never slides a passed estimate: says the first fetch is late', () => {
    const sources: SourceSetup = {
      state: 'read',
      catalogue: true,
      configured: 2,
      relevant: 2,
      readerHasFields: true,
      fieldsWithoutSource: [],
      scheduled: true,
      finished: 0,
      succeeded: 0,
      failing: [],
      firstFetch: {
        sources: ['a', 'b'],
        startedAt: new Date('2026-11-28T22:45:00Z'),
        expectedBy: new Date('2026-11-28T22:54:00Z'),
        isLate: true,
      },
    };
    const late = explainEmptyList(facts({ availability: { total: 0, embedded: 0, inWindow: 0, allowed: 0 }, sources }));
    expect(late.message).toBe('还没有任何论文：论文来源正在首次抓取（06:45 开始）');
    expect(late.suggestion).toBe(
      '原预计 06:54 前完成，已超过预计时间，抓取仍在进行；完成后本页会自动刷新，如长时间没有结果请联系管理员',
    );
    expect(late.sources).toMatchObject({ state: 'first_fetch', first_fetch: { is_late: true } });
  });
});
