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
 * Why a recommendation list came back empty, from facts, in the order of what the reader can do about
 * it: nothing stored or embedded yet; then a window or tier filter that keeps out everything close
 * enough, with the one change that brings items and how many the list would then show; then the
 * reader's sources (failing, or still fetching for the first time); then the threshold. Computed only
 * for an empty list.
 */

export interface EmptyListFacts {
  kind: ItemKind;
  /** With the request's window and tiers. */
  availability: Availability;
  /** The request's window label ('不限' when none). */
  windowLabel: DateFilterLabel | '不限';
  /** A window or tier change that would show items passing the threshold; undefined when none would. */
  relief?: FilterRelief | undefined;
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
  /** The time the sources' retries are compared with. */
  now?: Date | undefined;
}

/** A filter change that would bring items at or above the threshold. */
export interface FilterRelief {
  /** The wider window to choose; undefined: the window stays. */
  window?: DateFilterLabel | undefined;
  /** The excluded JCR tiers are included again. */
  includeTiers: boolean;
  /** Items the list would show (at most top_k). */
  count: number;
  /** More may pass than were looked at: the count is a lower bound. */
  atLeast: boolean;
  /**
   * The lower threshold the change needs too (on the slider's grid), when the request's window and tiers
   * hold no candidate at all and the changed filters hold only items below the threshold.
   */
  threshold?: number | undefined;
}

/** One of the nearest items of the reader's eligible corpus, without the window and tier filters. */
export interface BeyondFiltersRow {
  similarity: number;
  /** Its publication date (papers: YYYY-MM-DD) or instant (news: publish_date, else crawl_date); null: unknown. */
  date: string | Date | null;
  /** Its JCR tier (papers); null: unknown or news. */
  tier: number | null;
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
 * What the filters leave when candidates passing every filter but the threshold were found, or a filter
 * change was found to bring items: more than none at every step (cap 0), which is all the explanation
 * reads then.
 */
const LEFT_BY_EVERY_FILTER: Availability = { total: 1, embedded: 1, inWindow: 1, allowed: 1, cap: 0 };

/** A window's first day or instant (undefined: no window) against an item's date. */
const isInWindow = (date: string | Date | null, start: string | Date | undefined) => {
  if (start === undefined) return true;
  if (date === null) return false;
  if (typeof date === 'string' && typeof start === 'string') return date >= start;
  return new Date(date).getTime() >= new Date(start).getTime();
};

/**
 * The first window or tier change (a wider window, narrowest first, with the tiers kept; then the
 * tiers included in the request's window; then both) under which any of the nearest items beyond the
 * filters reaches the threshold, with how many the list would show. `complete`: the rows are every
 * item that could pass (fewer than asked for, or the last is below the threshold), so counts are exact.
 * When none does and `mayLowerThreshold` (the request's filters hold no candidate at all, so lowering
 * the threshold alone cannot help), the first change holding any item, with the threshold its closest
 * item needs: one click then shows papers instead of another empty list.
 */
export function findFilterRelief(input: {
  rows: readonly BeyondFiltersRow[];
  complete: boolean;
  threshold: number;
  topK: number;
  /** The request's window in days, null for 不限. */
  days: number | null;
  excludedTiers: readonly number[];
  windowStart: (days: number | null) => string | Date | undefined;
  mayLowerThreshold?: boolean | undefined;
}): FilterRelief | undefined {
  const { rows, threshold, excludedTiers, days } = input;
  const tierAllowed = (row: BeyondFiltersRow) => row.tier === null || !excludedTiers.includes(row.tier);
  const wider = DATE_FILTERS.filter((filter) => days !== null && (filter.days === null || filter.days > days));
  const changes: { window?: DateFilterLabel; windowDays: number | null; includeTiers: boolean }[] = [
    ...wider.map((filter) => ({ window: filter.label, windowDays: filter.days, includeTiers: false })),
    ...(excludedTiers.length ? [{ windowDays: days, includeTiers: true }] : []),
    ...(excludedTiers.length && days !== null
      ? [{ window: '不限' as const, windowDays: null, includeTiers: true }]
      : []),
  ];
  const passing = changes.map((change) => {
    const start = input.windowStart(change.windowDays);
    return rows.filter((row) => isInWindow(row.date, start) && (change.includeTiers || tierAllowed(row)));
  });
  const relief = (index: number, floor: number, lowered?: number): FilterRelief | undefined => {
    const change = changes[index];
    const count = (passing[index] ?? []).filter((row) => row.similarity >= floor).length;
    if (!change || count === 0) return undefined;
    const complete = input.complete || (rows.at(-1)?.similarity ?? -1) < floor;
    return {
      window: change.window,
      includeTiers: change.includeTiers,
      count: Math.min(count, input.topK),
      atLeast: !complete && count < input.topK,
      ...(lowered === undefined ? {} : { threshold: lowered }),
    };
  };
  for (const [index] of changes.entries()) {
    const found = relief(index, threshold);
    if (found) return found;
  }
  if (!input.mayLowerThreshold) return undefined;
  for (const [index, held] of passing.entries()) {
    const best = held[0]?.similarity;
    const lowered = best === undefined ? undefined : thresholdLettingThrough(best);
    if (lowered !== undefined) return relief(index, lowered, lowered);
  }
  return undefined;
}

/**
 * The highest threshold on the settings slider's grid (5 % steps from 5 %) that lets an item of this
 * similarity through; undefined below the slider's minimum. Floor keeps it at or below the similarity,
 * so applying it really gives results.
 */
function thresholdLettingThrough(similarity: number): number | undefined {
  const { min, step } = RECOMMENDATION_SLIDERS.threshold;
  // (0.15 / 0.05 is 2.9999999999999996 in floating point: the epsilon keeps a value on the grid on it.)
  let lowered = Number((Math.floor(similarity / step + 1e-9) * step).toFixed(2));
  if (lowered > similarity) lowered = Number((lowered - step).toFixed(2));
  return lowered < min - 1e-9 ? undefined : lowered;
}

/**
 * Gathers the facts of an empty list and explains it (papers and news alike): the nearest candidates'
 * similarities (without the threshold); with a window or excluded tiers, whether a wider window or the
 * tiers would show items (one search beyond the filters, only when the search could have left some
 * out, `mayRelieve`, and some item could pass the threshold, `closestSimilarity`); and, when neither found anything, what the filters leave in the request's window.
 */
export async function explainEmptyResult(input: {
  kind: EmptyListFacts['kind'];
  /** The request's window in days, null for 不限. */
  days: number | null;
  threshold: number;
  topK: number;
  excludedTiers: readonly number[];
  /** What the filters leave with the request's window. */
  availability: () => Promise<Availability>;
  /** Similarities of the nearest candidates passing every filter but the threshold, most similar first. */
  nearestSimilarities: () => Promise<number[]>;
  /** The nearest items without window and tier filters, and whether they are all that could pass. */
  beyondFilters?: () => Promise<{ rows: BeyondFiltersRow[]; complete: boolean }>;
  /** False when the filters are known to keep nothing out (step 2's filtered-out counts): no search. */
  mayRelieve?: boolean | undefined;
  /**
   * The similarity of the corpus's closest item before any filter (step 2's filtered-out counts read
   * it). Below the threshold, no window or tier change brings an item that passes it: when candidates
   * were found (so the threshold is not to be lowered with a filter change), no search beyond the filters.
   */
  closestSimilarity?: number | undefined;
  windowStart: (days: number | null) => string | Date | undefined;
  /** The reader's sources of this content. */
  sourceSetup?: () => Promise<SourceSetup>;
  timeZone?: string | undefined;
  now?: Date | undefined;
}): Promise<EmptyExplanation> {
  const nearest = await input.nearestSimilarities();
  const filtered = input.days !== null || input.excludedTiers.length > 0;
  // findFilterRelief() finds nothing then: every item is below the threshold, and it lowers the
  // threshold only when the request's filters held no candidate at all.
  const nothingPasses =
    nearest.length > 0 && input.closestSimilarity !== undefined && input.closestSimilarity < input.threshold;
  const relief =
    filtered && input.beyondFilters && input.mayRelieve !== false && !nothingPasses
      ? findFilterRelief({
          ...(await input.beyondFilters()),
          threshold: input.threshold,
          topK: input.topK,
          days: input.days,
          excludedTiers: input.excludedTiers,
          windowStart: input.windowStart,
          mayLowerThreshold: nearest.length === 0,
        })
      : undefined;
  const availability = nearest.length > 0 || relief ? LEFT_BY_EVERY_FILTER : await input.availability();
  const sources = await input.sourceSetup?.();
  return explainEmptyList({
    kind: input.kind,
    availability,
    windowLabel: windowLabelOf(input.days),
    relief,
    excludedTiers: input.excludedTiers,
    threshold: input.threshold,
    nearestSimilarities: availability.allowed > 0 ? nearest : [],
    sources,
    timeZone: input.timeZone,
    now: input.now,
  });
}

/**
 * The explanation of an empty list. With items stored, a filter change that brings items stays the
 * suggestion and the reader's sources are said beside it (`sources_note`); otherwise their state
 * (failing, first fetch) comes before the threshold: it replaces the suggestion, and a threshold change
 * follows it in the same sentence.
 */
export function explainEmptyList(facts: EmptyListFacts): EmptyExplanation {
  const explanation = explainByFilters(facts);
  if (explanation.cause === 'no_items' || facts.sources?.state !== 'read') return explanation;
  const now = facts.now ?? new Date();
  const status = sourceStatusOf(facts.sources);
  const note = status && sourceNote(facts.kind, facts.sources, status, facts.timeZone, now);
  if (!status || !note) return explanation;
  const change = explanation.change ?? {};
  // A window or tier change gives results now, so it stays the suggestion; the sources' state is said
  // beside it (the reader widens the window and still learns that more is coming, or that sources fail).
  if ('date_filter' in change || 'excluded_jcr' in change)
    return { ...explanation, sources: status, sources_note: note };
  if (explanation.change) {
    return { ...explanation, suggestion: `${note}；现在可先${explanation.suggestion}`, sources: status };
  }
  return { ...explanation, suggestion: note, sources: status };
}

/** The explanation of a filter change that brings items (FilterRelief). */
function explainRelief(facts: EmptyListFacts, relief: FilterRelief): EmptyExplanation {
  const noun = NOUN[facts.kind];
  const unit = UNIT[facts.kind];
  const tiers = facts.excludedTiers.map((tier) => `Q${tier}`).join('、');
  const found = facts.nearestSimilarities.length > 0;
  const close = `相似度达到 ${percent(facts.threshold)} 的${noun}`;
  const shown = `可看到${relief.atLeast ? '至少' : ''} ${relief.count} ${unit}${noun}`;
  const steps = [
    relief.window ? `把发布时间放宽到“${relief.window}”` : undefined,
    relief.includeTiers ? '取消排除 JCR 分区' : undefined,
    relief.threshold === undefined ? undefined : `把相似度阈值降到 ${percent(relief.threshold)}`,
  ].filter((step): step is string => step !== undefined);
  const suggestion = `${steps.length > 1 ? `${steps.slice(0, -1).join('、')}并${steps.at(-1)}` : steps[0]}，${shown}`;
  const change: Record<string, string> = {
    ...(relief.window ? { date_filter: relief.window } : {}),
    ...(relief.includeTiers ? { excluded_jcr: '' } : {}),
    ...(relief.threshold === undefined ? {} : { similarity_threshold: relief.threshold.toFixed(2) }),
  };
  if (relief.window && !relief.includeTiers) {
    return {
      cause: 'nothing_in_window',
      message: found ? `“${facts.windowLabel}”没有${close}` : `“${facts.windowLabel}”没有新${noun}`,
      suggestion,
      change,
    };
  }
  if (!relief.window) {
    return {
      cause: 'excluded_tiers',
      message: `时间范围内${found ? close : `的${noun}`}都在被排除的 JCR 分区（${tiers}）`,
      suggestion,
      change,
    };
  }
  return {
    cause: 'nothing_in_window',
    message: `“${facts.windowLabel}”在未排除的 JCR 分区中没有${found ? close : `新${noun}`}`,
    suggestion,
    change,
  };
}

function explainByFilters(facts: EmptyListFacts): EmptyExplanation {
  const { kind, availability, threshold } = facts;
  const noun = NOUN[kind];
  const unit = UNIT[kind];
  if (availability.total === 0) return explainNoItems(kind, facts.sources, facts.timeZone, facts.now ?? new Date());
  if (availability.embedded === 0) {
    return {
      cause: 'items_not_embedded',
      message: `${amount(availability.total, availability.cap)} ${unit}${noun}的向量正在计算中`,
      suggestion: '几分钟后刷新即可看到推荐',
      change: null,
    };
  }
  if (facts.relief) return explainRelief(facts, facts.relief);
  if (availability.inWindow === 0) {
    return {
      cause: 'nothing_in_window',
      message: `“${facts.windowLabel}”没有新${noun}`,
      suggestion: '请等待内容来源更新',
      change: null,
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
      suggestion: '请等待内容来源更新',
      change: null,
    };
  }
  const lowered = thresholdLettingThrough(best);
  const message = `没有${noun}达到相似度阈值 ${percent(threshold)}（最接近的为 ${(best * 100).toFixed(1)}%）`;
  if (lowered === undefined) {
    return {
      cause: 'below_threshold',
      message,
      suggestion: `暂无与研究方向足够接近的${noun}；可在“我的”页面把研究方向写得更具体`,
      change: null,
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

/** "10:20" on the day of `now` in the server's time zone, else "11月27日 10:20". */
function formatWhen(date: Date, timeZone: string | undefined, now: Date): string {
  const day = (value: Date) => formatTime(value, timeZone, true).split(' ')[0];
  return formatTime(date, timeZone, day(date) !== day(now));
}

const fieldNames = (ids: readonly string[]) =>
  ids.map((id) => RESEARCH_FIELDS.find((field) => field.id === id)?.labelZh ?? id).join('、');

type ReadSetup = Extract<SourceSetup, { state: 'read' }>;

/**
 * Whether failing sources explain the list: all of the reader's sources fail, or some fail and none has
 * ever brought anything (a first fetch with failures is not "running" any more).
 */
const failingMatters = (sources: ReadSetup) =>
  sources.failing.length > 0 && (sources.failing.length >= sources.relevant || sources.succeeded === 0);

const firstFetchOf = (fetch: NonNullable<ReadSetup['firstFetch']>): NonNullable<SourceStatus['first_fetch']> => ({
  sources: fetch.sources,
  started_at: fetch.startedAt.toISOString(),
  expected_by: fetch.expectedBy.toISOString(),
  is_estimate: true,
  is_late: fetch.isLate,
});

/** Failing sources; the others' first fetch beside them when some are still on it (the page asks again). */
const failingStatus = (sources: ReadSetup): SourceStatus => ({
  state: 'failing',
  failing: sources.failing.map((failing) => ({
    source: failing.name,
    since: failing.since.toISOString(),
    error: failing.reason,
    ...(failing.nextRetryAt ? { next_retry_at: failing.nextRetryAt.toISOString() } : {}),
  })),
  ...(sources.firstFetch ? { first_fetch: firstFetchOf(sources.firstFetch) } : {}),
});

const firstFetchStatus = (fetch: NonNullable<ReadSetup['firstFetch']>): SourceStatus => ({
  state: 'first_fetch',
  first_fetch: firstFetchOf(fetch),
});

/**
 * The state of the reader's sources, most specific first; undefined when the sources are fine. A first
 * fetch is said to be running only while none of the reader's sources has failed yet.
 */
function sourceStatusOf(sources: ReadSetup): SourceStatus | undefined {
  if (sources.catalogue && !sources.readerHasFields && sources.relevant === 0) return { state: 'no_fields' };
  if (sources.fieldsWithoutSource.length && sources.relevant === 0) {
    return { state: 'no_source', fields_without_source: sources.fieldsWithoutSource };
  }
  if (failingMatters(sources)) return failingStatus(sources);
  if (sources.firstFetch) return firstFetchStatus(sources.firstFetch);
  return undefined;
}

/**
 * The failing sources in words, grouped by what went wrong: the first source's name and how many share
 * it, since when, and the next retry; then how many of the reader's sources are still on their first
 * fetch. E.g. "arxiv-q-bio 等 27 个来源自 11月29日 06:45 起无法连接（域名解析失败），下次重试 12:10".
 */
function failingText(sources: ReadSetup, timeZone: string | undefined, now: Date): string {
  const groups = new Map<string, ReadSetup['failing']>();
  for (const source of sources.failing) groups.set(source.reason, [...(groups.get(source.reason) ?? []), source]);
  const parts = [...groups].map(([reason, group]) => {
    const first = group[0];
    const since = new Date(Math.min(...group.map((source) => source.since.getTime())));
    const retries = group.flatMap((source) => (source.nextRetryAt ? [source.nextRetryAt.getTime()] : []));
    const retry = retries.length ? new Date(Math.min(...retries)) : undefined;
    const who = group.length > 1 ? `${first?.name} 等 ${group.length} 个来源` : `${first?.name} `;
    const next = !retry ? '' : retry > now ? `，下次重试 ${formatWhen(retry, timeZone, now)}` : '，正在重试';
    return `${who}自 ${formatTime(since, timeZone, true)} 起${reason}${next}`;
  });
  const pending = sources.firstFetch?.sources.length ?? 0;
  return `${parts.join('；')}${pending ? `；其余 ${pending} 个来源仍在首次抓取` : ''}`;
}

/** The first fetch's times: when it started and the estimate, said late once it passed. */
function firstFetchText(fetch: NonNullable<ReadSetup['firstFetch']>, timeZone: string | undefined): string {
  const started = `${formatTime(fetch.startedAt, timeZone, false)} 开始`;
  const expected = formatTime(fetch.expectedBy, timeZone, false);
  return fetch.isLate
    ? `${started}，原预计 ${expected} 前完成，已超过预计时间，仍在进行`
    : `${started}，预计 ${expected} 前完成，此为估计`;
}

/** What the reader's sources mean for a list with items stored but none shown; undefined: nothing to add. */
function sourceNote(
  kind: EmptyListFacts['kind'],
  sources: ReadSetup,
  status: SourceStatus,
  timeZone: string | undefined,
  now: Date,
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
      return `你的研究领域的${noun}来源正在首次抓取（${firstFetchText(fetch, timeZone)}），完成后本页会自动刷新`;
    }
    case 'failing':
      return `你的研究领域的${noun}来源抓取失败（${failingText(sources, timeZone, now)}），请联系管理员处理`;
    default:
      return undefined;
  }
}

/**
 * Nothing stored at all: no filter change helps, so the text says what is missing and who can fix it
 * (the reader, by choosing fields; else the administrator: the reader is never given a command, the
 * technical detail is in `pnpm radar sources` and /metrics). It promises content only when a run is
 * really queued or scheduled, and says when the first fetch should be done (an estimate, said late
 * once passed); failing sources come first, since a first fetch with failures is not just running.
 */
function explainNoItems(
  kind: EmptyListFacts['kind'],
  sources: SourceSetup | undefined,
  timeZone: string | undefined,
  now: Date,
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
    return explain('内容来源的配置有误，无法抓取', '请联系管理员修正来源配置', { state: 'unreadable' });
  }
  if (!sources.catalogue && sources.configured === 0) {
    return explain(`管理员尚未配置${noun}来源`, `请联系管理员添加${noun}来源`, {
      state: 'no_source',
      fields_without_source: sources.fieldsWithoutSource,
    });
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
      `请联系管理员为这些领域添加${noun}来源`,
      { state: 'no_source', fields_without_source: fields },
    );
  }
  if (sources.failing.length > 0 && (status?.state === 'failing' || !sources.firstFetch)) {
    return explain(
      `${noun}来源抓取失败（${failingText(sources, timeZone, now)}）`,
      '请联系管理员处理',
      failingStatus(sources),
    );
  }
  if (status?.state === 'first_fetch' && sources.firstFetch) {
    const fetch = sources.firstFetch;
    const expected = formatTime(fetch.expectedBy, timeZone, false);
    return explain(
      `${noun}来源正在首次抓取（${formatTime(fetch.startedAt, timeZone, false)} 开始）`,
      fetch.isLate
        ? `原预计 ${expected} 前完成，已超过预计时间，抓取仍在进行；完成后本页会自动刷新，如长时间没有结果请联系管理员`
        : `预计 ${expected} 前完成（此为估计，按排队的来源数和以往的抓取用时推算），完成后本页会自动刷新`,
      status,
    );
  }
  if (sources.finished === 0 && !sources.scheduled) {
    return explain(`${noun}来源已配置，但定时抓取已关闭`, '请联系管理员开启定时抓取', { state: 'scheduled_off' });
  }
  if (sources.finished === 0) {
    return explain(`${noun}来源已配置，正在等待首次抓取`, '首次抓取按计划自动进行，完成后这里就会有推荐', {
      state: 'waiting',
    });
  }
  return explain(`${noun}来源已运行，但没有抓取到${noun}`, '请联系管理员检查来源设置', { state: 'ran_empty' });
}
