import { sql } from 'drizzle-orm';
import { boolean, integer, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, radar } from './columns';

/**
 * Every embedding model (and version of a corpus-fitted model) that has produced stored vectors.
 * Vectors reference their model here so vectors of different models are never compared.
 */
export const embeddingModels = radar.table(
  'embedding_models',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Provider kind, e.g. 'builtin' or 'openai-compatible'. */
    provider: text('provider').notNull(),
    name: text('name').notNull(),
    version: text('version').notNull().default('1'),
    dimension: integer('dimension').notNull(),
    /** The model new vectors are made with and queries run against; at most one row is active. */
    isActive: boolean('is_active').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('embedding_models_provider_name_version_key').on(t.provider, t.name, t.version),
    uniqueIndex('embedding_models_single_active_key').on(t.isActive).where(sql`${t.isActive}`),
  ],
);
