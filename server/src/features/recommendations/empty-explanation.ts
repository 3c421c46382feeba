import type { Availability } from '@radar/db';
import { DATE_FILTERS, type DateFilterLabel, type EmptyExplanation, RECOMMENDATION_SLIDERS } from '@radar/shared';

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
}): Promise<EmptyExplanation> {
  const availability = await input.availabilityIn(input.days);
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
  if (availability.total === 0) {
    return {
      cause: 'no_items',
      message: `还没有任何${noun}：内容来源尚未抓取到${noun}`,
      suggestion: '请稍后再来；管理员可用 radar sources run 立即抓取，或用 radar demo load 载入演示数据',
      change: null,
    };
  }
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
