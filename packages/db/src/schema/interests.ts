import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, radar, updatedAt, vector } from './columns';
import { embeddingModels } from './embedding-models';
import { ownerColumn } from './users';

/**
 * A reader's research interests besides the research summary, which is the first one (its row, kind
 * 'summary', holds only its quota). 'typed' interests are embedded from their description (English or
 * Chinese, the profile's cross-lingual path), 'favourites' ones are the mean of their papers' vectors.
 * Vectors are of one model, kept on the active one like the profile vector.
 */
export const readerInterests = radar.table(
  'reader_interests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: ownerColumn(),
    kind: text('kind', { enum: ['summary', 'typed', 'favourites'] }).notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    paperIds: bigint('paper_ids', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
    /** The interest's weight among the reader's interests (1-10): its share of the recommendations. */
    quota: smallint('quota').notNull().default(5),
    embedding: vector('embedding'),
    embeddingModelId: integer('embedding_model_id').references(() => embeddingModels.id, { onDelete: 'set null' }),
    embeddedAt: timestamp('embedded_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('reader_interests_user_id_idx').on(t.userId, t.id),
    uniqueIndex('reader_interests_one_summary_idx').on(t.userId).where(sql`${t.kind} = 'summary'`),
  ],
);
