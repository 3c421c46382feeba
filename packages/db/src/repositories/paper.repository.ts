import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../connection';
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
   * Exact scan instead of the HNSW index. Used to verify the index and by callers that need a
   * guaranteed answer over a small candidate set.
   */
  exact?: boolean;
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

export class PaperRepository {
  constructor(private readonly db: Database) {}

  async insertMany(rows: NewPaperRow[]): Promise<PaperRow[]> {
    if (rows.length === 0) return [];
    return this.db.insert(papers).values(rows).returning();
  }

  async setEmbeddings(modelId: number, items: { id: number; vector: number[] }[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const item of items) {
        await tx.update(papers).set({ embedding: item.vector, embeddingModelId: modelId }).where(eq(papers.id, item.id));
      }
    });
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
    const { model } = query;
    if (query.vector.length !== model.dimension) {
      throw new RangeError(`query vector has ${query.vector.length} dimensions, model has ${model.dimension}`);
    }
    if (!query.vector.every(Number.isFinite)) throw new RangeError('query vector has non-finite values');
    const limit = Math.min(Math.max(Math.trunc(query.limit), 1), MAX_SIMILAR_RESULTS);
    const dimension = Math.trunc(model.dimension);
    const modelId = Math.trunc(model.id);
    const vectorLiteral = `[${query.vector.join(',')}]`;
    const distance = sql`(${papers.embedding}::vector(${sql.raw(String(dimension))})) <=> ${vectorLiteral}::vector(${sql.raw(String(dimension))})`;
    const excluded = query.excludedTiers?.length ? [...query.excludedTiers] : undefined;

    return this.db.transaction(async (tx) => {
      if (query.exact) {
        await tx.execute(sql`SET LOCAL enable_indexscan = off`);
        await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
      } else {
        await tx.execute(sql`SET LOCAL hnsw.iterative_scan = strict_order`);
        await tx.execute(sql`SET LOCAL hnsw.ef_search = ${sql.raw(String(Math.max(40, limit * 2)))}`);
      }
      const rows = await tx
        .select({
          id: papers.id,
          title: papers.title,
          publishedAt: papers.publishedAt,
          jcrTier: papers.jcrTier,
          distance: sql<number>`${distance}`.as('distance'),
        })
        .from(papers)
        .where(
          sql.join(
            [
              sql`${papers.embeddingModelId} = ${sql.raw(String(modelId))}`,
              query.publishedSince ? sql`${papers.publishedAt} >= ${query.publishedSince}` : undefined,
              excluded
                ? sql`(${papers.jcrTier} IS NULL OR NOT (${papers.jcrTier} = ANY(${sql.raw(`ARRAY[${excluded.map((tier) => Math.trunc(tier)).join(',')}]::smallint[]`)})))`
                : undefined,
            ].filter((part) => part !== undefined),
            sql` AND `,
          ),
        )
        .orderBy(distance)
        .limit(limit);
      return rows.map(({ distance: d, ...row }) => ({ ...row, similarity: 1 - Number(d) }));
    });
  }
}
