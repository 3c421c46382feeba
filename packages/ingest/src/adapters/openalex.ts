import type { SourceConfigOf } from '../pipeline/sources-config';
import { namesAndIdentities, openAlexAuthorIdentity } from '../text/author-identities';
import { daysBefore, parseDateString, toDateString } from '../text/dates';
import { arxivIdFromDoi, collectIssns, doiFromPreprintUrl, extractArxivId, normalizeDoi } from '../text/identifiers';
import { openAlexTopicFields } from '../text/research-field-evidence';
import { inlineText, toPlainText } from '../text/text';
import type { IngestEntry, PaperDraft } from '../types';
import { type FileReadOptions, fetchCursorPages, type SourceRun, type SourceRunContext } from './context';
import { asArray, asString, isRecord, readJsonRecords } from './json-reader';

/**
 * OpenAlex works: filtered by journal ISSN, topic or concept and publication date, paged with cursors.
 * OpenAlex gives abstracts only as an inverted index (word -> positions), rebuilt here; ISSNs come from
 * the work's primary source. An API key is required since February 2026 (OPENALEX_API_KEY).
 */

const POLITENESS = { key: 'openalex', minIntervalMs: 100 };
/** OpenAlex caps the values OR-ed in one filter. */
const MAX_OR_VALUES = 50;

/** The abstract from OpenAlex's `abstract_inverted_index`; '' when absent. */
export function rebuildAbstract(index: unknown): string {
  if (!isRecord(index)) return '';
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index)) {
    for (const position of asArray(positions)) {
      if (typeof position === 'number' && Number.isInteger(position) && position >= 0 && position < 100_000) {
        words[position] = word;
      }
    }
  }
  // The index is built from the abstract as deposited, entities included ("&amp;").
  return inlineText(words.filter((word) => word !== undefined).join(' '));
}

const shortId = (id: string | undefined) => id?.replace(/^https?:\/\/openalex\.org\//i, '');

export function mapOpenAlexWork(work: unknown, index = 0): IngestEntry {
  if (!isRecord(work)) return { type: 'reject', key: `record ${index + 1}`, reason: 'not a work object' };
  const id = shortId(asString(work.id));
  let doi = normalizeDoi(asString(work.doi));
  const key = doi ?? id ?? `record ${index + 1}`;
  if (work.is_retracted === true) return { type: 'skip', key, reason: 'retracted' };
  if (work.is_paratext === true) return { type: 'skip', key, reason: 'front matter or index (paratext)' };

  const title = toPlainText(asString(work.title) ?? asString(work.display_name), { inline: true });
  const primary = isRecord(work.primary_location) ? work.primary_location : {};
  const source = isRecord(primary.source) ? primary.source : undefined;
  const locations = asArray(work.locations).filter(isRecord);

  // The same work as an arXiv preprint: from an arXiv DOI or an arXiv landing page among its locations.
  const ids = isRecord(work.ids) ? work.ids : {};
  let arxivId = arxivIdFromDoi(doi);
  if (arxivId) doi = undefined;
  arxivId ??= [asString(ids.arxiv), ...locations.map((location) => asString(location.landing_page_url))]
    .map((value) => extractArxivId(value)?.id)
    .find(Boolean);
  // Other versions among the locations (a bioRxiv preprint of a journal article): by their DOI links or
  // bioRxiv/medRxiv page addresses. `indexed_in` (e.g. "arxiv") names no id, so it is not read.
  const relatedDois = [
    ...new Set(
      locations.flatMap((location) => {
        const landing = asString(location.landing_page_url);
        return [normalizeDoi(landing), doiFromPreprintUrl(landing)];
      }),
    ),
  ].filter((value): value is string => Boolean(value) && value !== doi);

  const { authors, authorIdentities } = namesAndIdentities(
    asArray(work.authorships).filter(isRecord).map(openAlexAuthorIdentity),
  );

  const abstract = rebuildAbstract(work.abstract_inverted_index);
  const notes: string[] = [];
  let publishedAt = parseDateString(asString(work.publication_date));
  if (!publishedAt && typeof work.publication_year === 'number') {
    publishedAt = `${work.publication_year}-01-01`;
    notes.push('year only: dated January 1');
  }
  if (!publishedAt) notes.push('no date');
  if (!abstract) notes.push('no abstract');

  const sourceType = asString(source?.type);
  const journal = source
    ? {
        name: inlineText(asString(source.display_name)),
        issns: collectIssns([...asArray(source.issn).map(asString), asString(source.issn_l)]),
        publisher: inlineText(asString(source.host_organization_name)) || undefined,
        isPreprintServer: sourceType === 'repository' || work.type === 'preprint',
      }
    : undefined;
  const bestOa = isRecord(work.best_oa_location) ? work.best_oa_location : {};
  const openAccess = isRecord(work.open_access) ? work.open_access : {};
  const landingUrl = asString(primary.landing_page_url);
  // A PDF link from a location first; else the open-access copy OpenAlex points to (often a PDF).
  const oaUrl = asString(openAccess.oa_url);
  const pdfUrl =
    asString(primary.pdf_url) ??
    asString(bestOa.pdf_url) ??
    locations.map((location) => asString(location.pdf_url)).find(Boolean) ??
    (oaUrl && oaUrl !== landingUrl && !(doi && normalizeDoi(oaUrl) === doi) ? oaUrl : undefined);
  const keywords = [
    ...asArray(work.keywords).map((keyword) => (isRecord(keyword) ? asString(keyword.display_name) : undefined)),
    isRecord(work.primary_topic) ? asString(work.primary_topic.display_name) : undefined,
  ]
    .map(inlineText)
    .filter(Boolean);

  const draft: PaperDraft = {
    key,
    title,
    authors,
    authorIdentities,
    abstract,
    doi,
    arxivId,
    url: landingUrl ?? (doi ? `https://doi.org/${doi}` : asString(work.id)),
    pdfUrl,
    publishedAt,
    journal: journal?.name ? journal : undefined,
    keywords,
    fields: openAlexTopicFields(work.primary_topic),
    sourceIds: id ? { openalex: id } : {},
    relatedDois,
    notes,
  };
  return { type: 'paper', draft };
}

/** An OpenAlex page ({ results }), an array of works, one work, or JSON Lines. */
function openAlexRecords(document: unknown): unknown[] | undefined {
  if (Array.isArray(document)) return document;
  if (isRecord(document) && Array.isArray(document.results)) return document.results;
  if (isRecord(document) && typeof document.id === 'string' && /openalex\.org\/W|^W\d+/.test(document.id)) {
    return [document];
  }
  return undefined;
}

export function readOpenAlex(bytes: AsyncIterable<Uint8Array>, options: FileReadOptions & { httpCharset?: string }) {
  return readJsonRecords(bytes, {
    maxItems: options.maxItems,
    httpCharset: options.httpCharset,
    records: openAlexRecords,
    map: mapOpenAlexWork,
  });
}

function chunked<T>(values: T[], size: number): T[][] {
  if (values.length === 0) return [[]];
  const chunks: T[][] = [];
  for (let start = 0; start < values.length; start += size) chunks.push(values.slice(start, start + size));
  return chunks;
}

const hyphenated = (issn: string) => `${issn.slice(0, 4)}-${issn.slice(4)}`;

/** First day to ask for: --since, else the last successful run minus the look-back (indexing lags). */
export function windowStart(source: { lookbackDays: number }, ctx: SourceRunContext): string {
  if (ctx.since) return ctx.since;
  const last =
    typeof ctx.cursor.lastSuccessDate === 'string' ? new Date(`${ctx.cursor.lastSuccessDate}T00:00:00Z`) : undefined;
  const anchor = last && last < ctx.now ? last : ctx.now;
  return toDateString(daysBefore(anchor, source.lookbackDays));
}

export async function* fetchOpenAlex(source: SourceConfigOf<'openalex'>, ctx: SourceRunContext): SourceRun {
  const from = windowStart(source, ctx);
  const run = { stored: 0, total: 0 };
  // Long ISSN lists are split into several queries (OpenAlex caps OR-ed values).
  for (const issns of chunked(source.issns, MAX_OR_VALUES)) {
    const filters = [`from_publication_date:${from}`];
    if (issns.length) filters.push(`primary_location.source.issn:${issns.map(hyphenated).join('|')}`);
    if (source.topics.length) filters.push(`topics.id:${source.topics.map(shortId).join('|')}`);
    if (source.concepts.length) filters.push(`concepts.id:${source.concepts.map(shortId).join('|')}`);
    if (source.filter?.trim()) filters.push(source.filter.trim());

    yield* fetchCursorPages(ctx, run, {
      address: `${source.baseUrl.replace(/\/+$/, '')}/works`,
      params: (cursor, rows) => ({
        filter: filters.join(','),
        search: source.search?.trim(),
        sort: source.sort,
        'per-page': String(rows),
        cursor,
        api_key: ctx.settings.openAlexApiKey,
      }),
      pageSize: source.perPage,
      politeness: POLITENESS,
      label: 'an OpenAlex',
      read: readOpenAlex,
      counts: (entry) => entry.type === 'paper',
      pageInfo: (document) => {
        const meta = isRecord(document) && isRecord(document.meta) ? document.meta : {};
        return { total: meta.count, nextCursor: asString(meta.next_cursor) };
      },
    });
  }
  return { lastSuccessDate: toDateString(ctx.now), from };
}
