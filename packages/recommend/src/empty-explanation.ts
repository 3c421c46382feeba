import type { Availability, ItemKind } from '@radar/db';
import {
  DATE_FILTERS,
  type DateFilterLabel,
  DEFAULT_TIME_ZONE,
  type EmptyExplanation,
  RECOMMENDATION_SLIDERS,
  RESEARCH_FIELDS,
  type SourceStatus,
} from '@radar/shared';
import type { SourceSetup } from './content-sources';

/**
 * Why a recommendation list came back empty and the one change that would give results (issue 13,
 * "Freshness you can see"). The causes are checked in the order the filters apply: nothing stored,
 * nothing embedded, nothing in the window, everything in excluded tiers, every candidate dismissed,
 * everything below the threshold. Computed only for an empty list.
 */

export interface EmptyListFacts {
  kind: ItemKind;
  /** With the request's window and tiers. */
  availability: Availability;
  /** The request's window label ('不限' when none). */
  windowLabel: DateFilterLabel | '不限';
  /**
   * The narrowest wider window with items (after tiers), and how many (counted up to availability.cap);
   * undefined when none has any.
   */
  widerWindow?: { label: DateFilterLabel; count: number } | undefined;
  excludedTiers: readonly number[];
  threshold: number;
  /** Similarities of the nearest candidates that pass window, tiers and dismissals, most similar first. */
  nearestSimilarities: readonly number[];
  /**
   * The reader's sources of this content (read for every empty list); unknown: the message names no
   * cause when nothing is stored.
   */
  sources?: SourceSetup | undefined;
  /** Time zone of the times in messages (first fetch, failures); the server's TIME_ZONE. */
  timeZone?: string | undefined;
}

const NOUN = { paper: '论文', news: '新闻' } as const;
const UNIT = { paper: '篇', news: '条' } as const;
const percent = (value: number) => `${Math.round(value * 100)}%`;
/** A count as the text says it: "超过 10000" above the cap of a capped count (Availability.cap). */
const amount = (count: number, cap: number | undefined) =>
  cap !== undefined && count > cap ? `超过 ${cap}` : `${count}`;
/** "有 6" or, above the cap, "有超过 10000". */
const has = (count: number, cap: number | undefined) =>
  cap !== undefined && count > cap ? `有超过 ${cap}` : `有 ${count}`;

/** The label of a window of `days` days (不限 for null). */
const windowLabelOf = (days: number | null): DateFilterLabel =>
  DATE_FILTERS.find((filter) => filter.days === days)?.label ?? '不限';

/**
 * What the filters leave when candidates passing every filter but the threshold were found: more than
 * none at every step (cap 0), which is all the explanation reads then (it names the threshold).
 */
const LEFT_BY_EVERY_FILTER: Availability = { total: 1, embedded: 1, inWindow: 1, allowed: 1, cap: 0 };

/**
 * Gathers the facts of an empty list and explains it (papers and news alike): the nearest candidates'
 * similarities (without the threshold); when there are none, what the filters leave in the request's
 * window and the narrowest wider window with items when the window is empty. Candidates found show that
 * each filter leaves items, so the counts are not asked for then (they would not change the text).
 */
export async function explainEmptyResult(input: {
  kind: EmptyListFacts['kind'];
  /** The request's window in days, null for 不限. */
  days: number | null;
  threshold: number;
  excludedTiers: readonly number[];
  /** What the filters leave with the request's window. */
  availability: () => Promise<Availability>;
  /** Items left after the tiers with a wider window of that many days (null: 不限), up to the same cap. */
  widerAllowedIn: (days: number | null) => Promise<number>;
  /** Similarities of the nearest candidates passing every filter but the threshold, most similar first. */
  nearestSimilarities: () => Promise<number[]>;
  /** The reader's sources of this content. */
  sourceSetup?: () => Promise<SourceSetup>;
  timeZone?: string | undefined;
}): Promise<EmptyExplanation> {
  const nearest = await input.nearestSimilarities();
  const availability = nearest.length > 0 ? LEFT_BY_EVERY_FILTER : await input.availability();
  const sources = await input.sourceSetup?.();
  const widerWindow =
    availability.embedded > 0 && availability.inWindow === 0
      ? await narrowestWiderWindow(input.days, input.widerAllowedIn)
      : undefined;
  return explainEmptyList({
    kind: input.kind,
    availability,
    windowLabel: windowLabelOf(input.days),
    widerWindow,
    excludedTiers: input.excludedTiers,
    threshold: input.threshold,
    nearestSimilarities: availability.allowed > 0 ? nearest : [],
    sources,
    timeZone: input.timeZone,
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

/**
 * The explanation of an empty list. With items stored, the filters' cause stands; when the reader's
 * own sources are the reason too (none for their fields, the first fetch running, failing), that is
 * attached (`sources`), and replaces the suggestion when no filter change would help.
 */
export function explainEmptyList(facts: EmptyListFacts): EmptyExplanation {
  const explanation = explainByFilters(facts);
  if (explanation.cause === 'no_items' || facts.sources?.state !== 'read') return explanation;
  const status = sourceStatusOf(facts.sources);
  const note = status && sourceNote(facts.kind, facts.sources, status, facts.timeZone);
  if (!status || !note) return explanation;
  // A filter change gives results now, so it stays the suggestion; the sources' state is said beside it
  // (the reader widens the window and still learns that more is coming, or that a source is failing).
  if (explanation.change) return { ...explanation, sources: status, sources_note: note };
  return { ...explanation, suggestion: note, sources: status };
}

function explainByFilters(facts: EmptyListFacts): EmptyExplanation {
  const { kind, availability, threshold } = facts;
  const noun = NOUN[kind];
  const unit = UNIT[kind];
  const widen = facts.widerWindow
    ? {
        suggestion: `把发布时间放宽到“${facts.widerWindow.label}”，${has(facts.widerWindow.count, availability.cap)} ${unit}${noun}可供推荐`,
        change: { date_filter: facts.widerWindow.label } as Record<string, string>,
      }
    : undefined;
  if (availability.total === 0) return explainNoItems(kind, facts.sources, facts.timeZone);
  if (availability.embedded === 0) {
    return {
      cause: 'items_not_embedded',
      message: `${amount(availability.total, availability.cap)} ${unit}${noun}的向量正在计算中`,
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
      suggestion: `取消排除 JCR 分区，${has(availability.inWindow, availability.cap)} 篇论文可供推荐`,
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

/** "11月26日 10:20" in the server's time zone. */
function formatTime(date: Date, timeZone: string | undefined, withDay: boolean): string {
  const parts = new Intl.DateTimeFormat('zh-CN', {
    timeZone: timeZone ?? DEFAULT_TIME_ZONE,
    ...(withDay ? { month: 'numeric', day: 'numeric' } : {}),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const time = `${part('hour')}:${part('minute')}`;
  return withDay ? `${part('month')}月${part('day')}日 ${time}` : time;
}

const fieldNames = (ids: readonly string[]) =>
  ids.map((id) => RESEARCH_FIELDS.find((field) => field.id === id)?.labelZh ?? id).join('、');

type ReadSetup = Extract<SourceSetup, { state: 'read' }>;

/** The state of the reader's sources, most specific first; undefined when the sources are fine. */
function sourceStatusOf(sources: ReadSetup): SourceStatus | undefined {
  if (sources.catalogue && !sources.readerHasFields && sources.relevant === 0) return { state: 'no_fields' };
  if (sources.fieldsWithoutSource.length && sources.relevant === 0) {
    return { state: 'no_source', fields_without_source: sources.fieldsWithoutSource };
  }
  if (sources.firstFetch) {
    return {
      state: 'first_fetch',
      first_fetch: {
        sources: sources.firstFetch.sources,
        started_at: sources.firstFetch.startedAt.toISOString(),
        expected_by: sources.firstFetch.expectedBy.toISOString(),
        is_estimate: true,
      },
    };
  }
  if (sources.failing.length && sources.failing.length === sources.relevant) {
    return {
      state: 'failing',
      failing: sources.failing.map((failing) => ({
        source: failing.name,
        since: failing.since.toISOString(),
        error: failing.error,
      })),
    };
  }
  return undefined;
}

/** The failing sources in one line: the first two with since when and their error, then how many more. */
function failingText(failing: ReadSetup['failing'], timeZone: string | undefined): string {
  const shown = failing
    .slice(0, 2)
    .map((source) => `${source.name} 自 ${formatTime(source.since, timeZone, true)} 起：${source.error || '未知错误'}`);
  const more = failing.length > 2 ? `等 ${failing.length} 个来源` : '';
  return `${shown.join('；')}${more ? `；${more}` : ''}`;
}

/** What the reader's sources mean for a list with items stored but none shown; undefined: nothing to add. */
function sourceNote(
  kind: EmptyListFacts['kind'],
  sources: ReadSetup,
  status: SourceStatus,
  timeZone: string | undefined,
): string | undefined {
  const noun = NOUN[kind];
  switch (status.state) {
    case 'no_fields':
      return `在“我的”页面选择研究领域并保存后，对应领域的${noun}来源会立即开始抓取`;
    case 'no_source':
      return `你的研究领域（${fieldNames(status.fields_without_source ?? [])}）还没有${noun}来源，请联系管理员添加`;
    case 'first_fetch': {
      const fetch = sources.firstFetch;
      if (!fetch) return undefined;
      return `你的研究领域的${noun}来源正在首次抓取（${formatTime(fetch.startedAt, timeZone, false)} 开始，预计 ${formatTime(fetch.expectedBy, timeZone, false)} 前完成，此为估计），完成后本页会自动刷新`;
    }
    case 'failing':
      return `你的研究领域的${noun}来源抓取失败（${failingText(sources.failing, timeZone)}），请联系管理员处理`;
    default:
      return undefined;
  }
}

/**
 * Nothing stored at all: no filter change helps, so the text says what is missing and who can fix it
 * (the reader, by choosing fields; the operator, with the command named). It promises content only
 * when a run is really queued or scheduled, and says when the first fetch should be done (an estimate).
 */
function explainNoItems(
  kind: EmptyListFacts['kind'],
  sources: SourceSetup | undefined,
  timeZone: string | undefined,
): EmptyExplanation {
  const noun = NOUN[kind];
  const explain = (why: string, suggestion: string, status?: SourceStatus): EmptyExplanation => ({
    cause: 'no_items',
    message: `还没有任何${noun}：${why}`,
    suggestion,
    change: null,
    ...(status ? { sources: status } : {}),
  });
  if (!sources) return explain(`内容来源尚未抓取到${noun}`, `如长时间没有${noun}，请联系管理员检查内容来源`);
  if (sources.state === 'unreadable') {
    return explain('内容来源的配置有误，无法抓取', '请联系管理员修正来源配置（运行 radar sources 可看到错误所在）', {
      state: 'unreadable',
    });
  }
  if (!sources.catalogue && sources.configured === 0) {
    return explain(
      `管理员尚未配置${noun}来源`,
      `请联系管理员添加${noun}来源；管理员也可运行 radar demo 载入演示数据先行体验`,
      { state: 'no_source', fields_without_source: sources.fieldsWithoutSource },
    );
  }
  const status = sourceStatusOf(sources);
  if (status?.state === 'no_fields') {
    return explain(
      '你还没有选择研究领域，内置来源按研究领域开启',
      `在“我的”页面的研究方向中选择研究领域并保存，对应领域的${noun}来源会立即开始抓取`,
      status,
    );
  }
  if (status?.state === 'no_source' || sources.relevant === 0) {
    const fields = sources.fieldsWithoutSource;
    return explain(
      fields.length
        ? `你的研究领域（${fieldNames(fields)}）还没有${noun}来源`
        : `还没有为你的研究领域开启的${noun}来源`,
      `请联系管理员为这些领域添加${noun}来源（运行 radar sources list 可查看各来源对应的研究领域）`,
      { state: 'no_source', fields_without_source: fields },
    );
  }
  if (status?.state === 'first_fetch' && sources.firstFetch) {
    const { startedAt, expectedBy } = sources.firstFetch;
    return explain(
      `${noun}来源正在首次抓取（${formatTime(startedAt, timeZone, false)} 开始）`,
      `预计 ${formatTime(expectedBy, timeZone, false)} 前完成（此为估计，按排队的来源数和以往的抓取用时推算），完成后本页会自动刷新`,
      status,
    );
  }
  if (sources.failing.length > 0) {
    return explain(
      `${noun}来源抓取失败（${failingText(sources.failing, timeZone)}）`,
      '请联系管理员处理（运行 radar sources 可看到各来源的错误）',
      {
        state: 'failing',
        failing: sources.failing.map((failing) => ({
          source: failing.name,
          since: failing.since.toISOString(),
          error: failing.error,
        })),
      },
    );
  }
  if (sources.finished === 0 && !sources.scheduled) {
    return explain(
      `${noun}来源已配置，但定时抓取已关闭`,
      '请联系管理员开启定时抓取，或运行 radar sources run <来源名称> 立即抓取',
      { state: 'scheduled_off' },
    );
  }
  if (sources.finished === 0) {
    return explain(
      `${noun}来源已配置，正在等待首次抓取`,
      '首次抓取按计划自动进行，完成后这里就会有推荐；管理员也可运行 radar sources run <来源名称> 立即抓取',
      { state: 'waiting' },
    );
  }
  return explain(
    `${noun}来源已运行，但没有抓取到${noun}`,
    '请联系管理员检查来源设置（运行 radar sources 可查看各来源最近的结果）',
    { state: 'ran_empty' },
  );
}
