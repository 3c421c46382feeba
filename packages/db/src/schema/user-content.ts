import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, radar, updatedAt, vector } from './columns';
import { newsItems, papers } from './content';
import { embeddingModels } from './embedding-models';
import { ownerColumn, users } from './users';

/** Keywords a user follows, with their alert settings. */
export const userKeywords = radar.table(
  'user_keywords',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: ownerColumn(),
    name: text('name').notNull(),
    alertEnabled: boolean('alert_enabled').notNull().default(false),
    /** 'daily' | 'weekly'. */
    alertFrequency: text('alert_frequency').notNull().default('daily'),
    /** Terms that keep a paper out of this keyword's alerts (matched like the keyword, case-insensitive). */
    negativeTerms: text('negative_terms').array().notNull().default(sql`'{}'::text[]`),
    /**
     * The English a Chinese keyword also matches, from the one glossary (for each word, the phrases of
     * which one must occur); null for a keyword with no Chinese or no gloss, and for one added before
     * glossing (filled in by KeywordService.glossFollowedKeywords).
     */
    englishAlternatives: jsonb('english_alternatives').$type<string[][]>(),
    /**
     * For each negative term, in order, the English it also excludes (as englishAlternatives; [] for a
     * term with no Chinese or no gloss); null when no negative term has Chinese, or for negative terms set
     * before they were glossed (filled in by KeywordService.glossFollowedKeywords).
     */
    negativeEnglish: jsonb('negative_english').$type<string[][][]>(),
    lastAlertedAt: timestamp('last_alerted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('user_keywords_user_name_key').on(t.userId, sql`lower(${t.name})`)],
);

/** Per-user state of a paper: favourite, saved, shared, reading progress. */
export const userArticleStates = radar.table(
  'user_article_states',
  {
    userId: ownerColumn(),
    paperId: bigint('paper_id', { mode: 'number' })
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    isFavorited: boolean('is_favorited').notNull().default(false),
    isSaved: boolean('is_saved').notNull().default(false),
    shareCount: integer('share_count').notNull().default(0),
    lastSharedAt: timestamp('last_shared_at', { withTimezone: true }),
    /** 0-100. */
    readProgress: smallint('read_progress').notNull().default(0),
    lastReadAt: timestamp('last_read_at', { withTimezone: true }),
    /** Marked 'not interested': never recommended again; null after undo. */
    dismissedAt: timestamp('dismissed_at', { withTimezone: true }),
    /** The reader's rating: 1 (👍 more like this), -1 (👎 less like this), null: none (or undone). */
    rating: smallint('rating'),
    /** When `rating` was last set; null when there is none. */
    ratedAt: timestamp('rated_at', { withTimezone: true }),
    /** The reader's own work (seeded from ORCID, OpenAlex or a library file): liked for learning. */
    authoredAt: timestamp('authored_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.paperId] }),
    check('user_article_states_read_progress_range', sql`${t.readProgress} between 0 and 100`),
    check('user_article_states_rating_values', sql`${t.rating} IN (1, -1)`),
    index('user_article_states_paper_idx').on(t.paperId),
  ],
);

/** Per-user state of a news item: 'not interested' and the rating. */
export const userNewsStates = radar.table(
  'user_news_states',
  {
    userId: ownerColumn(),
    newsItemId: bigint('news_item_id', { mode: 'number' })
      .notNull()
      .references(() => newsItems.id, { onDelete: 'cascade' }),
    /** Marked 'not interested': never recommended again; null after undo. */
    dismissedAt: timestamp('dismissed_at', { withTimezone: true }),
    /** As user_article_states.rating. */
    rating: smallint('rating'),
    ratedAt: timestamp('rated_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.newsItemId] }),
    index('user_news_states_news_item_idx').on(t.newsItemId),
    check('user_news_states_rating_values', sql`${t.rating} IN (1, -1)`),
  ],
);

/**
 * The reader's classifier per embedding model (issue 23): logistic regression weights over that model's
 * vectors, fitted by the worker from the reader's signals; ranks by sigmoid(weights·x + bias).
 */
export const readerClassifiers = radar.table(
  'reader_classifiers',
  {
    userId: ownerColumn(),
    embeddingModelId: integer('embedding_model_id')
      .notNull()
      .references(() => embeddingModels.id, { onDelete: 'cascade' }),
    weights: vector('weights').notNull(),
    bias: doublePrecision('bias').notNull(),
    /** The signals it was fitted from (👍 + 👎, favourites, saves, 'not interested'). */
    signalCount: integer('signal_count').notNull(),
    fittedAt: timestamp('fitted_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.embeddingModelId] })],
);

export const feedback = radar.table(
  'feedback',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The Chinese label of the chosen type, as the web app sends it. */
    type: text('type').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    /** The auto-attached user-info box: email, userId, userAgent, currentPage, timestamp. */
    userInfo: jsonb('user_info').notNull().default({}),
    /** When it was mailed to FEEDBACK_TO; null when no address is set or the mail has not gone out. */
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    /** When an operator marked it read (`radar messages read`); null: unread, counted by `radar status`. */
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('feedback_created_idx').on(t.createdAt)],
);

/** Papers already sent to a user in a keyword-alert digest: each paper is mailed to a user at most once. */
export const keywordAlertDeliveries = radar.table(
  'keyword_alert_deliveries',
  {
    userId: ownerColumn(),
    paperId: bigint('paper_id', { mode: 'number' })
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    /** The keyword that matched; null when the keyword was removed since. */
    keywordId: bigint('keyword_id', { mode: 'number' }).references(() => userKeywords.id, { onDelete: 'set null' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.paperId] }),
    index('keyword_alert_deliveries_sent_idx').on(t.sentAt),
    // Migration 0033: removing a keyword sets its rows' keyword_id to NULL.
    index('keyword_alert_deliveries_keyword_idx').on(t.keywordId).where(sql`${t.keywordId} IS NOT NULL`),
  ],
);
