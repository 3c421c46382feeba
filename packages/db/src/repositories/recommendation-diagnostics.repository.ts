import { sql } from 'drizzle-orm';
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

/** What the run records say about a set of content sources, for an empty list's explanation. */
export interface SourceRunSummary {
  /** Sources that finished at least one run (successful or not). */
  finished: number;
  /** Sources whose last run failed. */
  failing: number;
}

export class RecommendationDiagnosticsRepository {
  constructor(private readonly db: Database) {}

  async freshness(kind: 'papers' | 'news'): Promise<ContentFreshness> {
    const table = sql.raw(kind === 'papers' ? 'radar.papers' : 'radar.news_items');
    const result = await this.db.execute<{ last_new: unknown; last_checked: unknown; recent: number }>(
      sql`SELECT (SELECT max(created_at) FROM ${table}) AS last_new,
                 (SELECT max(last_finished_at) FROM radar.ingest_sources) AS last_checked,
                 (SELECT count(*)::int FROM ${table} WHERE created_at >= now() - interval '7 days') AS recent`,
    );
    const row = result.rows[0];
    return {
      lastNewItemAt: toDate(row?.last_new),
      lastCheckedAt: toDate(row?.last_checked),
      newItemsLast7Days: Number(row?.recent ?? 0),
    };
  }

  /** Run records of the named sources (a source that never ran has none). */
  async sourceRuns(names: readonly string[]): Promise<SourceRunSummary> {
    if (names.length === 0) return { finished: 0, failing: 0 };
    const result = await this.db.execute<{ finished: number; failing: number }>(
      sql`SELECT count(*) FILTER (WHERE last_finished_at IS NOT NULL)::int AS finished,
                 count(*) FILTER (WHERE status = 'failed')::int AS failing
          FROM radar.ingest_sources
          WHERE name IN (${sql.join(
            names.map((name) => sql`${name}`),
            sql`, `,
          )})`,
    );
    const row = result.rows[0];
    return { finished: Number(row?.finished ?? 0), failing: Number(row?.failing ?? 0) };
  }

  /** Papers left by each filter step: model, publication window (YYYY-MM-DD), tiers (unknown tier kept). */
  async paperAvailability(
    modelId: number,
    publishedSince: string | undefined,
    excludedTiers: readonly number[],
  ): Promise<Availability> {
    const tiers = excludedTiers.map((tier) => Math.trunc(tier)).filter((tier) => tier >= 1 && tier <= 4);
    const inWindow = publishedSince ? sql`published_at >= ${publishedSince}::date` : sql`true`;
    const allowedTier = tiers.length
      ? sql`(jcr_tier IS NULL OR NOT (jcr_tier = ANY(${sql.raw(`ARRAY[${tiers.join(',')}]::smallint[]`)})))`
      : sql`true`;
    const result = await this.db.execute<{ total: number; embedded: number; in_window: number; allowed: number }>(
      sql`SELECT count(*)::int AS total,
                 count(*) FILTER (WHERE embedding_model_id = ${modelId})::int AS embedded,
                 count(*) FILTER (WHERE embedding_model_id = ${modelId} AND ${inWindow})::int AS in_window,
                 count(*) FILTER (WHERE embedding_model_id = ${modelId} AND ${inWindow} AND ${allowedTier})::int AS allowed
          FROM radar.papers`,
    );
    return availability(result.rows[0]);
  }

  /** News items left by each step: model, then date (publish_date, else crawl_date) from `since`. */
  async newsAvailability(modelId: number, since: Date | undefined): Promise<Availability> {
    const inWindow = since ? sql`coalesce(publish_date, crawl_date) >= ${since.toISOString()}::timestamptz` : sql`true`;
    const result = await this.db.execute<{ total: number; embedded: number; in_window: number; allowed: number }>(
      sql`SELECT count(*)::int AS total,
                 count(*) FILTER (WHERE embedding_model_id = ${modelId})::int AS embedded,
                 count(*) FILTER (WHERE embedding_model_id = ${modelId} AND ${inWindow})::int AS in_window,
                 count(*) FILTER (WHERE embedding_model_id = ${modelId} AND ${inWindow})::int AS allowed
          FROM radar.news_items`,
    );
    return availability(result.rows[0]);
  }
}

function availability(row: { total: number; embedded: number; in_window: number; allowed: number } | undefined) {
  return {
    total: Number(row?.total ?? 0),
    embedded: Number(row?.embedded ?? 0),
    inWindow: Number(row?.in_window ?? 0),
    allowed: Number(row?.allowed ?? 0),
  };
}
