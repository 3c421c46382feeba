import { declaredJournal, type SourceConfigOf } from '../pipeline/sources-config';
import { parseDateString, parseDateTime } from '../text/dates';
import { collectIssns, extractArxivId, normalizeTitle } from '../text/identifiers';
import { abstractText } from '../text/text';
import type { IngestEntry, JournalRef } from '../types';
import type { FileReadOptions, SourceRun, SourceRunContext } from './context';
import { feedText, readFeedItem } from './feed-item';
import { readFeedEntries } from './feed-reader';
import { asChunks } from './http';
import type { XmlFeedReader, XmlNode } from './xml-feed';

/**
 * Any RSS 2.0, RSS 1.0 (RDF) or Atom feed: a journal's (papers) or an institute's (news). Full-HTML
 * bodies (WordPress content:encoded) become clean text. Conditional requests (ETag, Last-Modified)
 * make an unchanged feed cost one short answer.
 */

/** "Nature, Published online: 18 July 2024; doi:10.1038/..." lines say nothing about the paper. */
const CITATION_LINE = /^.{0,200}(published online|online publication date)[^\n]*$|^.{0,200}\bdoi:\s*10\.\S+\s*$/i;

function paperAbstract(description: string, content: string, title: string): string {
  const candidates = [description, content].map((text) =>
    abstractText(text, { dropLine: (line) => CITATION_LINE.test(line) }),
  );
  const longest = candidates.reduce((best, text) => (text.length > best.length ? text : best), '');
  // Feeds without abstracts often repeat the title as the description.
  return normalizeTitle(longest) === normalizeTitle(title) ? '' : longest;
}

function feedDate(reader: XmlFeedReader): string | undefined {
  const meta = reader.meta;
  return meta.lastBuildDate || meta.pubDate || meta['dc:date'] || meta.updated || undefined;
}

export interface JournalFeedOptions {
  journal?: { name: string; issns: string[]; publisher?: string } | undefined;
  isPreprintServer?: boolean;
  baseUrl?: string | undefined;
}

function mapJournalFeedItem(
  node: XmlNode,
  reader: XmlFeedReader,
  index: number,
  options: JournalFeedOptions,
): IngestEntry {
  const item = readFeedItem(node, options.baseUrl);
  const key = item.doi ?? item.link ?? item.guid ?? `entry ${index + 1}`;
  if (!item.title) return { type: 'reject', key, reason: 'no title' };
  const notes: string[] = [];
  let publishedAt = parseDateString(item.date) ?? parseDateString(item.updated);
  if (!publishedAt) {
    publishedAt = parseDateString(feedDate(reader));
    notes.push(publishedAt ? "no date in the item: the feed's date was used" : 'no date');
  }
  const abstract = paperAbstract(item.description, item.content, item.title);
  if (!abstract) notes.push('no abstract');

  const feedIssns = collectIssns([reader.meta['prism:issn'], reader.meta['prism:eIssn']]);
  const name =
    options.journal?.name ?? item.publicationName ?? reader.meta['prism:publicationName'] ?? reader.meta.title;
  const journal: JournalRef | undefined = name
    ? {
        name,
        issns: options.journal?.issns.length ? options.journal.issns : item.issns.length ? item.issns : feedIssns,
        publisher: options.journal?.publisher ?? reader.meta['dc:publisher'],
        isPreprintServer: options.isPreprintServer ?? false,
      }
    : undefined;
  const arxiv = extractArxivId(item.link) ?? extractArxivId(item.guid);
  return {
    type: 'paper',
    draft: {
      key,
      title: item.title,
      authors: item.authors,
      abstract,
      doi: item.doi,
      arxivId: arxiv?.id,
      url: item.link,
      pdfUrl: item.pdfUrl,
      publishedAt,
      journal,
      keywords: item.categories,
      sourceIds: item.guid || item.link ? { feed: (item.guid || item.link) as string } : {},
      notes,
    },
  };
}

export interface NewsFeedOptions {
  /** The institute; a file import without one uses the feed's title. */
  institute?: string | undefined;
  homepage?: string | undefined;
  baseUrl?: string | undefined;
}

function mapNewsFeedItem(node: XmlNode, reader: XmlFeedReader, index: number, options: NewsFeedOptions): IngestEntry {
  const item = readFeedItem(node, options.baseUrl);
  const key = item.link ?? item.guid ?? `entry ${index + 1}`;
  if (!item.title) return { type: 'reject', key, reason: 'no title' };
  if (!item.link) return { type: 'reject', key, reason: 'no URL', detail: item.title };
  const institute = options.institute ?? reader.meta.title;
  if (!institute) return { type: 'reject', key, reason: 'no institute', detail: 'configure the source\'s "institute"' };
  // content:encoded carries the full article; the description is often a teaser of it.
  const content = feedText(item.content) || feedText(item.description);
  const notes: string[] = [];
  const publishDate = parseDateTime(item.date) ?? parseDateTime(item.updated);
  if (!publishDate) notes.push('no date');
  if (!content) notes.push('no content');
  return {
    type: 'news',
    draft: {
      key,
      title: item.title,
      content,
      url: item.link,
      publishDate,
      institute,
      instituteHomepage: options.homepage,
      notes,
    },
  };
}

export function readJournalFeed(
  bytes: AsyncIterable<Uint8Array>,
  options: JournalFeedOptions & { maxItems: number; httpCharset?: string; truncatedAtBytes?: number },
) {
  return readFeedEntries(bytes, options, (node, reader, index) => mapJournalFeedItem(node, reader, index, options));
}

export function readNewsFeed(
  bytes: AsyncIterable<Uint8Array>,
  options: NewsFeedOptions & { maxItems: number; httpCharset?: string; truncatedAtBytes?: number },
) {
  return readFeedEntries(bytes, options, (node, reader, index) => mapNewsFeedItem(node, reader, index, options));
}

async function fetchBody(url: string, ctx: SourceRunContext) {
  return ctx.http.get(url, {
    politeness: { key: new URL(url).host, minIntervalMs: 1_000 },
    maxBytes: ctx.maxBytes,
    etag: typeof ctx.cursor.etag === 'string' ? ctx.cursor.etag : undefined,
    lastModified: typeof ctx.cursor.lastModified === 'string' ? ctx.cursor.lastModified : undefined,
    signal: ctx.signal,
  });
}

export async function* fetchJournalFeed(source: SourceConfigOf<'rss'>, ctx: SourceRunContext): SourceRun {
  const body = await fetchBody(source.url, ctx);
  if (body.notModified) return ctx.cursor;
  yield* readJournalFeed(asChunks(body.bytes), {
    journal: declaredJournal(source),
    isPreprintServer: source.isPreprintServer,
    baseUrl: body.url,
    maxItems: ctx.maxItems,
    httpCharset: body.charset,
    ...(body.truncated ? { truncatedAtBytes: body.bytes.length } : {}),
  });
  return { etag: body.etag, lastModified: body.lastModified };
}

export async function* fetchNewsFeed(source: SourceConfigOf<'news-rss'>, ctx: SourceRunContext): SourceRun {
  const body = await fetchBody(source.url, ctx);
  if (body.notModified) return ctx.cursor;
  yield* readNewsFeed(asChunks(body.bytes), {
    institute: source.institute,
    homepage: source.homepage,
    baseUrl: body.url,
    maxItems: ctx.maxItems,
    httpCharset: body.charset,
    ...(body.truncated ? { truncatedAtBytes: body.bytes.length } : {}),
  });
  return { etag: body.etag, lastModified: body.lastModified };
}

export function readJournalFeedFile(bytes: AsyncIterable<Uint8Array>, options: FileReadOptions & JournalFeedOptions) {
  return readJournalFeed(bytes, options);
}

export function readNewsFeedFile(bytes: AsyncIterable<Uint8Array>, options: FileReadOptions & NewsFeedOptions) {
  return readNewsFeed(bytes, options);
}
