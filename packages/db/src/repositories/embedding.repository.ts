import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { embeddingModels } from '../schema';

export type EmbeddingModelRow = typeof embeddingModels.$inferSelect;

export interface EmbeddingModelSpec {
  provider: string;
  name: string;
  version: string;
  dimension: number;
}

/** Tables whose `embedding` column is searched by similarity, each with one HNSW index per model. */
const SEARCHABLE_TABLES = ['papers', 'news_items'] as const;

/**
 * The HNSW graph's build parameters (pgvector's defaults are m 16, ef_construction 64). Measured with
 * bench:recommend at 1M x 128 (docs/benchmarks.md, "1M recall"): with the defaults the walk found 0.77-0.93
 * of the true top 20 and a larger ef_search did not close the gap (0.90-0.94 at 300). On this graph the
 * filtered walks find 0.97-0.99 at ef_search 100 and the unfiltered one 0.875 (a quiet re-run, 30
 * queries), 0.988 at ef_search 200, which nearest-search.ts's corpusScale() gives a 1M corpus. The price:
 * a build about 2.5 times as long (471 s at 1M on 2 quiet cores), inserts into the index slower in
 * proportion, and an index about 1.4 times as large.
 */
const HNSW_BUILD_PARAMETERS = { m: 24, efConstruction: 128 } as const;

/**
 * Memory (MB) for building the HNSW graph of `rows` vectors of `dimension` in one pass, or undefined
 * when the server's default (64 MB) holds it. pgvector builds in memory while the graph fits in
 * maintenance_work_mem and much more slowly once it does not ("hnsw graph no longer fits into
 * maintenance_work_mem after 43388 tuples" at 128 dimensions, m 24: about 1.5 KB a row; a 97,000-row
 * build then took minutes, docs/benchmarks.md). Reckoned as the vector plus 3m neighbour slots of 16
 * bytes and 256 bytes of bookkeeping, 1.9 KB a row at 128 dimensions, which leaves a margin. Capped at
 * 1 GB on a server, and at 256 MB in PGlite, whose WebAssembly memory keeps what it grew to for the
 * life of the process: a larger graph builds partly on disk rather than take that much from a small
 * machine.
 */
export function hnswBuildMemory(
  rows: number,
  dimension: number,
  options: { embedded?: boolean } = {},
): number | undefined {
  const bytesPerRow = dimension * 4 + HNSW_BUILD_PARAMETERS.m * 3 * 16 + 256;
  const megabytes = Math.ceil((rows * bytesPerRow) / 1024 / 1024) + 16;
  return megabytes <= 64 ? undefined : Math.min(megabytes, options.embedded ? 256 : 1_024);
}

export const embeddingIndexName = (table: (typeof SEARCHABLE_TABLES)[number], modelId: number) =>
  `${table}_embedding_m${modelId}_hnsw`;

export class EmbeddingRepository {
  constructor(private readonly db: Database) {}

  /** Returns the model's row, creating it (and its HNSW indexes) the first time it is seen. */
  async registerModel(spec: EmbeddingModelSpec): Promise<EmbeddingModelRow> {
    if (!Number.isInteger(spec.dimension) || spec.dimension < 1 || spec.dimension > 2000) {
      // HNSW indexes on `vector` support at most 2,000 dimensions.
      throw new RangeError(`embedding dimension must be 1-2000, got ${spec.dimension}`);
    }
    await this.db.insert(embeddingModels).values(spec).onConflictDoNothing();
    const [row] = await this.db
      .select()
      .from(embeddingModels)
      .where(
        and(
          eq(embeddingModels.provider, spec.provider),
          eq(embeddingModels.name, spec.name),
          eq(embeddingModels.version, spec.version),
        ),
      );
    if (!row) throw new Error('embedding model row missing after insert');
    if (row.dimension !== spec.dimension) {
      throw new Error(
        `embedding model ${spec.name}@${spec.version} was registered with dimension ${row.dimension}, not ${spec.dimension}; give the new model a new version`,
      );
    }
    await this.ensureIndexes(row);
    return row;
  }

  /**
   * pgvector indexes a column of mixed dimensions through an expression index on a cast, restricted
   * to one model's rows. Queries must use the same expression and the model id as a literal
   * (see paper.repository.ts) for the planner to pick the index. Ids and dimensions are integers
   * from our own table, so building the DDL from them is safe.
   */
  async ensureIndexes(model: Pick<EmbeddingModelRow, 'id' | 'dimension'>): Promise<void> {
    const id = Math.trunc(model.id);
    const dimension = Math.trunc(model.dimension);
    for (const table of SEARCHABLE_TABLES) {
      const name = embeddingIndexName(table, id);
      const create = sql.raw(
        `CREATE INDEX IF NOT EXISTS ${name} ON radar.${table} ` +
          `USING hnsw ((embedding::vector(${dimension})) vector_cosine_ops) ` +
          `WITH (m = ${HNSW_BUILD_PARAMETERS.m}, ef_construction = ${HNSW_BUILD_PARAMETERS.efConstruction}) ` +
          `WHERE embedding_model_id = ${id}`,
      );
      const exists = await this.db.execute(
        sql`SELECT 1 FROM pg_class WHERE relname = ${name} AND relnamespace = 'radar'::regnamespace AND relkind = 'i'`,
      );
      if (exists.rows.length > 0) continue;
      const counted = await this.db.execute<{ rows: string; embedded: boolean }>(
        sql.raw(
          `SELECT count(*)::text AS rows, version() LIKE '%wasm32%' AS embedded FROM radar.${table} WHERE embedding_model_id = ${id}`,
        ),
      );
      const memory = hnswBuildMemory(Number(counted.rows[0]?.rows ?? 0), dimension, {
        embedded: counted.rows[0]?.embedded === true,
      });
      await this.db.transaction(async (tx) => {
        // Only for this build: the server's setting stays what the operator chose.
        if (memory !== undefined) await tx.execute(sql.raw(`SET LOCAL maintenance_work_mem = '${memory}MB'`));
        await tx.execute(create);
      });
    }
  }

  /**
   * Drops one model's vector indexes: a bulk re-embedding writes its vectors without updating an HNSW
   * graph row by row, and ensureIndexes builds them again afterwards (several times faster in total).
   * Searches of that model read its rows without the index meanwhile (exact, slower).
   */
  async dropIndexes(model: Pick<EmbeddingModelRow, 'id'>): Promise<void> {
    const id = Math.trunc(model.id);
    for (const table of SEARCHABLE_TABLES) {
      await this.db.execute(sql.raw(`DROP INDEX IF EXISTS radar.${embeddingIndexName(table, id)}`));
    }
  }

  async getActiveModel(): Promise<EmbeddingModelRow | undefined> {
    const [row] = await this.db.select().from(embeddingModels).where(eq(embeddingModels.isActive, true));
    return row;
  }

  async activateModel(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.update(embeddingModels).set({ isActive: false }).where(eq(embeddingModels.isActive, true));
      await tx.update(embeddingModels).set({ isActive: true }).where(eq(embeddingModels.id, id));
    });
  }
}
