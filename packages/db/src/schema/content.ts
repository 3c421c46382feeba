import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, radar, tsvector, updatedAt, vector } from './columns';
import { embeddingModels } from './embedding-models';
import { users } from './users';

/** Where a journal's tier comes from; see journals.tier_system. */
export const TIER_SYSTEMS = ['scimago', 'openalex', 'imported'] as const;
export type TierSystem = (typeof TIER_SYSTEMS)[number];

/** Journals with a quality tier 1 (best) to 4, imported from an open tier table (e.g. SCImago quartiles). */
export const journals = radar.table(
  'journals',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    /** Lower-cased, punctuation-free title used to match papers whose source gives no ISSN. */
    titleNormalized: text('title_normalized').notNull(),
    /** ISSNs without hyphens, upper-case check digit. */
    issn: text('issn'),
    eissn: text('eissn'),
    tier: smallint('tier'),
    /** Which table the tier came from, e.g. 'scimago-2024'. */
    tierSource: text('tier_source'),
    /**
     * The system of the tier: 'scimago' (SCImago quartiles), 'openalex' (OpenAlex two-year mean citedness
     * quartiles within the journal's field) or 'imported' (an operator's own table, e.g. JCR or 中科院分区).
     */
    tierSystem: text('tier_system').$type<TierSystem>(),
    /** The year the tier table is of (SCImago's data year, the OpenAlex refresh year, a label's year). */
    tierYear: smallint('tier_year'),
    /** When the OpenAlex tier job last looked this journal up, found or not. */
    openalexCheckedAt: timestamp('openalex_checked_at', { withTimezone: true }),
    publisher: text('publisher'),
    /** Research field ids of the journal's subject areas (tier table "Areas"/"Categories"); empty: unknown. */
    researchFields: text('research_fields').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('journals_tier_range', sql`${t.tier} between 1 and 4`),
    check('journals_tier_system_check', sql`${t.tierSystem} in ('scimago', 'openalex', 'imported')`),
    index('journals_tier_system_year_idx').on(t.tierSystem, t.tierYear),
    uniqueIndex('journals_issn_key').on(t.issn).where(sql`${t.issn} is not null`),
    index('journals_eissn_idx').on(t.eissn),
    index('journals_title_normalized_idx').on(t.titleNormalized),
  ],
);

/** One author of a paper as its source knew them; ids bare ('0000-0002-1825-0097', 'A5023888391'). */
export interface AuthorIdentity {
  name: string;
  orcid?: string | undefined;
  openalexId?: string | undefined;
  /** Institutions or affiliation lines, joined with '; '. */
  affiliation?: string | undefined;
}

/**
 * The columns papers and news items share for their embedding: the vector, the model it is of, and
 * the English gist of a Chinese item that is embedded in place of its own text (GistRepository).
 */
const embeddedItemColumns = () => ({
  embedding: vector('embedding'),
  embeddingModelId: integer('embedding_model_id').references(() => embeddingModels.id, { onDelete: 'set null' }),
  /** An LLM's English gist of a Chinese item: the text it is embedded from. */
  englishGist: text('english_gist'),
  /** Key of the text the gist was made from; a gist of another text is not used. */
  englishGistSource: text('english_gist_source'),
  /** When the gist was made: the daily limit counts these. */
  englishGistAt: timestamp('english_gist_at', { withTimezone: true }),
});

export const papers = radar.table(
  'papers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    /** Author names in order. */
    authors: jsonb('authors').$type<string[]>().notNull().default([]),
    /**
     * What the source knew of each author beyond the name (OpenAlex, Crossref), in the order of
     * `authors`; null when it gave names only (arXiv, feeds). Migration 0025.
     */
    authorIdentities: jsonb('author_identities').$type<AuthorIdentity[]>(),
    /**
     * What followed authors are looked up by: 'n:' + radar.author_name_key of each name, 'o:' + each
     * ORCID iD, 'a:' + each OpenAlex author id (radar.paper_author_keys, migration 0025).
     */
    authorKeys: text('author_keys').array().generatedAlwaysAs(sql`radar.paper_author_keys(authors, author_identities)`),
    abstract: text('abstract').notNull().default(''),
    journalId: bigint('journal_id', { mode: 'number' }).references(() => journals.id, { onDelete: 'set null' }),
    /** Journal (or venue) name as the source gave it; shown even when no journal row matched. */
    journalName: text('journal_name').notNull().default(''),
    /** Copied from the journal so recommendation filters need no join; refreshed on tier import. */
    jcrTier: smallint('jcr_tier'),
    doi: text('doi'),
    arxivId: text('arxiv_id'),
    url: text('url').notNull().default(''),
    /** Scheme-less, lower-cased URL without tracking parameters, for dedupe. */
    urlNormalized: text('url_normalized'),
    pdfUrl: text('pdf_url'),
    publishedAt: date('published_at', { mode: 'string' }),
    keywords: text('keywords').array().notNull().default(sql`'{}'::text[]`),
    /**
     * Research field ids its sources gave (declared source fields, arXiv categories, OpenAlex field);
     * the journal's (journals.research_fields) are joined at query time. Empty: unknown, never demoted.
     */
    researchFields: text('research_fields').array().notNull().default(sql`'{}'::text[]`),
    llmSummary: text('llm_summary'),
    /** Model and language that produced llm_summary, so it is regenerated only when they change. */
    llmSummaryModel: text('llm_summary_model'),
    /** Normalised title + first author surname: the dedupe key of last resort. */
    titleAuthorKey: text('title_author_key'),
    /**
     * Set on a row that is the same paper as another (same title_author_key, identifiers that could not
     * be merged, e.g. a preprint and its journal version): lists show only rows where this is null, and
     * user states live on the canonical row. Chosen by radar.link_paper_duplicates (migration 0010).
     */
    duplicateOf: bigint('duplicate_of', { mode: 'number' }).references((): AnyPgColumn => papers.id, {
      onDelete: 'set null',
    }),
    /**
     * When this paper, stored as a preprint, got its journal version (the journal record merged into
     * this row, or this journal record took over a stored preprint as canonical row). Migration 0021.
     */
    journalVersionAt: timestamp('journal_version_at', { withTimezone: true }),
    /** Where the paper came from: `{ arxiv: '2401.01234', openalex: 'W123', crossref: '10.1/x' }`. */
    sourceIds: jsonb('source_ids').$type<Record<string, string>>().notNull().default({}),
    /** Source name that first created the row (a configured source or 'demo'). */
    source: text('source').notNull(),
    isDemo: boolean('is_demo').notNull().default(false),
    /**
     * The one reader who may see this paper: it entered the corpus only through their own-works import
     * (ORCID, OpenAlex author id, library file). Null: a public record (a configured source, the demo
     * corpus), shown to everyone. A public source storing the same work sets it back to null. Migration 0026;
     * the rule is applied in reader-eligibility.ts.
     */
    privateTo: uuid('private_to').references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    ...embeddedItemColumns(),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('english', radar.cjk_bigrams(coalesce(title, ''))), 'A') || setweight(to_tsvector('english', radar.cjk_bigrams(coalesce(abstract, ''))), 'B') || setweight(to_tsvector('simple', radar.cjk_bigrams(coalesce(journal_name, ''))), 'C')`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('papers_jcr_tier_range', sql`${t.jcrTier} between 1 and 4`),
    uniqueIndex('papers_doi_key').on(sql`lower(${t.doi})`).where(sql`${t.doi} is not null`),
    uniqueIndex('papers_arxiv_id_key').on(t.arxivId).where(sql`${t.arxivId} is not null`),
    index('papers_url_normalized_idx').on(t.urlNormalized),
    index('papers_title_author_key_idx').on(t.titleAuthorKey),
    index('papers_duplicate_of_idx').on(t.duplicateOf).where(sql`${t.duplicateOf} is not null`),
    index('papers_published_at_idx').on(t.publishedAt),
    index('papers_journal_version_at_idx').on(t.journalVersionAt).where(sql`${t.journalVersionAt} is not null`),
    index('papers_journal_id_idx').on(t.journalId),
    index('papers_embedding_model_idx').on(t.embeddingModelId),
    index('papers_private_to_idx').on(t.privateTo).where(sql`${t.privateTo} is not null`),
    index('papers_english_gist_at_idx').on(t.englishGistAt).where(sql`${t.englishGistAt} is not null`),
    // The recommendation pages' freshness line: newest stored paper and the last week's count.
    index('papers_created_at_idx').on(t.createdAt),
    // A journal record's preprint DOI, which a preprint arriving later is looked up by.
    index('papers_preprint_doi_idx').on(sql`lower(${t.sourceIds} ->> 'preprintDoi')`),
    index('papers_search_vector_idx').using('gin', t.searchVector),
    index('papers_author_keys_idx').using('gin', t.authorKeys),
  ],
);

export const institutes = radar.table(
  'institutes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull().unique(),
    homepageUrl: text('homepage_url'),
    createdAt: createdAt(),
  },
  () => [],
);

export const newsItems = radar.table(
  'news_items',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    /** Plain text; HTML from feeds is converted before storing and never rendered as HTML. */
    content: text('content').notNull().default(''),
    url: text('url').notNull(),
    urlNormalized: text('url_normalized').notNull(),
    instituteId: bigint('institute_id', { mode: 'number' }).references(() => institutes.id, { onDelete: 'set null' }),
    publishDate: timestamp('publish_date', { withTimezone: true }),
    crawlDate: timestamp('crawl_date', { withTimezone: true }).notNull().defaultNow(),
    source: text('source').notNull(),
    isDemo: boolean('is_demo').notNull().default(false),
    /** Research field ids its source declared; empty: unknown, never demoted. */
    researchFields: text('research_fields').array().notNull().default(sql`'{}'::text[]`),
    ...embeddedItemColumns(),
    // 'simple' rather than a language stemmer: news is Chinese and English mixed. Chinese has no spaces,
    // so radar.cjk_bigrams (migration 0005) first splits CJK runs into overlapping bigrams, as Lucene's
    // CJK analyzer does; queries go through the same function (phrase of bigrams).
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('simple', radar.cjk_bigrams(coalesce(title, ''))), 'A') || setweight(to_tsvector('simple', radar.cjk_bigrams(coalesce(content, ''))), 'B')`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('news_items_url_normalized_key').on(t.urlNormalized),
    index('news_items_institute_idx').on(t.instituteId),
    index('news_items_publish_date_idx').on(t.publishDate),
    index('news_items_crawl_date_idx').on(t.crawlDate),
    index('news_items_embedding_model_idx').on(t.embeddingModelId),
    index('news_items_english_gist_at_idx').on(t.englishGistAt).where(sql`${t.englishGistAt} is not null`),
    index('news_items_created_at_idx').on(t.createdAt),
    index('news_items_search_vector_idx').using('gin', t.searchVector),
  ],
);
