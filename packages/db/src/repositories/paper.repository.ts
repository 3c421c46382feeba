import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { papers, type TierSystem, userArticleStates } from '../schema';
import type { EmbeddingModelRow } from './embedding.repository';
import {
  EstimateCache,
  excludedIdsCondition,
  explainNearest,
  type NearestRoute,
  type PreparedNearest,
  prepareNearest,
  type RoutedNearestResult,
  routedNearest,
  type VectorTable,
} from './nearest-search';
import { type CandidateTrip, type CandidateTripOptions, runCandidateTrip } from './ranking-candidates';
import { listablePublicPaper, paperVisibleTo } from './reader-eligibility';

export type PaperRow = typeof papers.$inferSelect;
export type NewPaperRow = typeof papers.$inferInsert;

/** The repository's nearest-paper search with its filters (the API query is @radar/shared's PaperRecommendationQuery). */
export interface NearestPapersQuery {
  model: Pick<EmbeddingModelRow, 'id' | 'dimension'>;
  vector: number[];
  /** Rows wanted, 1-500. */
  topK: number;
  /** Minimum cosine similarity (1 = same direction); -1 keeps everything. */
  threshold: number;
  /** Only papers published on or after this date (YYYY-MM-DD); undefined for no limit. */
  publishedSince?: string | undefined;
  /** Quality tiers to leave out. Papers of unknown tier (most preprints) are kept. */
  excludedTiers?: readonly number[];
  /** Papers never to return (those the user marked 'not interested'). */
  excludedIds?: readonly number[];
  /** How many nearest papers the '(filtered out N)' figure looks at; topK when left out (a larger pool asks for more). */
  countTopK?: number;
  /**
   * auto (default): routed by how many papers the filters leave (see recommend()). index / exact force
   * one route; they exist to test each route and to measure recall against exact search.
   */
  strategy?: 'auto' | 'index' | 'exact';
}

export type RecommendationRoute = NearestRoute;

export interface PaperRecommendationResult {
  /** At most topK papers with similarity >= threshold, most similar first. */
  papers: { id: number; similarity: number }[];
  route: RecommendationRoute;
  /**
   * Of the topK papers nearest to the vector in the whole corpus (this model), how many the filters
   * removed, each counted once under the first filter it fails: date window, tier, threshold.
   */
  filteredOut: { byDate: number; byTier: number; byThreshold: number };
  /**
   * The similarity of the corpus's nearest paper (this model), before any filter, read by the same walk
   * as `filteredOut` (undefined without a date or tier filter, or when the model has no paper): when it
   * is below the threshold, no window or tier change brings a paper that passes it.
   */
  closestSimilarity?: number | undefined;
}

export interface SimilarPaperQuery extends Omit<NearestPapersQuery, 'topK' | 'threshold'> {
  limit: number;
}

export interface SimilarPaper {
  id: number;
  title: string;
  publishedAt: string | null;
  jcrTier: number | null;
  /** Cosine similarity, 1 = same direction. */
  similarity: number;
}

export interface PaperRepositoryOptions {
  /** See routedNearest() (nearest-search.ts); exactSearchLimit(dimension) when left out. Tests lower it. */
  exactSearchMaxRows?: number;
}

/** A paper as the API shows it to one user: the displayed columns and that user's favourite/saved state. */
export interface PaperView {
  id: number;
  title: string;
  authors: string[];
  abstract: string;
  journalName: string;
  jcrTier: number | null;
  /** Which system the tier comes from (its journal's tier_system); null without a tier. */
  jcrSystem: TierSystem | null;
  /** The year of that tier table; null when unknown or without a tier. */
  jcrYear: number | null;
  doi: string | null;
  url: string;
  pdfUrl: string | null;
  /**
   * The preprint's page of a paper also published in a journal (the page kept when the journal record
   * merged, else its arXiv page, else its preprint DOI link); may equal `url` for a preprint alone.
   */
  preprintUrl: string | null;
  publishedAt: string | null;
  keywords: string[];
  llmSummary: string | null;
  createdAt: Date;
  updatedAt: Date;
  isFavorited: boolean;
  isSaved: boolean;
  /**
   * When the journal version of this paper arrived, if the reader favourited or saved it before then
   * (as a preprint) and still does; null otherwise. The card says it was published.
   */
  journalVersionArrivedAt: Date | null;
  /** The caller's rating: 1 (👍), -1 (👎), null: none. */
  rating: 1 | -1 | null;
}

/** The columns of PaperView, for selects that join the caller's state (see findViews). */
export const PAPER_VIEW_COLUMNS = {
  id: papers.id,
  title: papers.title,
  authors: papers.authors,
  abstract: papers.abstract,
  journalName: papers.journalName,
  jcrTier: papers.jcrTier,
  jcrSystem: sql<TierSystem | null>`(SELECT j.tier_system FROM radar.journals j WHERE j.id = ${papers.journalId} AND ${papers.jcrTier} IS NOT NULL)`,
  jcrYear: sql<
    number | null
  >`(SELECT j.tier_year FROM radar.journals j WHERE j.id = ${papers.journalId} AND ${papers.jcrTier} IS NOT NULL)`,
  doi: papers.doi,
  url: papers.url,
  pdfUrl: papers.pdfUrl,
  preprintUrl: sql<string | null>`coalesce(${papers.sourceIds} ->> 'preprintUrl',
    'https://arxiv.org/abs/' || ${papers.arxivId}, 'https://doi.org/' || (${papers.sourceIds} ->> 'preprintDoi'))`,
  publishedAt: papers.publishedAt,
  keywords: papers.keywords,
  llmSummary: papers.llmSummary,
  createdAt: papers.createdAt,
  updatedAt: papers.updatedAt,
  isFavorited: sql<boolean>`coalesce(${userArticleStates.isFavorited}, false)`,
  isSaved: sql<boolean>`coalesce(${userArticleStates.isSaved}, false)`,
  journalVersionArrivedAt: sql<Date | null>`CASE WHEN ${papers.journalVersionAt} >= ${userArticleStates.createdAt}
    AND (${userArticleStates.isFavorited} OR ${userArticleStates.isSaved}) THEN ${papers.journalVersionAt} END`.mapWith(
    papers.journalVersionAt,
  ),
  rating: sql<1 | -1 | null>`${userArticleStates.rating}::int`,
};

export class PaperRepository {
  private readonly estimates = new EstimateCache();

  constructor(
    private readonly db: Database,
    private readonly options: PaperRepositoryOptions = {},
  ) {}

  async insertMany(rows: NewPaperRow[]): Promise<PaperRow[]> {
    if (rows.length === 0) return [];
    return this.db.insert(papers).values(rows).returning();
  }

  /**
   * Refreshes planner statistics. Embedded PGlite has no autovacuum, so callers that load many rows
   * (ingestion, demo data) run this afterwards; without statistics the planner may skip the HNSW index.
   */
  async analyze(): Promise<void> {
    await this.db.execute(sql`ANALYZE radar.papers`);
  }

  /** The papers as `userId` sees them, in the order of `ids`; unknown ids are left out. */
  async findViews(ids: readonly number[], userId: string): Promise<PaperView[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select(PAPER_VIEW_COLUMNS)
      .from(papers)
      .leftJoin(userArticleStates, and(eq(userArticleStates.paperId, papers.id), eq(userArticleStates.userId, userId)))
      .where(inArray(papers.id, [...ids]));
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async findByIds(ids: number[]): Promise<PaperRow[]> {
    if (ids.length === 0) return [];
    return this.db.select().from(papers).where(inArray(papers.id, ids));
  }

  /**
   * The topK papers most similar to a vector among those of one model that pass the date and tier
   * filters, keeping those at or above the threshold (applied outside the top-k, so an unsatisfiable one
   * costs nothing). Routed by selectivity, exact or HNSW with an exact fallback: see routedNearest().
   */
  async recommend(query: NearestPapersQuery): Promise<PaperRecommendationResult> {
    const { result } = await this.recommendWith(query);
    return result;
  }

  /**
   * recommend() as a recommendation's step 2: the typed candidates with their scores, and what
   * `more` names, in the same round trip (ranking-candidates.ts).
   */
  async recommendWith(
    query: NearestPapersQuery,
    more: CandidateTripOptions = {},
  ): Promise<CandidateTrip & { result: PaperRecommendationResult }> {
    const search = preparePaperSearch(query);
    const countK = query.countTopK === undefined ? search.topK : Math.max(1, Math.trunc(query.countTopK));
    // Without a date or tier filter only the threshold removes papers from the nearest: counted from the
    // search's own rows, most similar first, instead of a second walk of the index over the whole model
    // (the same walk but for the reader's dismissed papers, own works and linked duplicates, which are
    // never shown and so never counted as filtered out here).
    const thresholdOnly = !query.publishedSince && !(query.excludedTiers ?? []).length && countK <= search.topK;
    let routed: Pick<RoutedNearestResult, 'route' | 'meta'> | undefined;
    const { rows, ...trip } = await runCandidateTrip('paper', query.model.dimension, more, async (options) => {
      const found = await routedNearest(this.db, search, {
        strategy: query.strategy,
        exactSearchMaxRows: this.options.exactSearchMaxRows,
        estimates: this.estimates,
        extras: thresholdOnly
          ? { rowColumns: options.rowColumns }
          : { ...filteredOutExtras(search, query, countK), rowColumns: options.rowColumns },
        otherVectors: options.otherVectors,
        after: options.after,
      });
      routed = found;
      return found;
    });
    const { route, meta } = routed as Pick<RoutedNearestResult, 'route' | 'meta'>;
    const filteredOut = thresholdOnly
      ? {
          byDate: 0,
          byTier: 0,
          byThreshold: rows.slice(0, countK).filter((row) => row.similarity < query.threshold).length,
        }
      : {
          byDate: Number(meta.by_date ?? 0),
          byTier: Number(meta.by_tier ?? 0),
          byThreshold: Number(meta.by_threshold ?? 0),
        };
    const papers = rows.filter((row) => row.similarity >= query.threshold);
    const closest =
      thresholdOnly || meta.closest === null || meta.closest === undefined ? undefined : Number(meta.closest);
    return {
      ...trip,
      result: {
        papers: papers.map(({ id, similarity }) => ({ id, similarity })),
        route,
        filteredOut,
        ...(closest === undefined ? {} : { closestSimilarity: closest }),
      },
    };
  }

  /**
   * The `limit` papers nearest to a vector among those a reader may be shown (`excludedIds` left out),
   * without the date and tier filters, each with its publication date and tier: an empty list's
   * explanation reads them to tell whether a wider window or the excluded tiers hold papers close enough.
   */
  async nearestBeyondFilters(
    query: Pick<NearestPapersQuery, 'model' | 'vector' | 'excludedIds'> & { limit: number },
  ): Promise<{ similarity: number; publishedAt: string | null; jcrTier: number | null }[]> {
    const search = preparePaperSearch({ ...query, topK: query.limit, threshold: -1 });
    const { rows } = await routedNearest(this.db, search, {
      exactSearchMaxRows: this.options.exactSearchMaxRows,
      estimates: this.estimates,
      extras: { rowColumns: [sql`item.published_at::text AS x_published`, sql`item.jcr_tier AS x_tier`] },
    });
    return rows.map((row) => ({
      similarity: row.similarity,
      publishedAt:
        row.extra.published === null || row.extra.published === undefined ? null : String(row.extra.published),
      jcrTier: row.extra.tier === null || row.extra.tier === undefined ? null : Number(row.extra.tier),
    }));
  }

  /**
   * Cosine similarity of each paper to a vector; null for a paper without a vector of this model.
   * Unknown ids are left out; order follows `ids`.
   */
  async similarityOf(
    readerId: string,
    ids: readonly number[],
    model: Pick<EmbeddingModelRow, 'id' | 'dimension'>,
    vector: number[],
  ): Promise<{ id: number; title: string; similarity: number | null }[]> {
    if (ids.length === 0) return [];
    const search = prepareNearest(PAPER_VECTORS, { model, vector, topK: 1 });
    const result = await this.db.execute<{ id: string | number; title: string; distance: string | number | null }>(
      sql`SELECT ${papers.id} AS id, ${papers.title} AS title,
            CASE WHEN ${search.modelFilter} THEN ${search.distance} END AS distance
          FROM ${papers} WHERE ${inArray(papers.id, [...ids])} AND ${paperVisibleTo(sql`${papers}`, readerId)}`,
    );
    const byId = new Map(result.rows.map((row) => [Number(row.id), row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      return [{ id, title: row.title, similarity: row.distance === null ? null : 1 - Number(row.distance) }];
    });
  }

  /** Nearest papers with their title, date and tier: recommend() without a threshold. */
  async findSimilar(query: SimilarPaperQuery): Promise<SimilarPaper[]> {
    const { papers: nearest } = await this.recommend({ ...query, topK: query.limit, threshold: -1 });
    const rows = await this.db
      .select({ id: papers.id, title: papers.title, publishedAt: papers.publishedAt, jcrTier: papers.jcrTier })
      .from(papers)
      .where(
        inArray(
          papers.id,
          nearest.map((row) => row.id),
        ),
      );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return nearest.flatMap((row) => {
      const paper = byId.get(row.id);
      return paper ? [{ ...paper, similarity: row.similarity }] : [];
    });
  }

  /** The plan of a route of recommend() for this query, to check which index it uses. */
  async explainRecommend(query: NearestPapersQuery, route: 'index' | 'exact'): Promise<string> {
    const search = preparePaperSearch(query);
    return this.db.transaction((tx) => explainNearest(tx, search, route));
  }
}

const PAPER_VECTORS = {
  table: papers,
  id: papers.id,
  embedding: papers.embedding,
  modelId: papers.embeddingModelId,
} satisfies VectorTable;

function preparePaperSearch(query: NearestPapersQuery): PreparedNearest {
  if (query.publishedSince !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(query.publishedSince)) {
    throw new RangeError(`publishedSince must be YYYY-MM-DD, got ${query.publishedSince}`);
  }
  const excluded = [...new Set((query.excludedTiers ?? []).map((tier) => Math.trunc(tier)))];
  const filters = [
    query.publishedSince ? sql`${papers.publishedAt} >= ${query.publishedSince}` : undefined,
    excluded.length
      ? sql`(${papers.jcrTier} IS NULL OR NOT (${papers.jcrTier} = ANY(${sql.raw(`ARRAY[${excluded.join(',')}]::smallint[]`)})))`
      : undefined,
    excludedIdsCondition(papers.id, query.excludedIds),
    // Public and canonical: another reader's upload and a record linked to a better one are never recommended.
    listablePublicPaper(sql.raw('papers')),
  ].filter((filter): filter is SQL => filter !== undefined);
  return prepareNearest(
    PAPER_VECTORS,
    query,
    filters,
    `since=${query.publishedSince ?? ''};tiers=${excluded.join(',')}`,
  );
}

/**
 * The '(filtered out N)' figure, in the search's statement: the countK nearest papers of the corpus
 * (a plain top-k over the index, without filters), each counted under the first filter it fails, and
 * the similarity of the closest of them (closestSimilarity).
 */
function filteredOutExtras(search: PreparedNearest, query: NearestPapersQuery, countK: number) {
  const excluded = [...new Set((query.excludedTiers ?? []).map((tier) => Math.trunc(tier)))];
  const failsDate = query.publishedSince
    ? sql`(${papers.publishedAt} IS NULL OR ${papers.publishedAt} < ${query.publishedSince})`
    : sql`false`;
  const failsTier = excluded.length
    ? sql`(${papers.jcrTier} IS NOT NULL AND ${papers.jcrTier} = ANY(${sql.raw(`ARRAY[${excluded.join(',')}]::smallint[]`)}))`
    : sql`false`;
  const threshold = sql.raw(String(Number.isFinite(query.threshold) ? query.threshold : -1));
  return {
    ctes: [
      sql`counted AS MATERIALIZED (
        SELECT CASE WHEN ${failsDate} THEN 'date' WHEN ${failsTier} THEN 'tier'
                    WHEN 1 - (${search.distance}) < ${threshold} THEN 'threshold' END AS failed,
               1 - (${search.distance}) AS similarity
        FROM ${papers} WHERE ${search.modelFilter}
        ORDER BY ${search.distance} LIMIT ${sql.raw(String(countK))})`,
    ],
    metaColumns: [
      sql`(SELECT max(similarity) FROM counted) AS meta_closest`,
      sql`(SELECT count(*)::int FROM counted WHERE failed = 'date') AS meta_by_date`,
      sql`(SELECT count(*)::int FROM counted WHERE failed = 'tier') AS meta_by_tier`,
      sql`(SELECT count(*)::int FROM counted WHERE failed = 'threshold') AS meta_by_threshold`,
    ],
  };
}
