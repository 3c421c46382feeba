import { customType, integer, jsonb, text } from 'drizzle-orm/pg-core';
import { createdAt, radar } from './columns';
import { embeddingModels } from './embedding-models';

/** Raw bytes; node-postgres returns a Buffer. Used for packed Float32 matrices. */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});

/**
 * The fitted parameters of a corpus-fitted built-in embedding model (tf-idf vocabulary and idf, LSA
 * projection), one row per model version in radar.embedding_models. Every process that embeds loads
 * the active version from here, so the server, workers and CLI produce identical vectors.
 */
export const embedderStates = radar.table('embedder_states', {
  embeddingModelId: integer('embedding_model_id')
    .primaryKey()
    .references(() => embeddingModels.id, { onDelete: 'cascade' }),
  /** Model family, e.g. 'tfidf-lsa'. */
  kind: text('kind').notNull(),
  /** Papers and news items in the corpus when fitted; a refit is due when it has grown enough. */
  corpusSize: integer('corpus_size').notNull(),
  /** Documents actually used for the fit (a sample when the corpus is large). */
  sampleSize: integer('sample_size').notNull(),
  /** Vocabulary terms in index order. */
  vocabulary: jsonb('vocabulary').$type<string[]>().notNull(),
  /** Float32 little-endian, one per term. */
  idf: bytea('idf').notNull(),
  /** Float32 little-endian, terms x dimension, term-major. */
  projection: bytea('projection').notNull(),
  /** Fit settings (minDf, maxDfRatio, seed ...), for reproducing a version. */
  params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
});
