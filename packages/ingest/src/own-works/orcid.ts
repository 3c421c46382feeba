import type { HttpClient } from '../adapters/http';
import { normalizeDoi } from '../text/identifiers';
import type { PaperDraft } from '../types';

/**
 * ORCID's public API v3.0 (no key): the works summary of an iD (`/v3.0/{id}/works`, grouped by
 * identifier, one summary per source) and the full records of up to 100 works at a time
 * (`/v3.0/{id}/works/{put-code,...}`), which carry the short description (ORCID's abstract, often
 * empty) and the contributors. The base URL comes from the config (ORCID_BASE_URL), so tests use a
 * local server answering recorded real records.
 */

const JSON_HEADERS = { accept: 'application/json' };
/** ORCID's bulk endpoint takes at most 100 put-codes per call. */
const BULK_SIZE = 100;
const MAX_BYTES = 16 * 1024 * 1024;
/** ORCID asks public API clients to stay below 24 requests a second; we stay far below. */
const POLITENESS = { key: 'orcid', minIntervalMs: 100 };

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const textOf = (field: unknown): string => {
  const value = isRecord(field) ? field.value : field;
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
};

async function getJson(http: HttpClient, url: string, signal?: AbortSignal): Promise<unknown> {
  const body = await http.get(url, { headers: JSON_HEADERS, maxBytes: MAX_BYTES, politeness: POLITENESS, signal });
  return JSON.parse(new TextDecoder().decode(body.bytes));
}

interface WorkSummary {
  putCode: string;
  /** YYYY-MM-DD (missing parts as 01) or '' when the record has no year. */
  date: string;
}

/** The preferred summary of each group (ORCID's display index), newest first. */
function readSummaries(document: unknown): WorkSummary[] {
  const groups = isRecord(document) && Array.isArray(document.group) ? document.group : [];
  const summaries = groups.flatMap((group): WorkSummary[] => {
    const candidates = isRecord(group) && Array.isArray(group['work-summary']) ? group['work-summary'] : [];
    const best = candidates
      .filter(isRecord)
      .sort((a, b) => Number(b['display-index'] ?? 0) - Number(a['display-index'] ?? 0))[0];
    if (!best || best['put-code'] === undefined) return [];
    return [{ putCode: String(best['put-code']), date: dateOf(best['publication-date']) }];
  });
  return summaries.sort((a, b) => b.date.localeCompare(a.date));
}

function dateOf(date: unknown): string {
  if (!isRecord(date)) return '';
  const year = textOf(date.year);
  if (!/^\d{4}$/.test(year)) return '';
  const part = (field: unknown) => (/^\d{1,2}$/.test(textOf(field)) ? textOf(field).padStart(2, '0') : '01');
  return `${year}-${part(date.month)}-${part(date.day)}`;
}

/** "Given Family" from ORCID's credit names, which are often "Family, Given". */
function creditName(name: string): string {
  const parts = name.split(',').map((part) => part.trim());
  return parts.length === 2 && parts[0] && parts[1] ? `${parts[1]} ${parts[0]}` : name;
}

/** A paper draft from one full ORCID work record. */
function mapOrcidWork(work: unknown): PaperDraft | undefined {
  if (!isRecord(work)) return undefined;
  const title = textOf(isRecord(work.title) ? work.title.title : undefined);
  if (!title) return undefined;
  const externalIds =
    isRecord(work['external-ids']) && Array.isArray(work['external-ids']['external-id'])
      ? work['external-ids']['external-id'].filter(isRecord)
      : [];
  // Only the work's own identifiers: 'part-of' or 'version-of' ones name another work.
  const own = externalIds.filter((id) => String(id['external-id-relationship'] ?? 'self').toLowerCase() === 'self');
  const idOf = (type: string) => {
    const found = own.find((id) => String(id['external-id-type']).toLowerCase() === type);
    return found ? textOf(found['external-id-value']) : undefined;
  };
  const doi = normalizeDoi(idOf('doi'));
  const arxivId = idOf('arxiv')?.replace(/^arxiv:/i, '');
  const contributors =
    isRecord(work.contributors) && Array.isArray(work.contributors.contributor)
      ? work.contributors.contributor.filter(isRecord)
      : [];
  const authors = contributors.map((contributor) => creditName(textOf(contributor['credit-name']))).filter(Boolean);
  const journal = textOf(work['journal-title']);
  const putCode = String(work['put-code'] ?? '');
  return {
    key: doi ?? (arxivId ? `arXiv:${arxivId}` : `orcid-work:${putCode}`),
    title,
    authors,
    abstract: textOf(work['short-description']),
    doi,
    arxivId: arxivId || undefined,
    url: textOf(work.url) || undefined,
    publishedAt: dateOf(work['publication-date']) || undefined,
    journal: journal ? { name: journal, issns: [] } : undefined,
    keywords: [],
    sourceIds: putCode ? { orcid: putCode } : {},
    notes: [],
  };
}

/**
 * The newest `limit` works of an ORCID iD as paper drafts (newest first). Throws the HTTP client's
 * errors: PermanentSourceError for 4xx (an iD ORCID does not know answers 404), TransientSourceError
 * for 5xx and time-outs.
 */
export async function fetchOrcidWorks(
  http: HttpClient,
  options: { baseUrl: string; orcidId: string; limit: number; signal?: AbortSignal },
): Promise<{ works: PaperDraft[]; total: number }> {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/v3.0/${options.orcidId}`;
  const summaries = readSummaries(await getJson(http, `${base}/works`, options.signal));
  const wanted = summaries.slice(0, options.limit);
  const works: PaperDraft[] = [];
  for (let start = 0; start < wanted.length; start += BULK_SIZE) {
    const codes = wanted.slice(start, start + BULK_SIZE).map((summary) => summary.putCode);
    const document = await getJson(http, `${base}/works/${codes.join(',')}`, options.signal);
    const bulk = isRecord(document) && Array.isArray(document.bulk) ? document.bulk : [];
    for (const entry of bulk) {
      // A put-code that no longer exists comes back as an error entry instead of a work.
      const draft = mapOrcidWork(isRecord(entry) ? entry.work : undefined);
      if (draft) works.push(draft);
    }
  }
  return { works, total: summaries.length };
}
