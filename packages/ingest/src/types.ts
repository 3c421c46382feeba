/** What adapters produce and the pipeline stores. */
import type { AuthorIdentity } from '@radar/db';
import type { ResearchFieldId } from '@radar/shared';

export const SOURCE_KINDS = ['arxiv', 'arxiv-rss', 'openalex', 'crossref', 'biorxiv', 'rss', 'news-rss'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export function isSourceKind(value: string): value is SourceKind {
  return (SOURCE_KINDS as readonly string[]).includes(value);
}

export interface JournalRef {
  name: string;
  /** ISSNs without hyphens (print and electronic, in any order). */
  issns: string[];
  publisher?: string | undefined;
  /** arXiv, bioRxiv ...: shown as the venue, never given a journal row or tier. */
  isPreprintServer?: boolean;
  /**
   * A hint rather than a record (arXiv's journal_ref): the paper takes a journal already known under
   * one of these names (and its tier), but no journal row is created for it.
   */
  matchOnly?: boolean;
  /** Further names tried when matching (matchOnly), e.g. the parts of a full citation. */
  alternativeNames?: string[];
}

export interface PaperDraft {
  /** How the source identifies the item, for messages (DOI, arXiv id, URL or position). */
  key: string;
  title: string;
  authors: string[];
  /**
   * Who each author is, in the order of `authors`, when the source knows more than names (OpenAlex,
   * Crossref: ORCID iD, OpenAlex id, affiliation); absent for names-only sources.
   */
  authorIdentities?: AuthorIdentity[] | undefined;
  abstract: string;
  doi?: string | undefined;
  arxivId?: string | undefined;
  /** Landing page. */
  url?: string | undefined;
  pdfUrl?: string | undefined;
  /** YYYY-MM-DD. */
  publishedAt?: string | undefined;
  journal?: JournalRef | undefined;
  keywords: string[];
  /** Research fields the source says the item belongs to (arXiv categories, OpenAlex topic field ...). */
  fields?: ResearchFieldId[] | undefined;
  /** Ids in each source: { arxiv: '2401.01234', openalex: 'W123', crossref: '10.1/x' }. */
  sourceIds: Record<string, string>;
  /** Further DOIs of the same work (its preprint's), used only to find an existing row. */
  relatedDois?: string[] | undefined;
  /** The source is the authority for title and abstract (a new arXiv version replaces the old text). */
  isAuthoritativeVersion?: boolean | undefined;
  /** Update an existing row but never create one (arXiv RSS replacements of old papers). */
  updateOnly?: boolean | undefined;
  /** Caveats kept with the item (no abstract, date taken from the feed ...). */
  notes: string[];
}

export interface NewsDraft {
  key: string;
  title: string;
  /** Plain text. */
  content: string;
  url: string;
  publishDate?: Date | undefined;
  institute: string;
  instituteHomepage?: string | undefined;
  /** Research fields the source says the item belongs to. */
  fields?: ResearchFieldId[] | undefined;
  notes: string[];
}

export type IngestEntry =
  | { type: 'paper'; draft: PaperDraft }
  | { type: 'news'; draft: NewsDraft }
  /** Not stored, with the reason (bad input). */
  | { type: 'reject'; key: string; reason: string; detail?: string | undefined }
  /** Deliberately not stored (replacement of an unknown paper, retracted work ...). */
  | { type: 'skip'; key: string; reason: string }
  /** Something about the feed as a whole (malformed XML recovered, truncated at the size cap ...). */
  | { type: 'warning'; key?: string | undefined; reason: string; detail?: string | undefined };

/** What a source remembers between runs (ingest_sources.cursor). */
export type SourceCursor = Record<string, unknown>;

/** A source failure a retry cannot fix (bad configuration, 4xx, not a feed): the job is not retried. */
export class PermanentSourceError extends Error {
  override name = 'PermanentSourceError';
}

/** A source failure worth retrying later (5xx, 429 after waiting, time-out, network). */
export class TransientSourceError extends Error {
  override name = 'TransientSourceError';
}
