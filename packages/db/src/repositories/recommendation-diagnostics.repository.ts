import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { toDate } from './raw-values';
import { type ItemKind, listablePublicPaper } from './reader-eligibility';

/**
 * What the papers and news pages say about their list besides the list itself: when the sources last
 * brought something new, and, for an empty list, what the filters leave (docs/decisions.md "Learning").
 * Counts run only for an empty result, so they cost nothing on the common path.
 */

export interface ContentFreshness {
  /** When the newest item of this kind was stored. */
  lastNewItemAt: Date | null;
  /** When any source last finished a run, successful or not. */
  lastCheckedAt: Date | null;
  /** When a source of this kind (news feeds for news, the others for papers) last finished a run successfully; null: never. */
  lastSuccessAt: Date | null;
  /** Items of this kind published in the last 7 days (the 一周内 window: publication date, not storage time). */
  newItemsLast7Days: number;
}

/** How many items each step of the filters leaves, for the empty-result explanation. */
export interface Availability {
  /** Items stored at all. */
  total: number;
  /** ...with a vector of the model. */
  embedded: number;
  /** ...and within the window (all embedded when there is no window). */
  inWindow: number;
  /** ...and not in an excluded tier (papers; equal to inWindow for news). */
  allowed: number;
  /**
   * Where the counts stop, when they do: a count above it means "more than cap" (AVAILABILITY_COUNT_CAP);
   * undefined: exact counts.
   */
  cap?: number | undefined;
}

/** How long a count of the last 7 days' items is reused while no newer item arrived. */
const RECENT_COUNT_TTL_MS = 60_000;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** The cached count's key: the kind and the window's start (a new day starts a new count). */
const countKey = (kind: ItemKind, weekStart: WindowStart) =>
  `${kind}:${weekStart instanceof Date ? weekStart.toISOString() : (weekStart ?? '')}`;

export class RecommendationDiagnosticsRepository {
  /**
   * The last count of items published in the last 7 days, per kind and window start, with the newest
   * item's created_at it was made at. Counting is a range scan of the publication-date index; it is
   * redone when a newer item arrived, the window moved (a new day) or after a minute.
   */
  private readonly recentCounts = new Map<string, { mark: string | null; count: number; at: number }>();

  constructor(private readonly db: Database) {}

  async freshness(kind: ItemKind, weekStart?: WindowStart): Promise<ContentFreshness> {
    const result = await this.db.execute(this.freshnessStatement(kind, weekStart));
    return this.readFreshness(kind, result.rows[0], weekStart);
  }

  /**
   * The freshness line's statement, to send with others (readFreshness() reads its row, given the same
   * `weekStart`). `weekStart`: the first day (papers) or instant (news) of the 一周内 window, so "近 7 天
   * 新增" counts what that window holds by publication date (undefined: 7 days before now). The count
   * runs only when the cached one is stale (an uncorrelated subquery in the CASE branch not taken is
   * never evaluated).
   */
  freshnessStatement(kind: ItemKind, weekStart?: WindowStart, now = Date.now()): SQL {
    const table = sql.raw(kind === 'paper' ? 'radar.papers' : 'radar.news_items');
    const cached = this.recentCounts.get(countKey(kind, weekStart));
    const fresh = cached && now - cached.at < RECENT_COUNT_TTL_MS ? cached : undefined;
    const since = weekStart ?? new Date(now - WEEK_MS);
    const published =
      kind === 'paper'
        ? sql`published_at >= ${typeof since === 'string' ? since : since.toISOString().slice(0, 10)}::date AND ${listablePublicPaper(sql.raw('radar.papers'))}`
        : sql`(publish_date >= ${new Date(since).toISOString()}::timestamptz OR (publish_date IS NULL AND crawl_date >= ${new Date(since).toISOString()}::timestamptz))`;
    const recent = sql`(SELECT count(*)::int FROM ${table} WHERE ${published})`;
    const sourcesOfKind = kind === 'news' ? sql`kind = 'news-rss'` : sql`kind <> 'news-rss'`;
    return sql`SELECT newest.at AS last_new, newest.at::text AS last_new_mark,
                 (SELECT max(last_finished_at) FROM radar.ingest_sources) AS last_checked,
                 (SELECT max(last_success_at) FROM radar.ingest_sources WHERE ${sourcesOfKind}) AS last_success,
                 ${
                   fresh
                     ? sql`CASE WHEN newest.at::text IS NOT DISTINCT FROM ${fresh.mark}::text
                         THEN ${sql.raw(String(Math.trunc(fresh.count)))} ELSE ${recent} END`
                     : recent
                 } AS recent,
                 ${fresh ? sql`newest.at::text IS NOT DISTINCT FROM ${fresh.mark}::text` : sql`false`} AS reused
          FROM (SELECT max(created_at) AS at FROM ${table}) newest`;
  }

  readFreshness(
    kind: ItemKind,
    row: Record<string, unknown> | undefined,
    weekStart?: WindowStart,
    now = Date.now(),
  ): ContentFreshness {
    const mark = row?.last_new_mark === null || row?.last_new_mark === undefined ? null : String(row.last_new_mark);
    const count = Number(row?.recent ?? 0);
    if (!row?.reused) this.recentCounts.set(countKey(kind, weekStart), { mark, count, at: now });
    return {
      lastNewItemAt: toDate(row?.last_new),
      lastCheckedAt: toDate(row?.last_checked),
      lastSuccessAt: toDate(row?.last_success),
      newItemsLast7Days: count,
    };
  }

  /** See availabilityByWindow(). */
  availabilityByWindow(
    kind: ItemKind,
    modelId: number,
    windows: readonly WindowStart[],
    excludedTiers: readonly number[] = [],
  ): Promise<AvailabilityByWindow> {
    return availabilityByWindow(this.db, kind, modelId, windows, excludedTiers);
  }
}

/** A publication window of an availability count: its first day (papers) or instant (news); undefined: none. */
export type WindowStart = string | Date | undefined;

/**
 * Where the availability counts stop: each counts at most this many items plus one, so a count above it
 * means "more than AVAILABILITY_COUNT_CAP" (the explanation says 超过 10000). Full counts were a scan
 * of every row (12,500 buffers at 100k papers, docs/benchmarks.md); a capped one reads at most this many
 * index entries or rows per count, and a corpus below the cap is counted exactly, as before.
 */
const AVAILABILITY_COUNT_CAP = 10_000;

export interface AvailabilityByWindow {
  /** Items stored, up to cap + 1. */
  total: number;
  /** ...with a vector of the model, up to cap + 1. */
  embedded: number;
  /** The first window's counts (the request's), up to cap + 1. */
  inWindow: number;
  allowed: number;
  /**
   * For each further window (wider ones, narrowest first): its items after the tiers, up to cap + 1;
   * null when not counted: only while the first window and every narrower further window have none
   * (the explanation looks for the narrowest wider window with items).
   */
  widerAllowed: (number | null)[];
  /** See AVAILABILITY_COUNT_CAP. */
  cap: number;
}

/**
 * Papers or news items left by each filter step for several windows at once (one statement, for an
 * empty list's explanation, which looks at the request's window and the wider ones). Every count is
 * capped (AVAILABILITY_COUNT_CAP): its scan stops after cap + 1 rows, and the indexes on the model and
 * on the publication date can serve its filters, so no count reads the whole table.
 */
async function availabilityByWindow(
  db: Database,
  kind: ItemKind,
  modelId: number,
  windows: readonly WindowStart[],
  excludedTiers: readonly number[],
): Promise<AvailabilityByWindow> {
  const tiers = excludedTiers.map((tier) => Math.trunc(tier)).filter((tier) => tier >= 1 && tier <= 4);
  const inWindow = (start: WindowStart) => {
    if (start === undefined) return sql`true`;
    if (kind === 'paper') return sql`published_at >= ${String(start)}::date`;
    const since = (start instanceof Date ? start : new Date(start)).toISOString();
    return sql`(publish_date >= ${since}::timestamptz OR (publish_date IS NULL AND crawl_date >= ${since}::timestamptz))`;
  };
  const allowedTier =
    kind === 'paper' && tiers.length
      ? sql`(jcr_tier IS NULL OR NOT (jcr_tier = ANY(${sql.raw(`ARRAY[${tiers.join(',')}]::smallint[]`)})))`
      : sql`true`;
  const table = sql.raw(kind === 'paper' ? 'radar.papers' : 'radar.news_items');
  const cap = AVAILABILITY_COUNT_CAP;
  // Counting rows of a LIMIT stops at the cap: the scan (of the model's index, of the date index
  // within the window) ends there.
  const capped = (condition: SQL) =>
    sql`(SELECT count(*)::int FROM (SELECT 1 FROM ${table} WHERE ${condition} LIMIT ${sql.raw(String(cap + 1))}) s)`;
  const model = sql`embedding_model_id = ${sql.raw(String(Math.trunc(modelId)))}`;
  const [first, ...wider] = windows;
  // Each further window is counted only when the narrower ones have none: a CTE per window refers to
  // the one before, and a CASE branch not taken never runs its count.
  const ctes = [
    sql`w0 AS MATERIALIZED (SELECT ${capped(sql`${model} AND ${inWindow(first)}`)} AS in_window,
          ${capped(sql`${model} AND ${inWindow(first)} AND ${allowedTier}`)} AS allowed)`,
    ...wider.map((start, index) => {
      const previous = index === 0 ? sql`(SELECT in_window FROM w0)` : sql.raw(`(SELECT n FROM w${index})`);
      return sql`${sql.raw(`w${index + 1}`)} AS MATERIALIZED (SELECT CASE WHEN ${previous} = 0
          THEN ${capped(sql`${model} AND ${inWindow(start)} AND ${allowedTier}`)} END AS n)`;
    }),
  ];
  const result = await db.execute<Record<string, unknown>>(
    sql`WITH ${sql.join(ctes, sql`, `)}
        SELECT ${capped(sql`true`)} AS total, ${capped(model)} AS embedded,
          (SELECT in_window FROM w0) AS in_window, (SELECT allowed FROM w0) AS allowed
          ${sql.join(
            wider.map((_start, index) => sql.raw(`, (SELECT n FROM w${index + 1}) AS wider_${index + 1}`)),
            sql``,
          )}`,
  );
  const row = result.rows[0] ?? {};
  const count = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    total: Number(row.total ?? 0),
    embedded: Number(row.embedded ?? 0),
    inWindow: Number(row.in_window ?? 0),
    allowed: Number(row.allowed ?? 0),
    widerAllowed: wider.map((_start, index) => count(row[`wider_${index + 1}`])),
    cap,
  };
}
