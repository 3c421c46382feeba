import type { SourceConfigOf } from '../pipeline/sources-config';
import { daysBefore, parseDateString, parseDateTime, toDateString } from '../text/dates';
import { extractArxivId, normalizeDoi } from '../text/identifiers';
import { arxivFields } from '../text/research-field-evidence';
import { cleanInline, cleanParagraphs } from '../text/text';
import { type IngestEntry, type JournalRef, type PaperDraft, PermanentSourceError } from '../types';
import type { FileReadOptions, SourceRun, SourceRunContext } from './context';
import { readFeedItem } from './feed-item';
import { readFeedEntries } from './feed-reader';
import { asChunks } from './http';
import { childrenNamed, childText, firstChild, type XmlNode } from './xml-feed';

/**
 * arXiv: the query API (Atom) and the announcement RSS feeds. Both formats in use since November 2025
 * parse: the API's links lost their rel/title attributes then, so the PDF link is found by type, then
 * title, then "/pdf/" in the URL. Requests honour arXiv's rule (one every 3 s, one connection at a time)
 * through the politeness key "arxiv" and the cross-process lease.
 */

export const ARXIV_POLITENESS_KEY = 'arxiv';
/** arXiv announces papers up to a few days after submission (weekends, holidays): look back that far. */
const ANNOUNCEMENT_LAG_DAYS = 4;
const arxivVenue = (): JournalRef => ({ name: 'arXiv', issns: [], isPreprintServer: true });

function pdfLink(links: XmlNode[]): string | undefined {
  const href = (link: XmlNode | undefined) => link?.attrs.href?.trim() || undefined;
  return (
    href(links.find((link) => /application\/pdf/i.test(link.attrs.type ?? ''))) ??
    href(links.find((link) => (link.attrs.title ?? '').toLowerCase() === 'pdf')) ??
    href(links.find((link) => /\/pdf\//.test(link.attrs.href ?? '')))
  );
}

/**
 * arXiv abstracts are wrapped at ~80 columns; a line that starts indented begins a new paragraph
 * (arXiv's own convention), as does a blank line.
 */
export function arxivAbstract(text: string): string {
  return cleanParagraphs(text.trim().replace(/\n[^\S\n]+(?=\S)/g, '\n\n'));
}

const REF_PREFIX =
  /^(?:(?:published|accepted|to appear|appeared|appears|forthcoming)(?:\s+for publication)?\s+(?:in|at|by)\s+|in:\s*)/i;
const TRAILING_STOPWORD = /\b(?:of|the|in|on|for|and|at|to|a|an)$/; // lower-case: "Phys. Rev. A" is a name

/**
 * The journal an arXiv journal_ref names, as a hint: "Phys. Rev. D 103, 096005 (2021)",
 * "Information Retrieval Journal 28 (2025) 7", or a whole citation ("Li, Y., ... (2017). Title.
 * Physical Review Accelerators and Beams, 20(10), 101301"). The name before the volume is shown as
 * the venue when it reads like one; it and the citation's parts are matched against known journals
 * (so a tiered journal gives its tier), and no journal row is made from such free text.
 */
export function journalFromRef(journalRef: string): JournalRef | undefined {
  const ref = cleanInline(journalRef).replace(REF_PREFIX, '');
  if (!ref) return undefined;
  // The name ends before the first token with a digit, or a comma or parenthesis.
  const lead = (/^[^,(;:]*?(?=\s*(?:[,(;:]|\S*\d|$))/.exec(ref)?.[0] ?? '').replace(/[\s.-]+$/, (tail) =>
    tail.includes('.') ? '.' : '',
  );
  const letters = lead.replace(/[^\p{L}]/gu, '').length;
  const isName = letters >= 3 && lead.length <= 120 && !TRAILING_STOPWORD.test(lead);
  const parts = ref
    .split(/[.,;:()]\s+|\s+[-–]\s+/)
    .map((part) => part.trim().replace(/[.,;:]+$/, ''))
    .filter((part) => /\p{L}/u.test(part) && !/\d/.test(part) && part.includes(' ') && part.length <= 200);
  const alternativeNames = [...new Set([lead, ...parts].filter(Boolean))];
  if (!isName && parts.length === 0) return undefined;
  return {
    name: isName ? lead : 'arXiv',
    issns: [],
    isPreprintServer: !isName,
    matchOnly: true,
    alternativeNames,
  };
}

/** One entry of an arXiv API answer (either format) as a paper. */
function mapArxivApiEntry(node: XmlNode, _reader?: unknown, index = 0): IngestEntry {
  const idText = childText(node, 'atom:id');
  if (/\/api\/errors/i.test(idText)) {
    // arXiv reports a bad query as a single entry titled "Error".
    throw new PermanentSourceError(`arXiv rejected the query: ${cleanInline(childText(node, 'atom:summary'))}`);
  }
  const links = childrenNamed(node, 'atom:link');
  // An RSS item has its arxiv.org/abs address in <link> or <guid> rather than in Atom's id.
  const arxiv =
    extractArxivId(idText) ??
    links.map((link) => extractArxivId(link.attrs.href)).find(Boolean) ??
    extractArxivId(childText(node, 'link', 'rss:link')) ??
    extractArxivId(childText(node, 'guid')) ??
    undefined;
  const title = cleanInline(childText(node, 'atom:title', 'title', 'rss:title'));
  if (!arxiv) return { type: 'reject', key: idText || `entry ${index + 1}`, reason: 'no arXiv id', detail: title };

  const abstract = arxivAbstract(childText(node, 'atom:summary'));
  const journalRef = cleanInline(childText(node, 'arxiv:journal_ref'));
  const primary = firstChild(node, 'arxiv:primary_category')?.attrs.term;
  const categories = [primary, ...childrenNamed(node, 'atom:category').map((category) => category.attrs.term)]
    .filter((term): term is string => Boolean(term))
    .map((term) => term.trim());
  const published = parseDateString(childText(node, 'atom:published') || childText(node, 'atom:updated'));
  const notes: string[] = [];
  if (!abstract) notes.push('no abstract');
  if (!published) notes.push('no date');
  const draft: PaperDraft = {
    key: `arXiv:${arxiv.id}`,
    title,
    authors: childrenNamed(node, 'atom:author')
      .map((author) => cleanInline(childText(author, 'atom:name')))
      .filter(Boolean),
    abstract,
    doi: normalizeDoi(childText(node, 'arxiv:doi')),
    arxivId: arxiv.id,
    url: `https://arxiv.org/abs/${arxiv.id}`,
    pdfUrl: pdfLink(links) ?? `https://arxiv.org/pdf/${arxiv.id}${arxiv.version ? `v${arxiv.version}` : ''}`,
    publishedAt: published,
    // Published: the journal it names, when one is known (with its tier); else arXiv.
    journal: (journalRef ? journalFromRef(journalRef) : undefined) ?? arxivVenue(),
    keywords: [...new Set(categories)],
    fields: arxivFields(categories),
    sourceIds: {
      arxiv: arxiv.id,
      ...(arxiv.version ? { arxivVersion: String(arxiv.version) } : {}),
      ...(journalRef ? { journalRef } : {}),
    },
    isAuthoritativeVersion: true,
    notes,
  };
  return { type: 'paper', draft };
}

/** One item of an arXiv announcement feed (rss.arxiv.org, RSS or Atom) as a paper. */
function mapArxivRssItem(node: XmlNode, options: { includeReplacements: boolean }, index = 0): IngestEntry {
  const item = readFeedItem(node);
  const description = item.description;
  const arxiv =
    extractArxivId(item.guid) ??
    extractArxivId(item.link) ??
    extractArxivId(/arXiv:\S+/i.exec(description)?.[0] ?? undefined);
  if (!arxiv)
    return { type: 'reject', key: item.link ?? `entry ${index + 1}`, reason: 'no arXiv id', detail: item.title };
  const announceType = (
    childText(node, 'arxiv:announce_type') ||
    /Announce Type:\s*([\w-]+)/i.exec(description)?.[1] ||
    'new'
  ).toLowerCase();
  // The description is "arXiv:ID Announce Type: new Abstract: text"; older feeds carry only the text.
  const abstractMatch = /Abstract:\s*([\s\S]*)$/i.exec(description);
  const abstract = arxivAbstract(abstractMatch ? (abstractMatch[1] ?? '') : description.replace(/^arXiv:\S+\s*/i, ''));
  // All authors in one dc:creator, comma-separated, "Given Family" each (readFeedItem splits them).
  const authors = item.authors;
  const published = parseDateString(item.date);
  const notes: string[] = [];
  if (!abstract) notes.push('no abstract');
  if (!published) notes.push('no date');
  const isReplacement = announceType.startsWith('replace');
  return {
    type: 'paper',
    draft: {
      key: `arXiv:${arxiv.id}`,
      title: item.title,
      authors,
      abstract,
      doi: normalizeDoi(childText(node, 'arxiv:DOI', 'arxiv:doi')),
      arxivId: arxiv.id,
      url: `https://arxiv.org/abs/${arxiv.id}`,
      pdfUrl: `https://arxiv.org/pdf/${arxiv.id}${arxiv.version ? `v${arxiv.version}` : ''}`,
      publishedAt: published,
      journal: arxivVenue(),
      keywords: item.categories,
      fields: arxivFields(item.categories),
      sourceIds: { arxiv: arxiv.id, ...(arxiv.version ? { arxivVersion: String(arxiv.version) } : {}) },
      isAuthoritativeVersion: true,
      // A replacement is a new version of an older paper: update it if stored, do not add it as new.
      updateOnly: isReplacement && !options.includeReplacements,
      notes,
    },
  };
}

/** An arXiv API answer from bytes (a page fetched, or a saved file). */
export function readArxivApi(
  bytes: AsyncIterable<Uint8Array>,
  options: { maxItems: number; httpCharset?: string; truncatedAtBytes?: number },
) {
  return readFeedEntries(bytes, options, (node, reader, index) => mapArxivApiEntry(node, reader, index));
}

export function readArxivRss(
  bytes: AsyncIterable<Uint8Array>,
  options: { maxItems: number; includeReplacements: boolean; httpCharset?: string; truncatedAtBytes?: number },
) {
  return readFeedEntries(bytes, options, (node, _reader, index) => mapArxivRssItem(node, options, index));
}

/** YYYYMMDDHHMM in UTC, the format of arXiv's submittedDate ranges. */
function arxivTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 12);
}

export async function* fetchArxiv(source: SourceConfigOf<'arxiv'>, ctx: SourceRunContext): SourceRun {
  const release = await ctx.lease.acquire(ARXIV_POLITENESS_KEY, ctx.signal);
  try {
    const newest =
      typeof ctx.cursor.newestSubmitted === 'string' ? parseDateTime(ctx.cursor.newestSubmitted) : undefined;
    const since = ctx.since ? parseDateTime(ctx.since) : undefined;
    const from =
      since ?? (newest ? daysBefore(newest, ANNOUNCEMENT_LAG_DAYS) : daysBefore(ctx.now, source.lookbackDays));
    const clauses: string[] = [];
    if (source.categories.length)
      clauses.push(`(${source.categories.map((category) => `cat:${category}`).join(' OR ')})`);
    if (source.query?.trim()) clauses.push(`(${source.query.trim()})`);
    clauses.push(`submittedDate:[${arxivTimestamp(from)} TO ${arxivTimestamp(ctx.now)}]`);
    const searchQuery = clauses.join(' AND ');

    let newestSeen = newest;
    let stored = 0;
    let start = 0;
    let retriedEmptyPage = false;
    for (;;) {
      const url = new URL(source.baseUrl);
      url.searchParams.set('search_query', searchQuery);
      url.searchParams.set('start', String(start));
      url.searchParams.set('max_results', String(Math.min(source.pageSize, ctx.maxItems - stored)));
      url.searchParams.set('sortBy', 'submittedDate');
      url.searchParams.set('sortOrder', 'descending');
      const body = await ctx.http.get(url.toString(), {
        politeness: { key: ARXIV_POLITENESS_KEY, minIntervalMs: ctx.settings.arxivMinIntervalMs },
        maxBytes: ctx.maxBytes,
        signal: ctx.signal,
      });
      let pageItems = 0;
      const page = readArxivApi(asChunks(body.bytes), {
        maxItems: ctx.maxItems - stored,
        httpCharset: body.charset,
        ...(body.truncated ? { truncatedAtBytes: body.bytes.length } : {}),
      });
      let next = await page.next();
      while (!next.done) {
        const entry = next.value;
        if (entry.type === 'paper') {
          pageItems++;
          const submitted = parseDateTime(entry.draft.publishedAt);
          if (submitted && (!newestSeen || submitted > newestSeen)) newestSeen = submitted;
        }
        yield entry;
        next = await page.next();
      }
      const reader = next.value;
      const total = Number(reader.meta['opensearch:totalResults']);
      if (Number.isFinite(total)) ctx.reportTotal(Math.min(total, ctx.maxItems));
      stored += pageItems;
      if (pageItems === 0) {
        // arXiv sometimes answers a page with no entries although more exist; ask once more.
        if (Number.isFinite(total) && start < total && !retriedEmptyPage) {
          retriedEmptyPage = true;
          continue;
        }
        break;
      }
      retriedEmptyPage = false;
      start += pageItems;
      if (stored >= ctx.maxItems || !Number.isFinite(total) || start >= total) break;
    }
    return { ...(newestSeen ? { newestSubmitted: toDateString(newestSeen) } : {}), lastQuery: searchQuery };
  } finally {
    await release();
  }
}

export async function* fetchArxivRss(source: SourceConfigOf<'arxiv-rss'>, ctx: SourceRunContext): SourceRun {
  const url = source.url ?? `${source.baseUrl.replace(/\/?$/, '/')}${source.categories.join('+')}`;
  const release = await ctx.lease.acquire(ARXIV_POLITENESS_KEY, ctx.signal);
  try {
    const body = await ctx.http.get(url, {
      politeness: { key: ARXIV_POLITENESS_KEY, minIntervalMs: ctx.settings.arxivMinIntervalMs },
      maxBytes: ctx.maxBytes,
      etag: typeof ctx.cursor.etag === 'string' ? ctx.cursor.etag : undefined,
      lastModified: typeof ctx.cursor.lastModified === 'string' ? ctx.cursor.lastModified : undefined,
      signal: ctx.signal,
    });
    if (body.notModified) return ctx.cursor;
    yield* readArxivRss(asChunks(body.bytes), {
      maxItems: ctx.maxItems,
      includeReplacements: source.includeReplacements,
      httpCharset: body.charset,
      ...(body.truncated ? { truncatedAtBytes: body.bytes.length } : {}),
    });
    return { etag: body.etag, lastModified: body.lastModified };
  } finally {
    await release();
  }
}

export function readArxivApiFile(bytes: AsyncIterable<Uint8Array>, options: FileReadOptions) {
  return readArxivApi(bytes, { maxItems: options.maxItems });
}

export function readArxivRssFile(
  bytes: AsyncIterable<Uint8Array>,
  options: FileReadOptions & { includeReplacements: boolean },
) {
  return readArxivRss(bytes, { maxItems: options.maxItems, includeReplacements: options.includeReplacements });
}
