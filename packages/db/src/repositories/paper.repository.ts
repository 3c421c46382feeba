import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../connection';
import { papers, userArticleStates } from '../schema';
import type { EmbeddingModelRow } from './embedding.repository';
import {
  applyRouteSettings,
  EstimateCache,
  excludedIdsCondition,
  explainNearest,
  type NearestRoute,
  type PreparedNearest,
  prepareNearest,
  routedNearest,
  similarityByIds,
  type VectorTable,
} from './nearest-search';

export type PaperRow = typeof papers.$inferSelect;
export type NewPaperRow = typeof papers.$inferInsert;

export interface PaperRecommendationQuery {
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
}

export interface SimilarPaperQuery extends Omit<PaperRecommendationQuery, 'topK' | 'threshold'> {
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
  doi: string | null;
  url: string;
  pdfUrl: string | null;
  publishedAt: string | null;
  keywords: string[];
  llmSummary: string | null;
  createdAt: Date;
  updatedAt: Date;
  isFavorited: boolean;
  isSaved: boolean;
}

/** The columns of PaperView, for selects that join the caller's state (see findViews). */
export const PAPER_VIEW_COLUMNS = {
  id: papers.id,
  title: papers.title,
  authors: papers.authors,
  abstract: papers.abstract,
  journalName: papers.journalName,
  jcrTier: papers.jcrTier,
  doi: papers.doi,
  url: papers.url,
  pdfUrl: papers.pdfUrl,
  publishedAt: papers.publishedAt,
  keywords: papers.keywords,
  llmSummary: papers.llmSummary,
  createdAt: papers.createdAt,
  updatedAt: papers.updatedAt,
  isFavorited: sql<boolean>`coalesce(${userArticleStates.isFavorited}, false)`,
  isSaved: sql<boolean>`coalesce(${userArticleStates.isSaved}, false)`,
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
  async recommend(query: PaperRecommendationQuery): Promise<PaperRecommendationResult> {
    const search = prepareSearch(query);
    return this.db.transaction(async (tx) => {
      const { rows, route } = await routedNearest(tx, search, {
        strategy: query.strategy,
        exactSearchMaxRows: this.options.exactSearchMaxRows,
        estimates: this.estimates,
      });
      const counted =
        query.countTopK === undefined ? search : { ...search, topK: Math.max(1, Math.trunc(query.countTopK)) };
      const filteredOut = await countFilteredOut(tx, counted, query);
      return { papers: rows.filter((row) => row.similarity >= query.threshold), route, filteredOut };
    });
  }

  /**
   * Cosine similarity of each paper to a vector; null for a paper without a vector of this model.
   * Unknown ids are left out; order follows `ids`.
   */
  async similarityOf(
    ids: readonly number[],
    model: Pick<EmbeddingModelRow, 'id' | 'dimension'>,
    vector: number[],
  ): Promise<{ id: number; title: string; similarity: number | null }[]> {
    if (ids.length === 0) return [];
    const search = prepareNearest(PAPER_VECTORS, { model, vector, topK: 1 });
    const result = await this.db.execute<{ id: string | number; title: string; distance: string | number | null }>(
      sql`SELECT ${papers.id} AS id, ${papers.title} AS title,
            CASE WHEN ${search.modelFilter} THEN ${search.distance} END AS distance
          FROM ${papers} WHERE ${inArray(papers.id, [...ids])}`,
    );
    const byId = new Map(result.rows.map((row) => [Number(row.id), row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      return [{ id, title: row.title, similarity: row.distance === null ? null : 1 - Number(row.distance) }];
    });
  }

  /** Similarity to `vector` of each of these papers that has a vector of the model (re-ranking a pool). */
  async similarityScores(
    ids: readonly number[],
    model: Pick<EmbeddingModelRow, 'id' | 'dimension'>,
    vector: number[],
  ): Promise<Map<number, number>> {
    return similarityByIds(this.db, PAPER_VECTORS, ids, { model, vector });
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
  async explainRecommend(query: PaperRecommendationQuery, route: 'index' | 'exact'): Promise<string> {
    const search = prepareSearch(query);
    return this.db.transaction((tx) => explainNearest(tx, search, route));
  }
}

const PAPER_VECTORS = {
  table: papers,
  id: papers.id,
  embedding: papers.embedding,
  modelId: papers.embeddingModelId,
} satisfies VectorTable;

function prepareSearch(query: PaperRecommendationQuery): PreparedNearest {
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
    // One card per paper: a record linked to a better one (duplicate_of) is never recommended.
    sql`${papers.duplicateOf} IS NULL`,
  ].filter((filter): filter is SQL => filter !== undefined);
  return prepareNearest(
    PAPER_VECTORS,
    query,
    filters,
    `since=${query.publishedSince ?? ''};tiers=${excluded.join(',')}`,
  );
}

/**
 * The '(filtered out N)' figure: one more index walk, without filters, over the topK nearest papers of
 * the corpus; each is counted under the first filter it fails. Cheap by design (a plain top-k).
 */
async function countFilteredOut(tx: Transaction, search: PreparedNearest, query: PaperRecommendationQuery) {
  await applyRouteSettings(tx, search, 'index', 'off');
  const result = await tx.execute<{ distance: string | number; published_at: string | null; jcr_tier: number | null }>(
    sql`WITH nearest AS MATERIALIZED (
      SELECT ${papers.publishedAt} AS published_at, ${papers.jcrTier} AS jcr_tier, ${search.distance} AS distance
      FROM ${papers} WHERE ${search.modelFilter}
      ORDER BY ${search.distance} LIMIT ${sql.raw(String(search.topK))}
    ) SELECT * FROM nearest`,
  );
  const excluded = new Set((query.excludedTiers ?? []).map((tier) => Math.trunc(tier)));
  const counts = { byDate: 0, byTier: 0, byThreshold: 0 };
  for (const row of result.rows) {
    const publishedAt = row.published_at === null ? null : String(row.published_at).slice(0, 10);
    if (query.publishedSince && (publishedAt === null || publishedAt < query.publishedSince)) counts.byDate++;
    else if (row.jcr_tier !== null && excluded.has(Number(row.jcr_tier))) counts.byTier++;
    else if (1 - Number(row.distance) < query.threshold) counts.byThreshold++;
  }
  return counts;
}
