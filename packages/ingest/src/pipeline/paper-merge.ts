import type { AuthorIdentity, NewPaperRow, PaperFields } from '@radar/db';
import { isPreprintDoi, isPreprintServerName, isPreprintUrl } from '../text/identifiers';

/**
 * How an incoming paper meets the papers already stored: which row is the same paper, and what the
 * incoming copy adds to it. Pure functions, so the rules are tested without a database.
 *
 * Rules: the first stored copy keeps its text unless the incoming one is a newer version from the
 * authority (arXiv); missing fields are filled; a preprint meeting its journal version takes the
 * journal, its tier, the journal DOI and the journal's page as its link (the preprint's DOI and page are
 * kept in source_ids, preprintDoi and preprintUrl, so the card offers both links); identifiers are
 * added when no other row holds them; changed text drops the vector and summary so both are redone.
 */

export interface IncomingPaper {
  title: string;
  authors: string[];
  /** Who each author is (OpenAlex, Crossref), in the order of `authors`; absent or null for names only. */
  authorIdentities?: AuthorIdentity[] | null | undefined;
  abstract: string;
  doi: string | undefined;
  relatedDois: string[];
  arxivId: string | undefined;
  url: string;
  urlNormalized: string | undefined;
  pdfUrl: string | undefined;
  publishedAt: string | undefined;
  journalId: number | undefined;
  journalName: string;
  /** The venue is a preprint server (arXiv, bioRxiv): never replaces a journal name. */
  journalIsPreprintServer?: boolean | undefined;
  jcrTier: number | undefined;
  keywords: string[];
  /** Research field ids from the item's sources (not its journal's: those are joined when ranking). */
  researchFields: string[];
  sourceIds: Record<string, string>;
  titleAuthorKey: string | undefined;
  /** A new version from the source that owns the text (arXiv): its title and abstract win. */
  isAuthoritativeVersion: boolean;
  /**
   * The record is a preprint's (a preprint server's record, an arXiv entry even when it names its
   * journal, a preprint DOI): its page never replaces a journal's as the card's link.
   */
  isPreprintRecord: boolean;
}

export type MatchKey = 'doi' | 'arxiv' | 'url' | 'title-author';

export interface PaperMatch {
  row: PaperFields;
  by: MatchKey;
}

const MAX_KEYWORDS = 40;

/** Two journal DOIs that differ belong to different works (a preprint DOI never conflicts). */
function doisConflict(a: string | null | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const left = a.toLowerCase();
  return left !== b && !isPreprintDoi(left) && !isPreprintDoi(b);
}

/** The stored row that is the same paper, by key priority: DOI, arXiv id, URL, title + first author. */
export function pickMatch(candidates: PaperFields[], incoming: IncomingPaper): PaperMatch | undefined {
  const dois = new Set([incoming.doi, ...incoming.relatedDois].filter(Boolean));
  // A journal record stored first keeps its preprint's DOI in source_ids: the preprint finds it there.
  const byDoi =
    candidates.find((row) => row.doi && dois.has(row.doi.toLowerCase())) ??
    candidates.find((row) => row.sourceIds.preprintDoi && dois.has(row.sourceIds.preprintDoi.toLowerCase()));
  if (byDoi) return { row: byDoi, by: 'doi' };
  const byArxiv = incoming.arxivId ? candidates.find((row) => row.arxivId === incoming.arxivId) : undefined;
  if (byArxiv) return { row: byArxiv, by: 'arxiv' };
  const byUrl = incoming.urlNormalized
    ? candidates.find((row) => row.urlNormalized === incoming.urlNormalized && !doisConflict(row.doi, incoming.doi))
    : undefined;
  if (byUrl) return { row: byUrl, by: 'url' };
  const byTitle = incoming.titleAuthorKey
    ? candidates.find(
        (row) =>
          row.titleAuthorKey === incoming.titleAuthorKey &&
          !doisConflict(row.doi, incoming.doi) &&
          !(row.arxivId && incoming.arxivId && row.arxivId !== incoming.arxivId),
      )
    : undefined;
  return byTitle ? { row: byTitle, by: 'title-author' } : undefined;
}

const sameStrings = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

const sameRecord = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([key, value]) => b[key] === value);

/** The first preprint DOI among a record's own and related DOIs that is not `except` (arXiv's are ids). */
export function preprintDoiOf(incoming: IncomingPaper, except?: string | null): string | undefined {
  return [incoming.doi, ...incoming.relatedDois].find(
    (doi): doi is string =>
      Boolean(doi) && isPreprintDoi(doi as string) && !doi?.startsWith('10.48550/') && doi !== except?.toLowerCase(),
  );
}

type JournalFields = Pick<PaperFields, 'journalId' | 'journalName' | 'arxivId' | 'doi'>;

/**
 * A record of a preprint alone: its venue is a preprint server (a source may have given the server as a
 * journal, with a journal row), or it has no venue and no journal row but a preprint's id.
 */
export function isPreprintOnly(row: JournalFields): boolean {
  if (row.journalName) return isPreprintServerName(row.journalName);
  return row.journalId === null && Boolean(row.arxivId || (row.doi && isPreprintDoi(row.doi.toLowerCase())));
}

/**
 * The merge turns a preprint's row into its journal version (a journal, or a journal named by arXiv's
 * journal_ref): readers who marked the preprint are told it was published.
 */
export function publishesPreprint(existing: PaperFields, patch: Partial<NewPaperRow>): boolean {
  const after = { ...existing, ...patch } as JournalFields;
  return isPreprintOnly(existing) && Boolean(after.journalName) && !isPreprintOnly(after);
}

/** The stored row's link is a preprint's page (or it has none): a journal record's page replaces it. */
function showsPreprint(row: PaperFields): boolean {
  if (!row.url || isPreprintUrl(row.url)) return true;
  return (
    row.journalId === null &&
    (isPreprintServerName(row.journalName) || Boolean(row.doi && isPreprintDoi(row.doi.toLowerCase())))
  );
}

/**
 * The update that brings `existing` up to date with `incoming`; an empty object when nothing changes.
 * `others` are the other candidate rows: an identifier one of them holds is not copied (unique keys).
 */
export function mergePaper(
  existing: PaperFields,
  incoming: IncomingPaper,
  others: readonly PaperFields[] = [],
): Partial<NewPaperRow> {
  const patch: Partial<NewPaperRow> = {};
  const sourceIds: Record<string, string> = { ...incoming.sourceIds, ...existing.sourceIds };

  // Preprint versions (arXiv by its id, bioRxiv/medRxiv by their DOI while the row is still the
  // preprint): the text of the newest version wins; an older version never overwrites a newer one.
  const sameArxiv = Boolean(incoming.arxivId) && existing.arxivId === incoming.arxivId;
  const samePreprintDoi =
    Boolean(incoming.doi) && existing.doi?.toLowerCase() === incoming.doi && isPreprintDoi(incoming.doi ?? '');
  const versionKey = sameArxiv ? 'arxivVersion' : 'preprintVersion';
  const storedVersion = Number(existing.sourceIds[versionKey] ?? 0);
  const incomingVersion = Number(incoming.sourceIds[versionKey] ?? 0);
  const isNewerVersion =
    incoming.isAuthoritativeVersion && (sameArxiv || samePreprintDoi) && incomingVersion >= storedVersion;
  if (isNewerVersion && incoming.sourceIds[versionKey]) sourceIds[versionKey] = incoming.sourceIds[versionKey];

  // Identifiers.
  const heldByOther = (predicate: (row: PaperFields) => boolean) =>
    others.some((row) => row.id !== existing.id && predicate(row));
  if (incoming.doi && !heldByOther((row) => row.doi?.toLowerCase() === incoming.doi)) {
    if (!existing.doi) {
      patch.doi = incoming.doi;
    } else if (isPreprintDoi(existing.doi.toLowerCase()) && !isPreprintDoi(incoming.doi)) {
      patch.doi = incoming.doi;
      sourceIds.preprintDoi = existing.doi;
    }
  }
  if (incoming.arxivId && !existing.arxivId && !heldByOther((row) => row.arxivId === incoming.arxivId)) {
    patch.arxivId = incoming.arxivId;
  }
  // The preprint's DOI, when the row's own DOI is (or becomes) the journal's.
  const journalDoi = patch.doi ?? existing.doi;
  const preprintDoi = preprintDoiOf(incoming, journalDoi);
  if (preprintDoi && journalDoi && !isPreprintDoi(journalDoi.toLowerCase()) && !sourceIds.preprintDoi) {
    sourceIds.preprintDoi = preprintDoi;
  }

  // Links: the journal's page is the card's link, the preprint's is kept beside it (preprintUrl).
  if (!incoming.isPreprintRecord && incoming.url && !isPreprintUrl(incoming.url) && showsPreprint(existing)) {
    if (existing.url && existing.url !== incoming.url) sourceIds.preprintUrl ??= existing.url;
    patch.url = incoming.url;
  } else if (incoming.isPreprintRecord && incoming.url && incoming.url !== existing.url && !showsPreprint(existing)) {
    sourceIds.preprintUrl ??= incoming.url;
  }

  // Text.
  if ((isNewerVersion || !existing.title) && incoming.title && incoming.title !== existing.title) {
    patch.title = incoming.title;
  }
  if (incoming.abstract && (!existing.abstract || (isNewerVersion && incoming.abstract !== existing.abstract))) {
    patch.abstract = incoming.abstract;
  }
  if (
    incoming.authors.length &&
    (existing.authors.length === 0 || (isNewerVersion && !sameStrings(existing.authors, incoming.authors)))
  ) {
    patch.authors = incoming.authors;
    patch.authorIdentities = incoming.authorIdentities ?? null;
  } else if (
    !existing.authorIdentities &&
    incoming.authorIdentities &&
    incoming.authors.length === existing.authors.length
  ) {
    // A names-only copy (arXiv) learns who its authors are from a record that knows (OpenAlex, Crossref).
    patch.authorIdentities = incoming.authorIdentities;
  }

  // Journal: a stored copy without a journal row (a preprint, or a feed without ISSN) takes the
  // incoming journal and its tier.
  if (incoming.journalId !== undefined && existing.journalId === null) {
    patch.journalId = incoming.journalId;
    patch.journalName = incoming.journalName;
    patch.jcrTier = incoming.jcrTier ?? null;
  } else if (
    incoming.journalName &&
    existing.journalId === null &&
    (!existing.journalName ||
      (isPreprintServerName(existing.journalName) &&
        !incoming.journalIsPreprintServer &&
        incoming.journalName !== existing.journalName))
  ) {
    // A preprint stored under its server (arXiv) learns where it was published (journal_ref).
    patch.journalName = incoming.journalName;
  }
  if (
    existing.journalId !== null &&
    existing.journalId === incoming.journalId &&
    (incoming.jcrTier ?? null) !== existing.jcrTier
  ) {
    patch.jcrTier = incoming.jcrTier ?? null;
  }

  // Fill what is missing.
  if (!existing.publishedAt && incoming.publishedAt) patch.publishedAt = incoming.publishedAt;
  if (incoming.pdfUrl && (!existing.pdfUrl || (isNewerVersion && incoming.pdfUrl !== existing.pdfUrl))) {
    patch.pdfUrl = incoming.pdfUrl;
  }
  if (!existing.url && incoming.url) patch.url ??= incoming.url;
  if (!existing.urlNormalized && incoming.urlNormalized) patch.urlNormalized = incoming.urlNormalized;
  const keywords = [...new Set([...existing.keywords, ...incoming.keywords])].slice(0, MAX_KEYWORDS);
  if (keywords.length > existing.keywords.length) patch.keywords = keywords;
  // Fields are evidence from every source of the paper: the union of what each said.
  const researchFields = [...new Set([...existing.researchFields, ...incoming.researchFields])];
  if (researchFields.length > existing.researchFields.length) patch.researchFields = researchFields;
  if (!sameRecord(sourceIds, existing.sourceIds)) patch.sourceIds = sourceIds;

  const titleChanged = patch.title !== undefined;
  const abstractChanged = patch.abstract !== undefined;
  if (titleChanged || (!existing.titleAuthorKey && incoming.titleAuthorKey)) {
    patch.titleAuthorKey = incoming.titleAuthorKey ?? null;
  }
  if (titleChanged || abstractChanged) {
    // The vector and the summary were made from the old text.
    patch.embedding = null;
    patch.embeddingModelId = null;
    patch.llmSummary = null;
    patch.llmSummaryModel = null;
  }
  return patch;
}
