import type { SourceConfigOf } from '../pipeline/sources-config';
import { splitAuthorList } from '../text/authors';
import { parseDateString, toDateString } from '../text/dates';
import { normalizeDoi } from '../text/identifiers';
import { abstractText, toPlainText } from '../text/text';
import { type IngestEntry, type PaperDraft, PermanentSourceError, TransientSourceError } from '../types';
import type { FileReadOptions, SourceRun, SourceRunContext } from './context';
import { asChunks } from './http';
import { asArray, asString, isRecord, readJsonRecords } from './json-reader';
import { windowStart } from './openalex';

/**
 * bioRxiv and medRxiv through the public details API of api.biorxiv.org:
 * /details/{server}/{from}/{to}/{cursor}/json[?category=...], one record per posted version. Pages
 * hold 30 or 100 records (the documentation says 100, the servers answer 30): the cursor is a record
 * offset, advanced by the records each page returned until `total` is reached. Errors come as
 * `messages[0].status` other than "ok" inside an HTTP 200; "no posts found" is an empty window.
 */

const POLITENESS = { key: 'biorxiv', minIntervalMs: 1_000 };
/** Guard against a server that keeps answering full pages past its total. */
const MAX_PAGES = 2_000;

const SERVER_NAMES = { biorxiv: 'bioRxiv', medrxiv: 'medRxiv' } as const;
type Server = keyof typeof SERVER_NAMES;

/** "Cell_Biology", "cell biology" -> "cell biology": categories compare this way. */
const categoryKey = (value: string) => value.replace(/_/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The abstract as plain text. bioRxiv flattens its typesetting into the text: small capitals
 * (A O_SCPCAP BSTRACT C_SCPCAP), list items (O_LI ... C_LI), figures and tables (O_FIG ... C_FIG):
 * the markers go (list items stay apart by a space), figure and table blocks are dropped.
 */
export function biorxivAbstract(value: string | undefined): string {
  if (!value) return '';
  const text = value
    .replace(/O_FIG[\s\S]*?C_FIG/g, ' ')
    .replace(/O_TBL[\s\S]*?C_TBL/g, ' ')
    .replace(/[OC]_SCPCAP/g, '')
    .replace(/(?:\s*(?:C_LIO_LI|O_LI|C_LI|O_LIO_LI)\s*)+/g, ' ')
    .replace(/\b[OC]_(?:FLOATNO|LINKSMALLFIG|LIO|ST|TEXTBOX)\b/g, ' ');
  return abstractText(text, { html: true });
}

export interface BiorxivRecordOptions {
  /** The server the request went to, when the record does not say. */
  server?: Server | undefined;
}

function mapBiorxivRecord(record: unknown, index = 0, options: BiorxivRecordOptions = {}): IngestEntry {
  if (!isRecord(record)) return { type: 'reject', key: `record ${index + 1}`, reason: 'not a preprint object' };
  const doi = normalizeDoi(asString(record.doi));
  const key = doi ?? `record ${index + 1}`;
  if (!doi) return { type: 'reject', key, reason: 'no DOI' };
  const title = toPlainText(asString(record.title), { inline: true });
  if (/^withdrawn\b/i.test(title)) return { type: 'skip', key, reason: 'withdrawn preprint' };

  const named = (asString(record.server) ?? '').toLowerCase();
  const server: Server = named === 'medrxiv' || named === 'biorxiv' ? named : (options.server ?? 'biorxiv');
  const version = /^\d{1,3}$/.test(asString(record.version)?.trim() ?? '') ? String(Number(record.version)) : undefined;
  const abstract = biorxivAbstract(asString(record.abstract));
  const publishedAt = parseDateString(asString(record.date));
  const category = toPlainText(asString(record.category), { inline: true });
  // "NA" until the journal version is known; then that version's DOI, for the preprint-to-journal link.
  const journalDoi = normalizeDoi(asString(record.published));
  const site = `https://www.${server}.org/content/${doi}`;
  const notes: string[] = [];
  if (!abstract) notes.push('no abstract');
  if (!publishedAt) notes.push('no date');

  const draft: PaperDraft = {
    key,
    title,
    authors: splitAuthorList(asString(record.authors) ?? ''),
    abstract,
    doi,
    url: site,
    pdfUrl: version ? `${site}v${version}.full.pdf` : undefined,
    publishedAt,
    // A preprint of the server: shown as the venue, never a journal row or tier.
    journal: { name: SERVER_NAMES[server], issns: [], isPreprintServer: true },
    keywords: category ? [category] : [],
    sourceIds: { [server]: doi, ...(version ? { preprintVersion: version } : {}) },
    relatedDois: journalDoi && journalDoi !== doi ? [journalDoi] : [],
    // The server owns the text: a newer version replaces title, abstract and authors.
    isAuthoritativeVersion: true,
    notes,
  };
  return { type: 'paper', draft };
}

/** A details answer ({ messages, collection }), or an array of records (a saved collection). */
function biorxivRecords(document: unknown): unknown[] | undefined {
  if (Array.isArray(document)) return document;
  if (isRecord(document) && Array.isArray(document.collection)) return document.collection;
  return undefined;
}

export function readBiorxiv(
  bytes: AsyncIterable<Uint8Array>,
  options: FileReadOptions & { httpCharset?: string; server?: Server },
) {
  return readJsonRecords(bytes, {
    maxItems: options.maxItems,
    httpCharset: options.httpCharset,
    records: biorxivRecords,
    map: (record, index) => mapBiorxivRecord(record, index, { server: options.server }),
  });
}

/** messages[0] of an answer: its status, and the total when it says (a number or a numeric string). */
function pageStatus(document: unknown): { status: string; total: number | undefined } {
  const message = isRecord(document) ? asArray(document.messages).find(isRecord) : undefined;
  const status = asString(message?.status)?.trim() ?? '';
  const total = Number(asString(message?.total));
  return { status, total: Number.isFinite(total) && total >= 0 ? total : undefined };
}

/** The version number of a paper entry (0 when it has none). */
const versionOf = (entry: IngestEntry) =>
  entry.type === 'paper' ? Number(entry.draft.sourceIds.preprintVersion ?? 0) : 0;

export async function* fetchBiorxiv(source: SourceConfigOf<'biorxiv'>, ctx: SourceRunContext): SourceRun {
  const from = windowStart(source, ctx);
  const to = toDateString(ctx.now);
  const label = SERVER_NAMES[source.server];
  const wanted = new Set(source.categories.map(categoryKey));
  // The highest version yielded per DOI in this run: one paper per DOI, its newest text.
  const versions = new Map<string, number>();
  let stored = 0;
  let total = 0;
  // One walk per category (the API filters by one), or one over the whole server.
  for (const category of source.categories.length ? source.categories : [undefined]) {
    let cursor = 0;
    for (let page = 0; stored < ctx.maxItems; page++) {
      if (page >= MAX_PAGES) throw new TransientSourceError(`${label} API: more than ${MAX_PAGES} pages, stopped`);
      const url = new URL(
        `${source.baseUrl.replace(/\/+$/, '')}/details/${source.server}/${from}/${to}/${cursor}/json`,
      );
      if (category) url.searchParams.set('category', categoryKey(category).replace(/ /g, '_'));
      const where = `${label} API (${category ? `${category}, ` : ''}records from ${cursor})`;
      const body = await ctx.http.get(url.toString(), {
        politeness: POLITENESS,
        maxBytes: ctx.maxBytes,
        signal: ctx.signal,
      });
      if (body.truncated) throw new PermanentSourceError(`${where}: page larger than ${ctx.maxBytes} bytes (maxBytes)`);
      if (body.bytes.length === 0 || !new TextDecoder().decode(body.bytes.subarray(0, 4096)).trim()) {
        // The API is known to answer an empty 200 at times: not "no preprints", a fault worth retrying.
        throw new TransientSourceError(`${where}: empty answer`);
      }
      const reader = readBiorxiv(asChunks(body.bytes), {
        maxItems: Number.MAX_SAFE_INTEGER,
        httpCharset: body.charset,
        server: source.server,
      });
      const entries: IngestEntry[] = [];
      let document: unknown;
      try {
        let next = await reader.next();
        while (!next.done) {
          entries.push(next.value);
          next = await reader.next();
        }
        document = next.value.document;
      } catch (error) {
        if (error instanceof PermanentSourceError) throw new PermanentSourceError(`${where}: ${error.message}`);
        throw error;
      }
      const { status, total: pageTotal } = pageStatus(document);
      if (/^no posts found/i.test(status)) break;
      if (status.toLowerCase() !== 'ok') {
        throw new PermanentSourceError(`${where}: the API answered status "${status || 'none'}"`);
      }
      if (page === 0 && pageTotal !== undefined) {
        total += pageTotal;
        ctx.reportTotal(Math.min(total, ctx.maxItems));
      }
      const records = entries.filter((entry) => entry.type !== 'warning').length;
      for (const entry of entries) {
        if (entry.type !== 'paper') {
          yield entry;
          continue;
        }
        const { draft } = entry;
        const categoryName = draft.keywords[0] ?? '';
        if (wanted.size && !wanted.has(categoryKey(categoryName))) {
          yield { type: 'skip', key: draft.key, reason: 'outside the configured categories' };
          continue;
        }
        const seen = versions.get(draft.key);
        if (seen !== undefined && versionOf(entry) <= seen) {
          const reason =
            versionOf(entry) < seen ? 'older version of a preprint in this run' : 'already read in this run';
          yield { type: 'skip', key: draft.key, reason };
          continue;
        }
        if (seen === undefined && stored >= ctx.maxItems) {
          yield {
            type: 'warning',
            reason: 'item limit reached',
            detail: `stopped after ${stored} preprints (maxItems)`,
          };
          break;
        }
        if (seen === undefined) stored++;
        versions.set(draft.key, versionOf(entry));
        yield entry;
      }
      cursor += records;
      if (records === 0 || (pageTotal !== undefined && cursor >= pageTotal)) break;
    }
  }
  return { lastSuccessDate: to, from };
}
