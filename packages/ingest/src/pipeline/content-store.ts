import type { NewPaperVectors } from '@radar/ai';
import type {
  AuthorIdentity,
  IngestPaperRepository,
  IngestRepositories,
  NewPaperRow,
  NewsRepository,
  PaperFields,
} from '@radar/db';
import type { ResearchFieldId } from '@radar/shared';
import {
  arxivIdFromDoi,
  isPreprintDoi,
  isPreprintUrl,
  normalizeDoi,
  normalizeUrl,
  parseHttpUrl,
  titleAuthorKey,
} from '../text/identifiers';
import { mergeFields } from '../text/research-field-evidence';
import { cleanBlock, cleanInline, cleanParagraphs, truncateText } from '../text/text';
import { JournalResolver } from '../tiers/journal-resolver';
import { paperVenue } from '../tiers/venue';
import type { JournalRef, NewsDraft, PaperDraft } from '../types';
import {
  type IncomingPaper,
  isPreprintOnly,
  mergePaper,
  type PaperMatch,
  pickMatch,
  preprintDoiOf,
  publishesPreprint,
} from './paper-merge';

/** Length limits: generous for real content, bounded against absurd input. */
const LIMITS = {
  title: 1_000,
  abstract: 20_000,
  newsContent: 50_000,
  author: 300,
  authors: 500,
  keyword: 200,
  url: 2_000,
} as const;

/** Ends news text cut at LIMITS.newsContent, so readers know the rest is at the link. */
export const NEWS_TRUNCATION_MARK = '\n\n…（全文较长，已截断，完整内容请阅读原文）';
export const NEWS_TRUNCATED_NOTE = `content truncated at ${LIMITS.newsContent} characters`;

export type StoreOutcome =
  | { outcome: 'added'; id: number; matchedBy?: undefined }
  | { outcome: 'updated'; id: number; matchedBy: string; textChanged: boolean }
  | { outcome: 'unchanged'; id: number; matchedBy: string }
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'rejected'; reason: string; detail?: string };

/** Two items of one institute with one title this close in date are the same news (see storeNews). */
const SAME_NEWS_WITHIN_DAYS = 3;

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown) =>
  (error as { code?: string }).code === UNIQUE_VIOLATION ||
  (error as { cause?: { code?: string } }).cause?.code === UNIQUE_VIOLATION;

/** As many candidates as findDedupeCandidates gives one paper. */
const MAX_CANDIDATES = 20;

const dedupeDois = (paper: IncomingPaper) =>
  [paper.doi, ...paper.relatedDois].filter((value): value is string => Boolean(value));

/** The keys a paper is looked up by (findDedupeCandidates), as one set of strings. */
const probeKeys = (paper: IncomingPaper): string[] => [
  ...dedupeDois(paper).map((doi) => `doi:${doi}`),
  ...(paper.arxivId ? [`arxiv:${paper.arxivId}`] : []),
  ...(paper.urlNormalized ? [`url:${paper.urlNormalized}`] : []),
  ...(paper.titleAuthorKey ? [`key:${paper.titleAuthorKey}`] : []),
];

/** The keys that find a stored row (the conditions of findDedupeCandidates), in probeKeys' form. */
const storedKeys = (row: PaperFields): string[] => [
  ...(row.doi ? [`doi:${row.doi.toLowerCase()}`] : []),
  ...(row.sourceIds.preprintDoi ? [`doi:${row.sourceIds.preprintDoi.toLowerCase()}`] : []),
  ...(row.arxivId ? [`arxiv:${row.arxivId}`] : []),
  ...(row.urlNormalized ? [`url:${row.urlNormalized}`] : []),
  ...(row.titleAuthorKey ? [`key:${row.titleAuthorKey}`] : []),
];

function cleanUrl(value: string | undefined): string | undefined {
  const url = parseHttpUrl(value);
  return url && url.toString().length <= LIMITS.url ? url.toString() : undefined;
}

/** The repositories a ContentStore writes through (IngestRepositories has them). */
export type ContentStoreRepositories = Pick<IngestRepositories, 'ingestPapers' | 'news' | 'journals'>;

/**
 * Stores drafts: validates and normalises them, finds the same paper or news item among stored ones
 * (dedupe across sources and versions) and inserts or merges. One item at a time, without a shared
 * transaction, so a failing item never takes the others with it.
 */
export class ContentStore {
  private readonly papers: IngestPaperRepository;
  private readonly news: NewsRepository;
  private readonly journals: JournalResolver;
  private readonly institutes = new Map<string, number>();

  /** Vectors prepareVectors made for papers about to be stored, by their text (vectorKey). */
  private readonly preparedVectors = new Map<string, { vector: number[]; modelId: number }>();

  constructor(
    repositories: ContentStoreRepositories,
    private readonly options: {
      source: string;
      isDemo?: boolean | undefined;
      /** The research fields the source's entry declares: every item it stores belongs to them. */
      fields?: readonly ResearchFieldId[] | undefined;
      /**
       * The reader whose own-works import this is. Their works become papers only they may see
       * (papers.private_to), and a stored paper they match is only found, never rewritten: a reader's
       * file is no authority on a paper other readers see. Left out: a public source, whose record
       * replaces an upload of the same work and makes it public.
       */
      privateTo?: string | undefined;
      /** Vectors written in the multi-row insert of storePapers (a bulk import with an active model). */
      vectors?: NewPaperVectors | undefined;
    },
  ) {
    this.papers = repositories.ingestPapers;
    this.news = repositories.news;
    // Per store (one run): its cache of resolved journals lives as long as the run.
    this.journals = new JournalResolver(repositories.journals);
  }

  /** The title and abstract of a draft as a new row would hold them (what its vector is made from). */
  static paperText(draft: Pick<PaperDraft, 'title' | 'abstract'>): { title: string; abstract: string } {
    return {
      title: truncateText(cleanInline(draft.title), LIMITS.title),
      abstract: truncateText(cleanParagraphs(draft.abstract), LIMITS.abstract),
    };
  }

  /** The normalised form of a draft and its venue, or the reason it cannot be stored. */
  normalizePaper(
    draft: PaperDraft,
  ): { paper: IncomingPaper; venue: JournalRef | undefined } | { reason: string; detail?: string } {
    const { title, abstract } = ContentStore.paperText(draft);
    if (!title) return { reason: 'no title' };
    let doi = normalizeDoi(draft.doi);
    let arxivId = draft.arxivId;
    const arxivFromDoi = arxivIdFromDoi(doi);
    if (arxivFromDoi) {
      // An arXiv DOI names the preprint, which the arXiv id already identifies.
      arxivId ??= arxivFromDoi;
      doi = undefined;
    }
    const landing = cleanUrl(draft.url);
    const url = landing ?? (doi ? `https://doi.org/${doi}` : arxivId ? `https://arxiv.org/abs/${arxivId}` : '');
    const urlNormalized = normalizeUrl(landing);
    if (!doi && !arxivId && !urlNormalized) {
      return { reason: 'no identifier', detail: 'neither a DOI, an arXiv id nor a URL' };
    }
    // Names and identities stay in step: an identity describes the name at its index.
    const identities = draft.authorIdentities?.length === draft.authors.length ? draft.authorIdentities : undefined;
    const named = draft.authors
      .map((author, index) => ({
        name: truncateText(cleanInline(author), LIMITS.author),
        identity: identities?.[index],
      }))
      .filter((author) => author.name)
      .slice(0, LIMITS.authors);
    const authors = named.map((author) => author.name);
    const authorIdentities = identities
      ? named.map(({ name, identity }) => ({ ...identity, name }) satisfies AuthorIdentity)
      : undefined;
    const relatedDois = (draft.relatedDois ?? [])
      .map((value) => normalizeDoi(value))
      .filter((value): value is string => Boolean(value) && value !== doi);
    const venue = paperVenue(draft, doi);
    return {
      venue,
      paper: {
        title,
        authors,
        authorIdentities,
        // Paragraphs stay apart (a blank line between them); lines within one are joined.
        abstract,
        doi,
        relatedDois,
        arxivId,
        url,
        urlNormalized,
        pdfUrl: cleanUrl(draft.pdfUrl),
        publishedAt: draft.publishedAt,
        journalId: undefined,
        journalName: truncateText(cleanInline(venue?.name ?? ''), 500),
        journalIsPreprintServer: Boolean(venue?.isPreprintServer),
        jcrTier: undefined,
        keywords: [
          ...new Set(
            draft.keywords.map((keyword) => truncateText(cleanInline(keyword), LIMITS.keyword)).filter(Boolean),
          ),
        ].slice(0, 40),
        researchFields: mergeFields(this.options.fields, draft.fields),
        sourceIds: draft.sourceIds,
        titleAuthorKey: titleAuthorKey(title, authors),
        isAuthoritativeVersion: Boolean(draft.isAuthoritativeVersion),
        // arXiv entries stay preprint records when they name their journal (journal_ref, matchOnly).
        isPreprintRecord:
          Boolean(venue?.isPreprintServer || venue?.matchOnly) ||
          (doi ? isPreprintDoi(doi) : Boolean(arxivId)) ||
          isPreprintUrl(landing),
      },
    };
  }

  async storePaper(draft: PaperDraft): Promise<StoreOutcome> {
    const normalized = this.normalizePaper(draft);
    if ('reason' in normalized) return { outcome: 'rejected', reason: normalized.reason, detail: normalized.detail };
    await this.resolveJournal(normalized.paper, normalized.venue);
    return this.upsertOnce(normalized.paper, draft);
  }

  /**
   * Makes the vectors of papers before storePapers is given them (with `vectors` only): consumeEntries
   * calls it for a chunk while the chunk before is still being stored, so the embedding (this process's
   * CPU) runs while the database inserts (another core, or PGlite's thread) instead of after. The
   * vectors are those the insert would make (the same text, the same model); a paper whose vector is not
   * ready when it is inserted gets one then, and vectors no insert took (papers found stored) are dropped
   * when their chunk is stored. A failure here leaves the work to the insert.
   */
  async prepareVectors(drafts: readonly PaperDraft[]): Promise<void> {
    const vectorsOf = this.options.vectors;
    if (!vectorsOf) return;
    const texts = drafts.map((draft) => ContentStore.paperText(draft)).filter((text) => text.title !== '');
    let vectors: Awaited<ReturnType<NewPaperVectors>>;
    try {
      vectors = await vectorsOf(texts);
    } catch {
      return;
    }
    texts.forEach((text, index) => {
      const made = vectors[index];
      if (made) this.preparedVectors.set(vectorKey(text), made);
    });
  }

  /**
   * Stores many drafts with the rules of storePaper, in fewer round trips: one dedupe lookup for all
   * of them, and the papers that match nothing stored and nothing earlier in the list inserted in one
   * statement. A paper sharing a key with one written earlier in the list, or matching a stored row
   * that an earlier one changed, is stored after them through storePaper's own lookup, so the list
   * ends as it would one draft at a time. Outcomes are in the order of `drafts`; an item that fails
   * is `rejected` there with its error and never takes the others with it.
   */
  async storePapers(drafts: readonly PaperDraft[]): Promise<PromiseSettledResult<StoreOutcome>[]> {
    const results: PromiseSettledResult<StoreOutcome>[] = new Array(drafts.length);
    const settle = async (index: number, store: () => Promise<StoreOutcome>) => {
      try {
        results[index] = { status: 'fulfilled', value: await store() };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    };
    const ready: { index: number; paper: IncomingPaper; draft: PaperDraft }[] = [];
    for (const [index, draft] of drafts.entries()) {
      try {
        const normalized = this.normalizePaper(draft);
        if ('reason' in normalized) {
          results[index] = {
            status: 'fulfilled',
            value: { outcome: 'rejected', reason: normalized.reason, detail: normalized.detail },
          };
          continue;
        }
        await this.resolveJournal(normalized.paper, normalized.venue);
        ready.push({ index, paper: normalized.paper, draft });
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }

    let stored: PaperFields[];
    try {
      stored = await this.papers.findDedupeCandidatesOfMany({
        dois: [...new Set(ready.flatMap(({ paper }) => dedupeDois(paper)))],
        arxivIds: [...new Set(ready.flatMap(({ paper }) => (paper.arxivId ? [paper.arxivId] : [])))],
        urlsNormalized: [...new Set(ready.flatMap(({ paper }) => (paper.urlNormalized ? [paper.urlNormalized] : [])))],
        titleAuthorKeys: [
          ...new Set(ready.flatMap(({ paper }) => (paper.titleAuthorKey ? [paper.titleAuthorKey] : []))),
        ],
      });
    } catch {
      // The lookup itself failed: each paper is tried alone, so the failure is told item by item.
      for (const { index, paper, draft } of ready) await settle(index, () => this.upsertOnce(paper, draft));
      return results;
    }
    const byKey = new Map<string, PaperFields[]>();
    for (const row of stored) {
      for (const key of storedKeys(row)) {
        const rows = byKey.get(key);
        if (rows) rows.push(row);
        else byKey.set(key, [row]);
      }
    }

    // Keys of the papers written so far from this list, and the stored rows they changed.
    const written = new Set<string>();
    const touched = new Set<number>();
    let inserts: typeof ready = [];
    const flushInserts = async () => {
      const batch = inserts;
      inserts = [];
      if (batch.length === 0) return;
      try {
        const rows = await this.withVectors(batch.map(({ paper }) => this.newPaperRow(paper)));
        const ids = await this.papers.insertMany(rows);
        // No other row has these keys (the lookup found none), so there are no duplicates to link.
        batch.forEach(({ index }, position) => {
          results[index] = { status: 'fulfilled', value: { outcome: 'added', id: ids[position] as number } };
        });
      } catch {
        // Another run stored one of them meanwhile, or one row is refused: each is stored alone.
        for (const { index, paper, draft } of batch) await settle(index, () => this.upsertOnce(paper, draft));
      }
    };

    for (const item of ready) {
      const { index, paper, draft } = item;
      const probes = probeKeys(paper);
      const candidateById = new Map<number, PaperFields>();
      for (const key of probes) for (const row of byKey.get(key) ?? []) candidateById.set(row.id, row);
      const candidates = [...candidateById.values()].sort((a, b) => a.id - b.id).slice(0, MAX_CANDIDATES);
      const isStale = probes.some((key) => written.has(key)) || candidates.some((row) => touched.has(row.id));
      for (const key of probes) written.add(key);
      if (!isStale && candidates.length === 0 && !this.options.privateTo && !draft.updateOnly) {
        inserts.push(item);
        continue;
      }
      if (isStale) await flushInserts();
      await settle(index, () => this.upsertOnce(paper, draft, isStale ? undefined : candidates));
      const result = results[index];
      if (result?.status === 'fulfilled' && 'id' in result.value) touched.add(result.value.id);
      for (const row of candidates) touched.add(row.id);
    }
    await flushInserts();
    for (const { paper } of ready) this.preparedVectors.delete(vectorKey(paper));
    return results;
  }

  /**
   * The rows with their vectors when the store was given NewPaperVectors: those prepareVectors made, the
   * others made now (none when that fails).
   */
  private async withVectors(rows: NewPaperRow[]): Promise<NewPaperRow[]> {
    const vectorsOf = this.options.vectors;
    if (!vectorsOf) return rows;
    const texts = rows.map((row) => ({ title: row.title, abstract: row.abstract ?? '' }));
    const vectors = texts.map((text) => this.preparedVectors.get(vectorKey(text)));
    const missing = vectors.flatMap((vector, index) => (vector ? [] : [index]));
    if (missing.length > 0) {
      try {
        const made = await vectorsOf(missing.map((index) => texts[index] as (typeof texts)[number]));
        missing.forEach((index, position) => {
          vectors[index] = made[position];
        });
      } catch {
        // The rows are stored all the same; the re-embedding after the import gives them their vectors.
      }
    }
    return rows.map((row, index) => {
      const made = vectors[index];
      return made ? { ...row, embedding: made.vector, embeddingModelId: made.modelId } : row;
    });
  }

  private async resolveJournal(paper: IncomingPaper, venue: JournalRef | undefined): Promise<void> {
    const journal = await this.journals.resolve(venue);
    if (journal) {
      paper.journalId = journal.id;
      paper.jcrTier = journal.tier ?? undefined;
      // A journal_ref matched a known journal: shown under that journal's own title.
      if (venue?.matchOnly) {
        paper.journalName = journal.title;
        paper.journalIsPreprintServer = false;
      }
    }
  }

  /** upsertPaper, looked up again once when another run stored the same paper between lookup and write. */
  private async upsertOnce(paper: IncomingPaper, draft: PaperDraft, candidates?: PaperFields[]): Promise<StoreOutcome> {
    try {
      return await this.upsertPaper(paper, draft, candidates);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return this.upsertPaper(paper, draft);
    }
  }

  /** Finds the paper among stored ones (or among `prefetched`, a lookup's answer) and inserts or merges. */
  private async upsertPaper(
    paper: IncomingPaper,
    draft: PaperDraft,
    prefetched?: PaperFields[],
  ): Promise<StoreOutcome> {
    const candidates =
      prefetched ??
      (await this.papers.findDedupeCandidates({
        dois: dedupeDois(paper),
        arxivId: paper.arxivId,
        urlNormalized: paper.urlNormalized,
        titleAuthorKey: paper.titleAuthorKey,
      }));
    const uploader = this.options.privateTo;
    // Of two rows matching by the same key, a public record first, then the uploader's own upload.
    const rank = (row: PaperFields) => (row.privateTo === null ? 0 : row.privateTo === uploader ? 1 : 2);
    const match = pickMatch(
      [...candidates].sort((a, b) => rank(a) - rank(b)),
      paper,
    );
    if (!match) {
      if (draft.updateOnly) return { outcome: 'skipped', reason: 'replacement of a paper not in the database' };
      const row = this.newPaperRow(paper);
      if (uploader) {
        // Private rows take no part in linking duplicates (radar.link_paper_duplicates leaves them out).
        return { outcome: 'added', id: await this.papers.insert({ ...row, privateTo: uploader }) };
      }
      // The journal version of a stored preprint it could not merge with (other identifiers): it becomes
      // the canonical row below, and readers who marked the preprint are told it was published.
      if (
        row.titleAuthorKey &&
        !isPreprintOnly({
          journalId: paper.journalId ?? null,
          journalName: paper.journalName,
          arxivId: paper.arxivId ?? null,
          doi: paper.doi ?? null,
        }) &&
        candidates.some(
          (other) => other.privateTo === null && other.titleAuthorKey === row.titleAuthorKey && isPreprintOnly(other),
        )
      ) {
        row.journalVersionAt = new Date();
      }
      const id = await this.papers.insert(row);
      // A record of the same paper that could not be merged (other identifiers): one card for both.
      if (row.titleAuthorKey) await this.papers.linkDuplicates(row.titleAuthorKey);
      return { outcome: 'added', id };
    }
    if (uploader) {
      // Another reader's upload stays theirs: this reader's work is used for their profile text only.
      if (match.row.privateTo !== null && match.row.privateTo !== uploader) {
        return { outcome: 'skipped', reason: "matches another reader's private upload" };
      }
      return { outcome: 'unchanged', id: match.row.id, matchedBy: match.by };
    }
    if (match.row.privateTo !== null) return this.replaceUpload(match, paper, candidates);
    const patch = mergePaper(match.row, paper, candidates);
    if (Object.keys(patch).length === 0) return { outcome: 'unchanged', id: match.row.id, matchedBy: match.by };
    if (publishesPreprint(match.row, patch)) patch.journalVersionAt = new Date();
    await this.papers.update(match.row.id, patch);
    // The update may make this row the better record (a journal, a tier, an abstract) or give it a key.
    const key = patch.titleAuthorKey ?? match.row.titleAuthorKey;
    if (key) await this.papers.linkDuplicates(key);
    // A new title leaves the rows of the old key to choose their canonical row among themselves.
    if (match.row.titleAuthorKey && key !== match.row.titleAuthorKey) {
      await this.papers.linkDuplicates(match.row.titleAuthorKey);
    }
    return {
      outcome: 'updated',
      id: match.row.id,
      matchedBy: match.by,
      textChanged: patch.title !== undefined || patch.abstract !== undefined,
    };
  }

  /** A new row of this source for the paper. */
  private newPaperRow(paper: IncomingPaper): NewPaperRow {
    // A journal record naming its preprint keeps the preprint's DOI, so the preprint, arriving later,
    // finds this row (and the card links to it).
    const preprintDoi = paper.doi && !isPreprintDoi(paper.doi) ? preprintDoiOf(paper, paper.doi) : undefined;
    return {
      title: paper.title,
      authors: paper.authors,
      authorIdentities: paper.authorIdentities ?? null,
      abstract: paper.abstract,
      journalId: paper.journalId ?? null,
      journalName: paper.journalName,
      jcrTier: paper.jcrTier ?? null,
      doi: paper.doi ?? null,
      arxivId: paper.arxivId ?? null,
      url: paper.url,
      urlNormalized: paper.urlNormalized ?? null,
      pdfUrl: paper.pdfUrl ?? null,
      publishedAt: paper.publishedAt ?? null,
      keywords: paper.keywords,
      researchFields: paper.researchFields,
      titleAuthorKey: paper.titleAuthorKey ?? null,
      sourceIds: preprintDoi ? { ...paper.sourceIds, preprintDoi } : paper.sourceIds,
      source: this.options.source,
      isDemo: this.options.isDemo ?? false,
    };
  }

  /**
   * A public source brings a work a reader uploaded: the public record is shown from now on. Every field
   * of the upload (title, abstract, authors, links, identifiers, keywords) is replaced, not merged, so
   * nothing the uploader wrote reaches other readers; the row keeps its id, so the uploader's own-work
   * mark stays on it. An identifier another row holds is left out (unique keys). The row then links
   * with public records of the same paper like any new one.
   */
  private async replaceUpload(
    match: PaperMatch,
    paper: IncomingPaper,
    candidates: PaperFields[],
  ): Promise<StoreOutcome> {
    const row = this.newPaperRow(paper);
    const heldByOther = (held: (other: PaperFields) => boolean) =>
      candidates.some((other) => other.id !== match.row.id && held(other));
    if (row.doi && heldByOther((other) => other.doi?.toLowerCase() === row.doi)) row.doi = null;
    if (row.arxivId && heldByOther((other) => other.arxivId === row.arxivId)) row.arxivId = null;
    await this.papers.update(match.row.id, {
      ...row,
      privateTo: null,
      journalVersionAt: null,
      // Made from the upload's text.
      embedding: null,
      embeddingModelId: null,
      llmSummary: null,
      llmSummaryModel: null,
    });
    if (row.titleAuthorKey) await this.papers.linkDuplicates(row.titleAuthorKey);
    return { outcome: 'updated', id: match.row.id, matchedBy: match.by, textChanged: true };
  }

  async storeNews(draft: NewsDraft, isRetry = false): Promise<StoreOutcome> {
    const title = truncateText(cleanInline(draft.title), LIMITS.title);
    if (!title) return { outcome: 'rejected', reason: 'no title' };
    const url = cleanUrl(draft.url);
    const urlNormalized = normalizeUrl(url);
    if (!url || !urlNormalized) return { outcome: 'rejected', reason: 'no URL', detail: draft.url || undefined };
    const institute = truncateText(cleanInline(draft.institute), 200);
    if (!institute) return { outcome: 'rejected', reason: 'no institute' };
    const fullContent = cleanBlock(draft.content);
    const content = truncateText(fullContent, LIMITS.newsContent, NEWS_TRUNCATION_MARK);
    // Recorded with the item (ingest_rejects and the run summary), and visible in the text itself.
    if (content !== fullContent && !draft.notes.includes(NEWS_TRUNCATED_NOTE)) draft.notes.push(NEWS_TRUNCATED_NOTE);

    const researchFields = mergeFields(this.options.fields, draft.fields);
    const existing = await this.news.findByUrlNormalized(urlNormalized);
    if (existing) {
      const set: {
        title?: string;
        content?: string;
        publishDate?: Date;
        researchFields?: string[];
        embedding?: null;
        embeddingModelId?: null;
      } = {};
      const fields = mergeFields(existing.researchFields, researchFields);
      if (fields.length > existing.researchFields.length) set.researchFields = fields;
      if (title !== existing.title) set.title = title;
      if (content && content !== existing.content) set.content = content;
      if (!existing.publishDate && draft.publishDate) set.publishDate = draft.publishDate;
      if (Object.keys(set).length === 0) return { outcome: 'unchanged', id: existing.id, matchedBy: 'url' };
      const textChanged = set.title !== undefined || set.content !== undefined;
      if (textChanged) {
        set.embedding = null;
        set.embeddingModelId = null;
      }
      await this.news.update(existing.id, set);
      return { outcome: 'updated', id: existing.id, matchedBy: 'url', textChanged };
    }

    let instituteId = this.institutes.get(institute);
    if (instituteId === undefined) {
      instituteId = await this.news.ensureInstitute(institute, cleanUrl(draft.instituteHomepage));
      this.institutes.set(institute, instituteId);
    }
    // The same news posted under two URLs of one institute (a list page and the article, a mirror):
    // one item, under the first URL and text seen.
    const sameTitle = await this.news.findSameTitle(
      instituteId,
      title,
      draft.publishDate ?? new Date(),
      SAME_NEWS_WITHIN_DAYS,
    );
    if (sameTitle) return { outcome: 'unchanged', id: sameTitle.id, matchedBy: 'title' };
    const id = await this.news.insert({
      title,
      content,
      url,
      urlNormalized,
      instituteId,
      publishDate: draft.publishDate ?? null,
      researchFields,
      source: this.options.source,
      isDemo: this.options.isDemo ?? false,
    });
    if (id === undefined) {
      // Stored concurrently by another run: merge into that row instead.
      if (isRetry) throw new Error(`news item ${urlNormalized} neither inserted nor found`);
      return this.storeNews(draft, true);
    }
    return { outcome: 'added', id };
  }
}

/** A paper's text as the embedding reads it (title and abstract), as one key. */
const vectorKey = (text: { title: string; abstract?: string | null | undefined }) =>
  `${text.title}\u0000${text.abstract ?? ''}`;
