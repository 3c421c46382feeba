import { customType, pgSchema, timestamp } from 'drizzle-orm/pg-core';

/**
 * All application tables live in the `radar` schema. BullMQ's PostgreSQL backend owns the `bullmq`
 * schema (tables named job, event, metrics, ...) and, in embedded mode, the shared PGlite session has
 * `search_path = bullmq, public`, so unqualified app tables would land in BullMQ's schema. Qualifying
 * every app table keeps the two apart in both modes. The pgvector extension lives in `public`.
 */
export const radar = pgSchema('radar');

/**
 * A pgvector column without a fixed dimension: different embedding models have different dimensions,
 * and each vector is tagged with the model that made it. Each model gets its own partial HNSW index on
 * `(embedding::vector(dim))` (see embedding.repository.ts), which is how pgvector indexes mixed dimensions.
 */
/** pgvector's text form ('[0.1,0.2]'), as the column and raw `embedding::text` selects return it. */
export const parseVectorText = (value: string) => JSON.parse(value) as number[];

/**
 * A vector as pgvector reads it, written to nine significant digits: pgvector stores float4 (about seven),
 * so nine keep what is stored, at most a last bit apart from rounding twice, in about half the text.
 */
export const vectorText = (values: readonly number[]) => `[${values.map((value) => value.toPrecision(9)).join(',')}]`;

export const vector = customType<{ data: number[]; driverData: string }>({
  dataType: () => 'vector',
  toDriver: vectorText,
  fromDriver: parseVectorText,
});

/** Full-text search document, kept up to date by PostgreSQL as a generated column. */
export const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
});

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
