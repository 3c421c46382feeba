import type { SourceConfigOf } from '../pipeline/sources-config';
import { crossrefAuthorIdentity, namesAndIdentities } from '../text/author-identities';
import { dateFromParts, toDateString } from '../text/dates';
import { arxivIdFromDoi, collectIssns, normalizeDoi } from '../text/identifiers';
import { abstractText, inlineText, toPlainText } from '../text/text';
import { type IngestEntry, type PaperDraft, PermanentSourceError } from '../types';
import { type FileReadOptions, fetchCursorPages, type SourceRun, type SourceRunContext } from './context';
import { asArray, asString, isRecord, readJsonRecords } from './json-reader';
import { windowStart } from './openalex';

/**
 * Crossref works by journal ISSN (/journals/{issn}/works), paged with cursors. Crossref dates are
 * "date-parts" that may stop at the year or month; abstracts are JATS XML; titles may carry HTML.
 * A contact address (CROSSREF_MAILTO) puts requests in Crossref's polite pool. `requireAbstract` adds
 * Crossref's has-abstract:true filter.
 */

const POLITENESS = { key: 'crossref', minIntervalMs: 100 };

/** Registration types that are not papers (issues, volumes, figures, reviews ...). */
const NOT_PAPERS = new Set([
  'journal-issue',
  'journal-volume',
  'journal',
  'component',
  'peer-review',
  'grant',
  'dataset',
  'book-set',
  'book-series',
  'book-track',
  'proceedings',
  'proceedings-series',
  'report-series',
  'standard-series',
]);

function crossrefDate(work: Record<string, unknown>): {
  date: string | undefined;
  partial: boolean;
  fromCreated: boolean;
} {
  for (const field of ['published', 'published-online', 'published-print', 'issued']) {
    const value = work[field];
    if (!isRecord(value)) continue;
    const date = dateFromParts(value['date-parts']);
    if (date) {
      const parts = asArray(asArray(value['date-parts'])[0]);
      return { date, partial: parts.length < 3, fromCreated: false };
    }
  }
  const created = isRecord(work.created) ? dateFromParts(work.created['date-parts']) : undefined;
  return { date: created, partial: false, fromCreated: Boolean(created) };
}

/** JATS abstract to text (paragraphs kept), without the heading "Abstract" that many deposits start with. */
function jatsToText(jats: string | undefined): string {
  if (!jats) return '';
  return abstractText(jats, { html: true }).replace(/^abstract\s*\n+/i, '');
}

export function mapCrossrefWork(work: unknown, index = 0): IngestEntry {
  if (!isRecord(work)) return { type: 'reject', key: `record ${index + 1}`, reason: 'not a work object' };
  const rawDoi = normalizeDoi(asString(work.DOI));
  const key = rawDoi ?? `record ${index + 1}`;
  if (!rawDoi) return { type: 'reject', key, reason: 'no DOI' };
  const type = asString(work.type) ?? '';
  if (NOT_PAPERS.has(type)) return { type: 'skip', key, reason: `not a paper (${type})` };

  const title = [asArray(work.title)[0], asArray(work.subtitle)[0]]
    .map((part) => toPlainText(asString(part), { inline: true }))
    .filter(Boolean)
    .join(': ');
  const { authors, authorIdentities } = namesAndIdentities(
    asArray(work.author).filter(isRecord).map(crossrefAuthorIdentity),
  );
  const abstract = jatsToText(asString(work.abstract));
  const { date, partial, fromCreated } = crossrefDate(work);
  const notes: string[] = [];
  if (!abstract) notes.push('no abstract');
  if (!date) notes.push('no date');
  else if (partial) notes.push('partial date: missing month or day taken as the first');
  else if (fromCreated) notes.push('no publication date: DOI registration date used');

  // Preprint links: a journal article names its preprint (has-preprint), a preprint its article.
  const relation = isRecord(work.relation) ? work.relation : {};
  const relatedDois = ['has-preprint', 'is-preprint-of']
    .flatMap((name) => asArray(relation[name]))
    .filter(isRecord)
    .filter((related) => asString(related['id-type'])?.toLowerCase() === 'doi')
    .map((related) => normalizeDoi(asString(related.id)))
    .filter((value): value is string => Boolean(value));
  const arxivId = [rawDoi, ...relatedDois].map(arxivIdFromDoi).find(Boolean);
  const doi = arxivIdFromDoi(rawDoi) ? undefined : rawDoi;

  const isPreprint = type === 'posted-content';
  const containerTitle = toPlainText(asString(asArray(work['container-title'])[0]), { inline: true });
  const institution = asArray(work.institution).filter(isRecord)[0];
  const journalName = containerTitle || (isPreprint ? inlineText(asString(institution?.name)) : '');
  const issns = collectIssns([
    ...asArray(work.ISSN).map(asString),
    ...asArray(work['issn-type'])
      .filter(isRecord)
      .map((entry) => asString(entry.value)),
  ]);
  const resource = isRecord(work.resource) && isRecord(work.resource.primary) ? work.resource.primary : {};
  const pdf = asArray(work.link)
    .filter(isRecord)
    .find((link) => /application\/pdf/i.test(asString(link['content-type']) ?? ''));

  const draft: PaperDraft = {
    key,
    title,
    authors,
    authorIdentities,
    abstract,
    doi,
    arxivId,
    url: asString(resource.URL) ?? asString(work.URL) ?? `https://doi.org/${rawDoi}`,
    pdfUrl: asString(pdf?.URL),
    publishedAt: date,
    journal: journalName
      ? { name: journalName, issns, publisher: inlineText(asString(work.publisher)), isPreprintServer: isPreprint }
      : undefined,
    keywords: asArray(work.subject)
      .map((subject) => inlineText(asString(subject)))
      .filter(Boolean),
    sourceIds: { crossref: rawDoi },
    relatedDois,
    notes,
  };
  return { type: 'paper', draft };
}

/** A Crossref answer: a work list ({ message: { items } }), one work ({ message }), an array, or JSON Lines. */
function crossrefRecords(document: unknown): unknown[] | undefined {
  if (Array.isArray(document)) return document;
  if (!isRecord(document)) return undefined;
  const message = document.message;
  if (isRecord(message) && Array.isArray(message.items)) return message.items;
  if (isRecord(message) && typeof message.DOI === 'string') return [message];
  if (typeof document.DOI === 'string') return [document];
  return undefined;
}

export function readCrossref(bytes: AsyncIterable<Uint8Array>, options: FileReadOptions & { httpCharset?: string }) {
  return readJsonRecords(bytes, {
    maxItems: options.maxItems,
    httpCharset: options.httpCharset,
    records: crossrefRecords,
    map: mapCrossrefWork,
  });
}

const hyphenated = (issn: string) => `${issn.slice(0, 4)}-${issn.slice(4)}`;

export async function* fetchCrossref(source: SourceConfigOf<'crossref'>, ctx: SourceRunContext): SourceRun {
  const from = windowStart(source, ctx);
  const run = { stored: 0, total: 0 };
  const failures: string[] = [];
  for (const issn of source.issns) {
    try {
      yield* fetchCursorPages(ctx, run, {
        address: `${source.baseUrl.replace(/\/+$/, '')}/journals/${hyphenated(issn)}/works`,
        params: (cursor, rows) => ({
          filter: `from-pub-date:${from}${source.requireAbstract ? ',has-abstract:true' : ''}`,
          sort: 'published',
          order: 'desc',
          rows: String(rows),
          cursor,
          mailto: ctx.settings.crossrefMailto,
        }),
        pageSize: source.rows,
        politeness: POLITENESS,
        label: 'a Crossref',
        read: readCrossref,
        counts: (entry) => entry.type === 'paper' || entry.type === 'skip',
        pageInfo: (document) => {
          const message = isRecord(document) && isRecord(document.message) ? document.message : {};
          return { total: message['total-results'], nextCursor: asString(message['next-cursor']) };
        },
      });
    } catch (error) {
      // One wrong ISSN (404) must not hide the others; it is reported, and fails the run only alone.
      if (!(error instanceof PermanentSourceError) || source.issns.length === 1) throw error;
      failures.push(`${hyphenated(issn)}: ${error.message}`);
      yield { type: 'warning', key: hyphenated(issn), reason: 'ISSN failed', detail: error.message };
    }
  }
  if (failures.length === source.issns.length) throw new PermanentSourceError(failures.join('; '));
  return { lastSuccessDate: toDateString(ctx.now), from };
}
