/**
 * Identifiers used to recognise the same paper across sources and versions: DOI, arXiv id without
 * version, normalised URL, and normalised title + first author surname as the last resort.
 */

const DOI_PATTERN = /^10\.\d{4,9}\/\S+$/;

/** Lower-case DOI without resolver prefix, or undefined when the value is not a DOI. */
export function normalizeDoi(raw: string | undefined | null): string | undefined {
  if (!raw) return undefined;
  let value = raw.trim();
  try {
    if (/%[0-9a-f]{2}/i.test(value)) value = decodeURIComponent(value);
  } catch {
    // keep as is
  }
  value = value
    .replace(/^https?:\/\/(dx\.)?doi\.org\//i, '')
    .replace(/^(doi|info:doi\/)\s*:?\s*/i, '')
    .replace(/[\s.,;]+$/, '')
    .toLowerCase();
  return DOI_PATTERN.test(value) && value.length <= 300 ? value : undefined;
}

/**
 * DOI prefixes of preprint servers: a paper carrying one of these is a preprint, and a journal DOI for
 * the same paper replaces it (the preprint DOI is kept in source_ids).
 */
const PREPRINT_DOI_PREFIXES = [
  '10.48550/', // arXiv
  '10.21203/', // Research Square
  '10.20944/', // Preprints.org
  '10.31234/', // PsyArXiv
  '10.31219/', // OSF Preprints
  '10.31235/', // SocArXiv
  '10.31222/', // MetaArXiv
  '10.2139/ssrn', // SSRN
  '10.26434/chemrxiv', // ChemRxiv
  '10.36227/techrxiv', // TechRxiv
  '10.22541/', // Authorea, ESSOAr
  '10.1002/essoar', // ESSOAr (older)
  '10.12688/', // F1000Research etc. publish before review
  '10.7287/peerj.preprints', // PeerJ Preprints
];

/**
 * bioRxiv and medRxiv DOIs: 10.1101/ and a number, dated since 2019 (10.1101/2020.03.12.987654), and
 * since December 2025 openRxiv's own prefix 10.64898/ (10.64898/2026.07.31.741992). Cold Spring
 * Harbor's journals share 10.1101 with a letter code (10.1101/gr.123, 10.1101/gad.1): not preprints.
 */
const CSHL_PREPRINT_DOI = /^10\.(?:1101|64898)\/(?:\d{4}\.\d{2}\.\d{2}\.)?\d{5,}(?:v\d+)?$/;

export function isBiorxivDoi(doi: string | undefined): boolean {
  return Boolean(doi && CSHL_PREPRINT_DOI.test(doi));
}

export function isPreprintDoi(doi: string): boolean {
  return isBiorxivDoi(doi) || PREPRINT_DOI_PREFIXES.some((prefix) => doi.startsWith(prefix));
}

/** Hosts of preprint servers: a landing page there is the preprint's, not the journal's. */
const PREPRINT_HOSTS =
  /(?:^|\.)(?:arxiv\.org|biorxiv\.org|medrxiv\.org|chemrxiv\.org|researchsquare\.com|preprints\.org|osf\.io|psyarxiv\.com|ssrn\.com|techrxiv\.org|authorea\.com|essopenarchive\.org|sciety\.org)$/i;

/**
 * The page is a preprint's: on a preprint server's host (PeerJ's under /preprints/), or the DOI link of
 * a preprint DOI. Tells which of two merged records gives the card its main link (the journal's).
 */
export function isPreprintUrl(raw: string | null | undefined): boolean {
  const url = parseHttpUrl(raw);
  if (!url) return false;
  const host = url.hostname.toLowerCase();
  if (PREPRINT_HOSTS.test(host)) return true;
  if (/(?:^|\.)peerj\.com$/.test(host) && url.pathname.startsWith('/preprints/')) return true;
  if (/(?:^|\.)doi\.org$/.test(host)) {
    const doi = normalizeDoi(decodeURIComponent(url.pathname.slice(1)));
    return Boolean(doi && isPreprintDoi(doi));
  }
  return false;
}

/**
 * The DOI in a bioRxiv or medRxiv page address (https://www.biorxiv.org/content/10.1101/2020.03.12.987654v2),
 * as OpenAlex gives these preprints' locations; undefined for other pages.
 */
export function doiFromPreprintUrl(raw: string | null | undefined): string | undefined {
  const url = parseHttpUrl(raw);
  if (!url || !/(?:^|\.)(?:biorxiv|medrxiv)\.org$/i.test(url.hostname)) return undefined;
  const match = /^\/content\/(?:early\/[\d/]+\/)?(10\.1101\/[\d.]*\d)(?:v\d+)?(?:[./?#]|$)/.exec(url.pathname);
  return normalizeDoi(match?.[1]);
}

/** Venue names of preprint servers, as sources write them ("bioRxiv (Cold Spring Harbor Laboratory)"). */
const PREPRINT_SERVER_NAME =
  /^(?:arxiv|biorxiv|medrxiv|chemrxiv|techrxiv|psyarxiv|socarxiv|ssrn|research square|preprints(?:\.org)?|osf preprints|authorea|essoar)\b/i;

export function isPreprintServerName(name: string | null | undefined): boolean {
  return Boolean(name && PREPRINT_SERVER_NAME.test(name.trim()));
}

const NEW_ARXIV_ID = /(?:^|[^\d.])(\d{4}\.\d{4,5})(v\d+)?(?![\d])/;
const OLD_ARXIV_ID = /(?:^|[^a-z-])([a-z-]+(?:\.[a-z]{2})?\/\d{7})(v\d+)?(?!\d)/i;

export interface ArxivId {
  /** Without version, e.g. 2401.01234 or hep-th/9901001. */
  id: string;
  /** e.g. 2, when the value carried one. */
  version: number | undefined;
}

/**
 * arXiv id from an id, URL, OAI identifier or DOI (10.48550/arXiv.X). Only values that mention arXiv
 * or are a bare id are read, so unrelated numbers in other URLs are not taken for arXiv ids.
 */
export function extractArxivId(raw: string | undefined | null): ArxivId | undefined {
  if (!raw) return undefined;
  const value = raw.trim();
  const bare = /^(?:arxiv:)?\s*(\d{4}\.\d{4,5}|[a-z-]+(?:\.[a-z]{2})?\/\d{7})(v\d+)?$/i.exec(value);
  if (bare?.[1]) return { id: normaliseOldStyle(bare[1]), version: bare[2] ? Number(bare[2].slice(1)) : undefined };
  if (!/arxiv/i.test(value)) return undefined;
  const viaDoi = /10\.48550\/arxiv\.([^\s?#]+)/i.exec(value);
  if (viaDoi?.[1]) return extractArxivId(viaDoi[1]);
  const match = NEW_ARXIV_ID.exec(value) ?? OLD_ARXIV_ID.exec(value);
  if (!match?.[1]) return undefined;
  return { id: normaliseOldStyle(match[1]), version: match[2] ? Number(match[2].slice(1)) : undefined };
}

// Old-style ids are archive/number with a lower-case archive (subject class upper-case: math.AG/...).
const normaliseOldStyle = (id: string) =>
  id.includes('/') ? id.replace(/^[^/.]+/, (archive) => archive.toLowerCase()) : id;

/** arXiv id carried by an arXiv DOI (10.48550/arxiv.2401.01234). */
export function arxivIdFromDoi(doi: string | undefined): string | undefined {
  return doi && /^10\.48550\/arxiv\./i.test(doi) ? extractArxivId(doi)?.id : undefined;
}

const TRACKING_PARAMETER =
  /^(utm_[a-z_]+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|_hsenc|_hsmi|_hsmkt|ref|ref_src|rss|cmpid|spm|share_token|sharesource|source|from)$/i;

/** http(s) URL or undefined. */
export function parseHttpUrl(raw: string | undefined | null, base?: string): URL | undefined {
  if (!raw) return undefined;
  const value = raw.trim();
  if (!value) return undefined;
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Scheme-less, lower-cased URL without `www.`, fragment, default port, tracking parameters or trailing
 * slash, with the remaining query parameters sorted: the same page reached through http/https or a
 * newsletter link gets the same key.
 */
export function normalizeUrl(raw: string | undefined | null): string | undefined {
  const url = parseHttpUrl(raw);
  if (!url) return undefined;
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const port = url.port && url.port !== '80' && url.port !== '443' ? `:${url.port}` : '';
  const path = url.pathname.replace(/\/+$/, '') || '';
  const params = [...url.searchParams.entries()]
    .filter(([key]) => !TRACKING_PARAMETER.test(key))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  return `${host}${port}${path}${query}`.toLowerCase().slice(0, 2000);
}

/** ISSN without hyphen, upper-case check digit, or undefined when the value is not an ISSN. */
export function normalizeIssn(raw: string | undefined | null): string | undefined {
  if (!raw) return undefined;
  const value = raw
    .replace(/^\s*e?-?issn[:\s]*/i, '')
    .replace(/[\s-]/g, '')
    .toUpperCase();
  return /^\d{7}[\dX]$/.test(value) ? value : undefined;
}

/** Every ISSN in a list such as "22138595, 22138587" or ["0925-2312", "1872-8286"], without repeats. */
export function collectIssns(values: (string | undefined | null)[]): string[] {
  const issns = new Set<string>();
  for (const value of values) {
    for (const part of (value ?? '').split(/[,;|/\s]+/)) {
      const issn = normalizeIssn(part);
      if (issn) issns.add(issn);
    }
  }
  return [...issns];
}

/** Lower-case, accents removed, punctuation to spaces; letters of every script kept. */
function foldText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Journal title key: "The Lancet Diabetes & Endocrinology" and "Lancet Diabetes and Endocrinology" match. */
export function normalizeJournalTitle(title: string): string {
  return foldText(title).replace(/^the /, '');
}

export function normalizeTitle(title: string): string {
  return foldText(title);
}

/** Surname of "Given Family", "Family, Given" or a CJK name written without spaces (family name first). */
export function surnameOf(name: string): string {
  const trimmed = name.trim();
  if (trimmed.includes(',')) return foldText(trimmed.split(',')[0] ?? '');
  if (/^[\p{Script=Han}\p{Script=Hangul}]+$/u.test(trimmed.replace(/\s/g, '')))
    return trimmed.replace(/\s/g, '')[0] ?? '';
  const tokens = foldText(trimmed).split(' ').filter(Boolean);
  return tokens.at(-1) ?? '';
}

/**
 * Titles shared by different works of the same first author ("Author Correction", "Reply to comment"):
 * never a dedupe key. Migration 0010 clears stored keys with the same pattern.
 */
const GENERIC_TITLES =
  /^(author |publisher |editorial )?(editorial|reply|response|correction|corrigendum|erratum|retraction|retraction note|expression of concern|comment|commentary|letter|letter to the editor|preface|foreword|introduction|news|in brief|books received|front matter|back matter|table of contents|contents|index|abstracts|reviewer acknowledgement|acknowledgement to reviewers|acknowledgment to reviewers|obituary|correspondence|highlights|research highlights|conference report|meeting report)( to (the )?(comment|letter|editor|reply|response))?$/;

/**
 * Dedupe key of last resort: normalised title and first author's surname. Short titles ("Editorial",
 * "Reply") and generic ones are too common to identify a paper and get no key; nor does a paper
 * without authors.
 */
export function titleAuthorKey(title: string, authors: readonly string[]): string | undefined {
  const normalized = normalizeTitle(title);
  const first = authors[0];
  if (normalized.length < 12 || GENERIC_TITLES.test(normalized) || !first) return undefined;
  const surname = surnameOf(first);
  return surname ? `${normalized.slice(0, 400)}|${surname}` : undefined;
}
