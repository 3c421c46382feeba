import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { toDate } from './raw-values';

/**
 * What the papers and news pages say about their list besides the list itself: when the sources last
 * brought something new, and, for an empty list, what the filters leave (docs/decisions.md "Learning").
 * Counts run only for an empty result, so they cost nothing on the common path.
 */

export interface ContentFreshness {
  lastNewItemAt: Date | null;
  lastCheckedAt: Date | null;
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
}

/** How long a count of the last 7 days' items is reused while no newer item arrived. */
const RECENT_COUNT_TTL_MS = 60_000;

export class RecommendationDiagnosticsRepository {
  /**
   * The last count of items created in the last 7 days, per kind, with the newest item's created_at it
   * was made at. Counting is a scan of every item of the week (a parallel sequential scan of 28-32 ms at
   * 100k papers after a bulk import); it is redone when a newer item arrived or after a minute (items
   * leave the week as time passes).
   */
  private readonly recentCounts = new Map<'papers' | 'news', { mark: string | null; count: number; at: number }>();

  constructor(private readonly db: Database) {}

  async freshness(kind: 'papers' | 'news'): Promise<ContentFreshness> {
    const result = await this.db.execute(this.freshnessStatement(kind));
    return this.readFreshness(kind, result.rows[0]);
  }

  /**
   * The freshness line's statement, to send with others (readFreshness() reads its row). The count
   * runs only when the cached one is stale (an uncorrelated subquery in the CASE branch not taken is
   * never evaluated).
   */
  freshnessStatement(kind: 'papers' | 'news', now = Date.now()): SQL {
    const table = sql.raw(kind === 'papers' ? 'radar.papers' : 'radar.news_items');
    const cached = this.recentCounts.get(kind);
    const fresh = cached && now - cached.at < RECENT_COUNT_TTL_MS ? cached : undefined;
    const recent = sql`(SELECT count(*)::int FROM ${table} WHERE created_at >= now() - interval '7 days')`;
    return sql`SELECT newest.at AS last_new, newest.at::text AS last_new_mark,
                 (SELECT max(last_finished_at) FROM radar.ingest_sources) AS last_checked,
                 ${
                   fresh
                     ? sql`CASE WHEN newest.at::text IS NOT DISTINCT FROM ${fresh.mark}::text
                         THEN ${sql.raw(String(Math.trunc(fresh.count)))} ELSE ${recent} END`
                     : recent
                 } AS recent,
                 ${fresh ? sql`newest.at::text IS NOT DISTINCT FROM ${fresh.mark}::text` : sql`false`} AS reused
          FROM (SELECT max(created_at) AS at FROM ${table}) newest`;
  }

  readFreshness(kind: 'papers' | 'news', row: Record<string, unknown> | undefined, now = Date.now()): ContentFreshness {
    const mark = row?.last_new_mark === null || row?.last_new_mark === undefined ? null : String(row.last_new_mark);
    const count = Number(row?.recent ?? 0);
    if (!row?.reused) this.recentCounts.set(kind, { mark, count, at: now });
    return {
      lastNewItemAt: toDate(row?.last_new),
      lastCheckedAt: toDate(row?.last_checked),
      newItemsLast7Days: count,
    };
  }

  /** See availabilityByWindow(). */
  availabilityByWindow(
    kind: 'papers' | 'news',
    modelId: number,
    windows: readonly WindowStart[],
    excludedTiers: readonly number[] = [],
  ): Promise<AvailabilityByWindow> {
    return availabilityByWindow(this.db, kind, modelId, windows, excludedTiers);
  }
}

/** A publication window of an availability count: its first day (papers) or instant (news); undefined: none. */
export type WindowStart = string | Date | undefined;

export interface AvailabilityByWindow {
  total: number;
  embedded: number;
  /** Per window, in the order asked. */
  windows: { inWindow: number; allowed: number }[];
}

/**
 * Papers or news items left by each filter step for several windows at once (one statement, for an
 * empty list's explanation, which looks at the request's window and the wider ones).
 */
async function availabilityByWindow(
  db: Database,
  kind: 'papers' | 'news',
  modelId: number,
  windows: readonly WindowStart[],
  excludedTiers: readonly number[],
): Promise<AvailabilityByWindow> {
  const tiers = excludedTiers.map((tier) => Math.trunc(tier)).filter((tier) => tier >= 1 && tier <= 4);
  const inWindow = (start: WindowStart) => {
    if (start === undefined) return sql`true`;
    if (kind === 'papers') return sql`published_at >= ${String(start)}::date`;
    const since = (start instanceof Date ? start : new Date(start)).toISOString();
    return sql`(publish_date >= ${since}::timestamptz OR (publish_date IS NULL AND crawl_date >= ${since}::timestamptz))`;
  };
  const allowedTier =
    kind === 'papers' && tiers.length
      ? sql`(jcr_tier IS NULL OR NOT (jcr_tier = ANY(${sql.raw(`ARRAY[${tiers.join(',')}]::smallint[]`)})))`
      : sql`true`;
  const table = sql.raw(kind === 'papers' ? 'radar.papers' : 'radar.news_items');
  const columns = windows.flatMap((start, index) => [
    sql`count(*) FILTER (WHERE embedding_model_id = ${modelId} AND ${inWindow(start)})::int AS ${sql.raw(`in_window_${index}`)}`,
    sql`count(*) FILTER (WHERE embedding_model_id = ${modelId} AND ${inWindow(start)} AND ${allowedTier})::int AS ${sql.raw(`allowed_${index}`)}`,
  ]);
  const result = await db.execute<Record<string, unknown>>(
    sql`SELECT count(*)::int AS total, count(*) FILTER (WHERE embedding_model_id = ${modelId})::int AS embedded
          ${columns.length ? sql`, ${sql.join(columns, sql`, `)}` : sql``}
        FROM ${table}`,
  );
  const row = result.rows[0] ?? {};
  return {
    total: Number(row.total ?? 0),
    embedded: Number(row.embedded ?? 0),
    windows: windows.map((_start, index) => ({
      inWindow: Number(row[`in_window_${index}`] ?? 0),
      allowed: Number(row[`allowed_${index}`] ?? 0),
    })),
  };
}
