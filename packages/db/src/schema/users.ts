import { sql } from 'drizzle-orm';
import { boolean, index, integer, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, radar, updatedAt, vector } from './columns';
import { embeddingModels } from './embedding-models';

export const users = radar.table(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    /** argon2id PHC string; null only for accounts that never set a password. */
    passwordHash: text('password_hash'),
    isEmailVerified: boolean('is_email_verified').notNull().default(false),
    username: text('username').notNull().default(''),
    researchDescription: text('research_description').notNull().default(''),
    researchName: text('research_name').notNull().default(''),
    researchEmail: text('research_email').notNull().default(''),
    researchInstitution: text('research_institution').notNull().default(''),
    researchPosition: text('research_position').notNull().default(''),
    /** Ids of the 21 research fields (packages/shared research-fields.ts). */
    researchFields: text('research_fields').array().notNull().default(sql`'{}'::text[]`),
    /** Field names the user or the AI gave that are not among the 21 ids; kept, not silently dropped. */
    researchFieldsUnmapped: text('research_fields_unmapped').array().notNull().default(sql`'{}'::text[]`),
    researchSummaryEn: text('research_summary_en').notNull().default(''),
    profileEmbedding: vector('profile_embedding'),
    profileEmbeddingModelId: integer('profile_embedding_model_id').references(() => embeddingModels.id, {
      onDelete: 'set null',
    }),
    profileEmbeddedAt: timestamp('profile_embedded_at', { withTimezone: true }),
    /**
     * The profile refined by what the reader liked and dismissed (Rocchio, packages/ai learning), made by
     * the worker after each change; the research summary and its vector stay as they are.
     */
    learnedEmbedding: vector('learned_embedding'),
    learnedEmbeddingModelId: integer('learned_embedding_model_id').references(() => embeddingModels.id, {
      onDelete: 'set null',
    }),
    learnedAt: timestamp('learned_at', { withTimezone: true }),
    /** Signals before this are ignored ('back to the summary alone'); dismissed items stay hidden. */
    learningResetAt: timestamp('learning_reset_at', { withTimezone: true }),
    /** Bumped on password reset; tokens carrying an older version are rejected. */
    tokenVersion: integer('token_version').notNull().default(0),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /** Set by an operator (`radar users disable`): login is refused and existing tokens stop working. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    index('users_profile_embedding_model_idx').on(t.profileEmbeddingModelId),
  ],
);

/** The reader a row belongs to (`user_id`): deleting the account deletes the row. */
export const ownerColumn = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/** The same as the table's key: at most one row per reader. */
export const ownerKeyColumn = () =>
  uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' });

/**
 * The per-reader OpenAlex query (packages/ingest reader-queries.ts): when it last ran for the reader,
 * with which terms of the research summary, how many OpenAlex calls it made (counted against the
 * daily budget) and how many papers it added. One row per reader, replaced at each run.
 */
export const readerQueries = radar.table(
  'reader_queries',
  {
    userId: ownerKeyColumn(),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }).notNull(),
    terms: text('terms').array().notNull().default(sql`'{}'::text[]`),
    calls: integer('calls').notNull().default(0),
    added: integer('added').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('reader_queries_last_run_at_idx').on(t.lastRunAt)],
);
