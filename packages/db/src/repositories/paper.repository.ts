import { and, inArray, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../connection';
import { papers } from '../schema';
import type { EmbeddingModelRow } from './embedding.repository';

export type PaperRow = typeof papers.$inferSelect;
export type NewPaperRow = typeof papers.$inferInsert;

export interface SimilarPaperQuery {
  model: Pick<EmbeddingModelRow, 'id' | 'dimension'>;
  vector: number[];
  limit: number;
  /** Only papers published on or after this date (YYYY-MM-DD); undefined for no limit. */
  publishedSince?: string | undefined;
  /** Quality tiers to leave out. Papers of unknown tier (most preprints) are kept. */
  excludedTiers?: readonly number[];
  /**
   * auto (default): the planner chooses; on small or heavily filtered sets an exact scan is cheaper.
   * index: the ordering must come from the model's HNSW index. exact: never use it.
   * The last two exist to verify the index against exact search.
   */
  strategy?: 'auto' | 'index' | 'exact';
}

export interface SimilarPaper {
  id: number;
  title: string;
  publishedAt: string | null;
  jcrTier: number | null;
  /** Cosine similarity, 1 = same direction. */
  similarity: number;
}

export const MAX_SIMILAR_RESULTS = 500;
/** Candidate list size of the HNSW search; higher finds more of the true neighbours, slower. */
const HNSW_MIN_EF_SEARCH = 100;

export class PaperRepository {
  constructor(private readonly db: Database) {}

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

  async findByIds(ids: number[]): Promise<PaperRow[]> {
    if (ids.length === 0) return [];
    return this.db.select().from(papers).where(inArray(papers.id, ids));
  }

  /**
   * Nearest papers to a vector by cosine distance among papers embedded by the same model.
   * The ORDER BY expression and the literal model id match the model's partial HNSW index
   * (embedding.repository.ts). Iterative scan keeps returning candidates until the filters are
   * satisfied, so date and tier filters do not starve the result.
   */
  async findSimilar(query: SimilarPaperQuery): Promise<SimilarPaper[]> {
    return this.db.transaction(async (tx) => {
      const { select } = await this.prepareSimilarSearch(tx, query);
      const rows = await select;
      return rows.map(({ distance, ...row }) => ({ ...row, similarity: 1 - Number(distance) }));
    });
  }

  /** The plan PostgreSQL chooses for findSimilar, to check that the HNSW index is used. */
  async explainSimilar(query: SimilarPaperQuery): Promise<string> {
    return this.db.transaction(async (tx) => {
      const { select } = await this.prepareSimilarSearch(tx, query);
      const result = await tx.execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN ${select.getSQL()}`);
      return result.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  /**
   * Applies the search settings to the transaction and builds the select, not yet run (wrapped in an
   * object because awaiting a query builder runs it).
   */
  private async prepareSimilarSearch(tx: Transaction, query: SimilarPaperQuery) {
    const { model } = query;
    if (query.vector.length !== model.dimension) {
      throw new RangeError(`query vector has ${query.vector.length} dimensions, model has ${model.dimension}`);
    }
    if (!query.vector.every(Number.isFinite)) throw new RangeError('query vector has non-finite values');
    const limit = Math.min(Math.max(Math.trunc(query.limit), 1), MAX_SIMILAR_RESULTS);

    const strategy = query.strategy ?? 'auto';
    if (strategy === 'exact') {
      await tx.execute(sql`SET LOCAL enable_indexscan = off`);
      await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
    } else {
      await tx.execute(sql`SET LOCAL hnsw.iterative_scan = strict_order`);
      await tx.execute(sql.raw(`SET LOCAL hnsw.ef_search = ${Math.max(HNSW_MIN_EF_SEARCH, limit * 2)}`));
      // Rules out "filter, then sort by distance", leaving the index's own ordering.
      if (strategy === 'index') await tx.execute(sql`SET LOCAL enable_sort = off`);
    }

    // Integers from our own tables, inlined so the planner can match the partial expression index.
    const dimension = sql.raw(String(Math.trunc(model.dimension)));
    const modelId = sql.raw(String(Math.trunc(model.id)));
    const vectorLiteral = `[${query.vector.join(',')}]`;
    const distance = sql<number>`(${papers.embedding}::vector(${dimension})) <=> ${vectorLiteral}::vector(${dimension})`;
    const excludedTiers = (query.excludedTiers ?? []).map((tier) => Math.trunc(tier));
    const conditions = [
      sql`${papers.embeddingModelId} = ${modelId}`,
      query.publishedSince ? sql`${papers.publishedAt} >= ${query.publishedSince}` : undefined,
      excludedTiers.length
        ? sql`(${papers.jcrTier} IS NULL OR NOT (${papers.jcrTier} = ANY(${sql.raw(`ARRAY[${excludedTiers.join(',')}]::smallint[]`)})))`
        : undefined,
    ];

    const select = tx
      .select({
        id: papers.id,
        title: papers.title,
        publishedAt: papers.publishedAt,
        jcrTier: papers.jcrTier,
        distance: distance.as('distance'),
      })
      .from(papers)
      .where(and(...conditions))
      .orderBy(distance)
      .limit(limit);
    return { select };
  }
}
