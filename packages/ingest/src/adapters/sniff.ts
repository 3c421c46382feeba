import type { SourceKind } from '../types';

/**
 * Recognises what a saved file (or the start of it) is, so `pnpm radar ingest <kind> --file` can
 * refuse a file of another kind in one line that names the right one, instead of importing an arXiv
 * API answer as news or rejecting every item of an RSS file as "no arXiv id". Only the first
 * SNIFF_BYTES are looked at; the readers still check everything they read.
 */

export const SNIFF_BYTES = 64 * 1024;

export type PayloadFormat =
  | 'empty'
  | 'arxiv-api'
  | 'arxiv-rss'
  | 'rss2'
  | 'rss1'
  | 'atom'
  | 'html'
  | 'xml'
  | 'openalex'
  | 'crossref'
  | 'biorxiv'
  | 'json'
  | 'csv'
  | 'text';

export interface Payload {
  format: PayloadFormat;
  /** The root element of an XML document, as written. */
  root?: string | undefined;
  /** A feed whose items carry DOIs or PRISM metadata: a journal's. */
  isJournalFeed: boolean;
  /** A feed with no DOI and the marks of a blog engine (generator, comment links): news or a blog. */
  isBlogFeed: boolean;
}

const DESCRIPTIONS: Record<PayloadFormat, string> = {
  empty: 'empty',
  'arxiv-api': 'an arXiv API answer (Atom with search results)',
  'arxiv-rss': 'an arXiv announcement feed (rss.arxiv.org)',
  rss2: 'an RSS 2.0 feed',
  rss1: 'an RSS 1.0 (RDF) feed',
  atom: 'an Atom feed',
  html: 'an HTML page',
  xml: 'an XML document of another kind',
  openalex: 'an OpenAlex works answer (JSON)',
  crossref: 'a Crossref works answer (JSON)',
  biorxiv: 'a bioRxiv/medRxiv details answer (JSON)',
  json: 'JSON of no known source',
  csv: 'a CSV table',
  text: 'neither XML nor JSON',
};

/** What each kind reads, for messages. */
const KIND_READS: Record<SourceKind, string> = {
  arxiv: 'an arXiv API answer',
  'arxiv-rss': 'an arXiv announcement feed',
  openalex: 'an OpenAlex works answer',
  crossref: 'a Crossref works answer',
  biorxiv: 'a bioRxiv/medRxiv details answer',
  rss: "a journal's feed",
  'news-rss': 'a news feed',
};

const FEED_FORMATS = new Set<PayloadFormat>(['rss2', 'rss1', 'atom']);

/** Name of the root element, after the XML declaration, comments, processing instructions and DOCTYPE. */
function rootElement(text: string): string | undefined {
  let rest = text.trimStart();
  for (;;) {
    const prolog = /^(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>)\s*/i.exec(rest);
    if (!prolog) break;
    rest = rest.slice(prolog[0].length);
  }
  return /^<([A-Za-z_][\w:.-]*)/.exec(rest)?.[1];
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

const ARXIV_API = /opensearch\/1\.1|<(?:\w+:)?totalResults\b|arxiv\.org\/api\b|<id>\s*https?:\/\/arxiv\.org\/abs\//i;
const ARXIV_RSS = /rss\.arxiv\.org|export\.arxiv\.org\/rss|<arxiv:announce_type\b/i;
const DOI = /\b10\.\d{4,9}\/[^\s"'<>]+/;
const JOURNAL_MARKS = /<prism:|xmlns:prism=|<dc:identifier>\s*(?:doi:|info:doi|https?:\/\/(?:dx\.)?doi\.org)/i;
const BLOG_MARKS =
  /<generator[^>]*>[^<]*(?:wordpress|blogger|ghost|drupal|joomla|hugo|jekyll|substack|medium|typepad|squarespace|wix)|xmlns:wfw=|xmlns:slash=|<comments>|<wfw:commentRss>/i;
const OPENALEX = /openalex\.org\/W\d|"abstract_inverted_index"\s*:|"authorships"\s*:/;
const CROSSREF = /"message-type"\s*:|"container-title"\s*:|"reference-count"\s*:|"DOI"\s*:\s*"10\./;
const BIORXIV = /"author_corresponding_institution"\s*:|"jatsxml"\s*:|"count_new_papers"\s*:/;
const TIER_HEADER = /\b(?:issn|title|quartile|quartil|cuartil|sjr|tier|rank|journal)\b|分区|期刊/i;

/** Classifies the start of a payload. */
export function sniffPayload(head: string): Payload {
  const text = head.replace(/^\uFEFF/, '');
  const trimmed = text.trimStart();
  const payload = (format: PayloadFormat, extra: Partial<Payload> = {}): Payload => ({
    format,
    isJournalFeed: false,
    isBlogFeed: false,
    ...extra,
  });
  if (!trimmed) return payload('empty');

  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    if (OPENALEX.test(text)) return payload('openalex');
    if (CROSSREF.test(text)) return payload('crossref');
    if (BIORXIV.test(text)) return payload('biorxiv');
    return payload('json');
  }

  if (trimmed.startsWith('<')) {
    const root = rootElement(text);
    if (!root) return payload(/^<!DOCTYPE\s+html/i.test(trimmed) ? 'html' : 'xml');
    const local = localName(root).toLowerCase();
    let format: PayloadFormat;
    if (local === 'html') format = 'html';
    else if (local === 'feed')
      format = ARXIV_RSS.test(text) ? 'arxiv-rss' : ARXIV_API.test(text) ? 'arxiv-api' : 'atom';
    else if (local === 'rss') format = ARXIV_RSS.test(text) ? 'arxiv-rss' : 'rss2';
    else if (local === 'rdf') format = ARXIV_RSS.test(text) ? 'arxiv-rss' : 'rss1';
    else format = 'xml';
    if (!FEED_FORMATS.has(format)) return payload(format, { root });
    const isJournalFeed = JOURNAL_MARKS.test(text);
    return payload(format, {
      root,
      isJournalFeed,
      isBlogFeed: !isJournalFeed && !DOI.test(text) && BLOG_MARKS.test(text),
    });
  }

  const header = trimmed.split(/\r?\n/, 1)[0] ?? '';
  if (/[,;\t]/.test(header) && TIER_HEADER.test(header)) return payload('csv');
  return payload('text');
}

/** The kind that reads a payload, when there is exactly one. */
function kindFor(payload: Payload): SourceKind | undefined {
  switch (payload.format) {
    case 'arxiv-api':
      return 'arxiv';
    case 'arxiv-rss':
      return 'arxiv-rss';
    case 'openalex':
      return 'openalex';
    case 'crossref':
      return 'crossref';
    case 'biorxiv':
      return 'biorxiv';
    default:
      if (!FEED_FORMATS.has(payload.format)) return undefined;
      if (payload.isJournalFeed) return 'rss';
      if (payload.isBlogFeed) return 'news-rss';
      return undefined;
  }
}

function accepts(kind: SourceKind, payload: Payload): boolean {
  const { format } = payload;
  switch (kind) {
    case 'arxiv':
      return format === 'arxiv-api';
    case 'arxiv-rss':
      return format === 'arxiv-rss';
    case 'openalex':
      return format === 'openalex' || format === 'json';
    case 'crossref':
      return format === 'crossref' || format === 'json';
    case 'biorxiv':
      return format === 'biorxiv' || format === 'json';
    case 'rss':
      return FEED_FORMATS.has(format) && !payload.isBlogFeed;
    case 'news-rss':
      return FEED_FORMATS.has(format) && !payload.isJournalFeed;
  }
}

/**
 * Why a file cannot be imported as `kind`, in one line naming what to do instead; undefined when the
 * file looks like what the kind reads.
 */
export function payloadMismatch(kind: SourceKind, payload: Payload, file: string): string | undefined {
  if (payload.format === 'empty') return `${file} is empty: nothing to import`;
  if (accepts(kind, payload)) return undefined;
  const command = (right: SourceKind) => `pnpm radar ingest ${right} --file ${file}`;
  if (payload.format === 'csv') {
    return `${file} looks like a CSV table, not ${KIND_READS[kind]}: journal tier tables are imported with pnpm radar journals import ${file}`;
  }
  if (FEED_FORMATS.has(payload.format) && (kind === 'rss' || kind === 'news-rss')) {
    return payload.isBlogFeed
      ? `${file} looks like a news or blog feed (no DOI in its items, blog engine marks), not ${KIND_READS[kind]}: import it with ${command('news-rss')}`
      : `${file} looks like a journal's feed (its items carry DOIs), not ${KIND_READS[kind]}: import it with ${command('rss')}`;
  }
  const what = `${file} looks like ${DESCRIPTIONS[payload.format]}${payload.format === 'xml' && payload.root ? ` (root element <${payload.root}>)` : ''}, not ${KIND_READS[kind]}`;
  const right = kindFor(payload);
  if (right) return `${what}: import it with ${command(right)}`;
  if (FEED_FORMATS.has(payload.format)) {
    return `${what}: import it with ${command('rss')} (journal papers) or ${command('news-rss')} (news)`;
  }
  if (payload.format === 'html') return `${what}: save the feed itself (its address often ends in /rss, /feed or .xml)`;
  return `${what}: the file kinds are arxiv, arxiv-rss (XML), openalex, crossref, biorxiv (JSON), rss, news-rss (feeds)`;
}
