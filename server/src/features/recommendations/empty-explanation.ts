import type { Availability } from '@radar/db';
import { DATE_FILTERS, type DateFilterLabel, type EmptyExplanation, RECOMMENDATION_SLIDERS } from '@radar/shared';
import type { SourceSetup } from './content-sources';

/**
 * Why a recommendation list came back empty and the one change that would give results (issue 13,
 * "Freshness you can see"). The causes are checked in the order the filters apply: nothing stored,
 * nothing embedded, nothing in the window, everything in excluded tiers, every candidate dismissed,
 * everything below the threshold. Computed only for an empty list.
 */

export interface EmptyListFacts {
  kind: 'papers' | 'news';
  /** With the request's window and tiers. */
  availability: Availability;
  /** The request's window label ('不限' when none). */
  windowLabel: DateFilterLabel | '不限';
  /** The narrowest wider window with items (after tiers), and how many; undefined when none has any. */
  widerWindow?: { label: DateFilterLabel; count: number } | undefined;
  excludedTiers: readonly number[];
  threshold: number;
  /** Similarities of the nearest candidates that pass window, tiers and dismissals, most similar first. */
  nearestSimilarities: readonly number[];
  /** The sources of this content, read only when nothing is stored; unknown: the message names no cause. */
  sources?: SourceSetup | undefined;
}

const NOUN = { papers: '论文', news: '新闻' } as const;
const UNIT = { papers: '篇', news: '条' } as const;
const percent = (value: number) => `${Math.round(value * 100)}%`;

/** The label of a window of `days` days (不限 for null). */
export const windowLabelOf = (days: number | null): DateFilterLabel =>
  DATE_FILTERS.find((filter) => filter.days === days)?.label ?? '不限';

/**
 * Gathers the facts of an empty list and explains it (papers and news alike): what the filters leave in
 * the request's window, the narrowest wider window with items when the window is empty, and the nearest
 * candidates' similarities (without the threshold) when items pass every filter.
 */
export async function explainEmptyResult(input: {
  kind: EmptyListFacts['kind'];
  /** The request's window in days, null for 不限. */
  days: number | null;
  threshold: number;
  excludedTiers: readonly number[];
  /** What the filters leave with a window of that many days (null: 不限). */
  availabilityIn: (days: number | null) => Promise<Availability>;
  /** Similarities of the nearest candidates passing every filter but the threshold, most similar first. */
  nearestSimilarities: () => Promise<number[]>;
  /** The sources of this content (asked only when nothing is stored at all). */
  sourceSetup?: () => Promise<SourceSetup>;
}): Promise<EmptyExplanation> {
  const availability = await input.availabilityIn(input.days);
  const sources = availability.total === 0 ? await input.sourceSetup?.() : undefined;
  const widerWindow =
    availability.embedded > 0 && availability.inWindow === 0
      ? await narrowestWiderWindow(input.days, async (wider) => (await input.availabilityIn(wider)).allowed)
      : undefined;
  return explainEmptyList({
    kind: input.kind,
    availability,
    windowLabel: windowLabelOf(input.days),
    widerWindow,
    excludedTiers: input.excludedTiers,
    threshold: input.threshold,
    nearestSimilarities: availability.allowed > 0 ? await input.nearestSimilarities() : [],
    sources,
  });
}

/**
 * The narrowest window wider than `days` (null: 不限, nothing is wider) in which `allowedIn` finds items,
 * and how many; undefined when none has any. Counts run one window at a time, narrowest first.
 */
export async function narrowestWiderWindow(
  days: number | null,
  allowedIn: (days: number | null) => Promise<number>,
): Promise<{ label: DateFilterLabel; count: number } | undefined> {
  if (days === null) return undefined;
  for (const filter of DATE_FILTERS) {
    if (filter.days !== null && filter.days <= days) continue;
    const count = await allowedIn(filter.days);
    if (count > 0) return { label: filter.label, count };
  }
  return undefined;
}

export function explainEmptyList(facts: EmptyListFacts): EmptyExplanation {
  const { kind, availability, threshold } = facts;
  const noun = NOUN[kind];
  const unit = UNIT[kind];
  const widen = facts.widerWindow
    ? {
        suggestion: `把发布时间放宽到“${facts.widerWindow.label}”，有 ${facts.widerWindow.count} ${unit}${noun}可供推荐`,
        change: { date_filter: facts.widerWindow.label } as Record<string, string>,
      }
    : undefined;
  if (availability.total === 0) return explainNoItems(kind, facts.sources);
  if (availability.embedded === 0) {
    return {
      cause: 'items_not_embedded',
      message: `${availability.total} ${unit}${noun}的向量正在计算中`,
      suggestion: '几分钟后刷新即可看到推荐',
      change: null,
    };
  }
  if (availability.inWindow === 0) {
    return {
      cause: 'nothing_in_window',
      message: `“${facts.windowLabel}”没有新${noun}`,
      suggestion: widen?.suggestion ?? '请等待内容来源更新',
      change: widen?.change ?? null,
    };
  }
  if (availability.allowed === 0) {
    const tiers = facts.excludedTiers.map((tier) => `Q${tier}`).join('、');
    return {
      cause: 'excluded_tiers',
      message: `时间范围内的论文都在被排除的 JCR 分区（${tiers}）`,
      suggestion: `取消排除 JCR 分区，有 ${availability.inWindow} 篇论文可供推荐`,
      change: { excluded_jcr: '' },
    };
  }
  const best = facts.nearestSimilarities[0];
  if (best === undefined) {
    return {
      cause: 'all_dismissed',
      message: `时间范围内的${noun}都已标记为不感兴趣`,
      suggestion: widen?.suggestion ?? '请等待内容来源更新',
      change: widen?.change ?? null,
    };
  }
  // The highest threshold on the settings slider's grid (5 % steps from 5 %) that lets the closest
  // candidate through; floor keeps it at or below that similarity, so applying it really gives results.
  const { min, step } = RECOMMENDATION_SLIDERS.threshold;
  // (0.15 / 0.05 is 2.9999999999999996 in floating point: the epsilon keeps a value on the grid on it.)
  let lowered = Number((Math.floor(best / step + 1e-9) * step).toFixed(2));
  if (lowered > best) lowered = Number((lowered - step).toFixed(2));
  const message = `没有${noun}达到相似度阈值 ${percent(threshold)}（最接近的为 ${(best * 100).toFixed(1)}%）`;
  if (lowered < min - 1e-9) {
    return {
      cause: 'below_threshold',
      message,
      suggestion: widen?.suggestion ?? `暂无与研究方向足够接近的${noun}；可在“我的”页面把研究方向写得更具体`,
      change: widen?.change ?? null,
    };
  }
  const count = facts.nearestSimilarities.filter((similarity) => similarity >= lowered).length;
  return {
    cause: 'below_threshold',
    message,
    suggestion: `把相似度阈值降到 ${percent(lowered)}，可看到 ${count} ${unit}${noun}`,
    change: { similarity_threshold: lowered.toFixed(2) },
  };
}

/**
 * Nothing stored at all: no filter change helps, so the text says what is missing and who can fix it
 * (the reader cannot; the operator can, with the command named). It promises content only when a
 * scheduled run will really bring some.
 */
function explainNoItems(kind: EmptyListFacts['kind'], sources: SourceSetup | undefined): EmptyExplanation {
  const noun = NOUN[kind];
  const explain = (why: string, suggestion: string): EmptyExplanation => ({
    cause: 'no_items',
    message: `还没有任何${noun}：${why}`,
    suggestion,
    change: null,
  });
  if (!sources) return explain(`内容来源尚未抓取到${noun}`, `如长时间没有${noun}，请联系管理员检查内容来源`);
  if (sources.state === 'unreadable') {
    return explain('内容来源的配置有误，无法抓取', '请联系管理员修正来源配置（运行 radar sources 可看到错误所在）');
  }
  if (sources.configured === 0) {
    return explain(
      `管理员尚未配置${noun}来源`,
      `请联系管理员添加${noun}来源；管理员也可运行 radar demo 载入演示数据先行体验`,
    );
  }
  if (sources.failing > 0) {
    return explain(`${noun}来源抓取失败`, '请联系管理员处理（运行 radar sources 可看到各来源的错误）');
  }
  if (sources.finished === 0 && !sources.scheduled) {
    return explain(
      `${noun}来源已配置，但定时抓取已关闭`,
      '请联系管理员开启定时抓取，或运行 radar sources run <来源名称> 立即抓取',
    );
  }
  if (sources.finished === 0) {
    return explain(
      `${noun}来源已配置，正在等待首次抓取`,
      '首次抓取按计划自动进行，完成后这里就会有推荐；管理员也可运行 radar sources run <来源名称> 立即抓取',
    );
  }
  return explain(
    `${noun}来源已运行，但没有抓取到${noun}`,
    '请联系管理员检查来源设置（运行 radar sources 可查看各来源最近的结果）',
  );
}
