import type { CSL } from '@citation-js/core';
import { collectIssns, extractArxivId, isPreprintServerName, normalizeDoi } from '../text/identifiers';
import { cleanInline } from '../text/text';
import type { PaperDraft } from '../types';

const asText = (value: unknown): string =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';

type CslName = Partial<
  Record<'given' | 'family' | 'literal' | 'dropping-particle' | 'non-dropping-particle' | 'suffix', unknown>
>;

/**
 * "Given Family" of a CSL name (or its literal form), with its particles: BibTeX's "van der Berg,
 * Jan" reaches CSL as family Berg with the particle apart, and is still Jan van der Berg.
 */
function nameOf(name: CslName): string {
  const literal = asText(name.literal);
  if (literal) return cleanInline(literal);
  return cleanInline(
    [name.given, name['dropping-particle'], name['non-dropping-particle'], name.family, name.suffix]
      .map(asText)
      .filter(Boolean)
      .join(' '),
  );
}

/** YYYY-MM-DD (missing month/day as 01) of a CSL date, when it has a year. */
function dateOf(date: unknown): string | undefined {
  const parts = (date as { 'date-parts'?: unknown } | undefined)?.['date-parts'];
  const first = Array.isArray(parts) && Array.isArray(parts[0]) ? (parts[0] as unknown[]) : [];
  const [year, month = 1, day = 1] = first.map(Number);
  if (!year || !Number.isInteger(year) || year < 1000 || year > 9999) return undefined;
  const pad = (value: number) => String(Number.isInteger(value) && value >= 1 ? value : 1).padStart(2, '0');
  return `${year}-${pad(Math.min(month, 12))}-${pad(Math.min(day, 28))}`;
}

/** HTML/JATS tags some exports keep in abstracts. */
const stripTags = (value: string) =>
  value
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * A paper draft from one CSL-JSON item (what citation-js gives for BibTeX and RIS, and what Zotero
 * exports): title, abstract, authors, DOI, arXiv id, URL, date, journal and ISSNs, keywords. Undefined
 * without a title. Works with neither DOI, arXiv id nor URL still seed the summary but cannot be stored
 * as papers (the pipeline needs an identifier).
 */
export function cslToDraft(item: CSL, index: number): PaperDraft | undefined {
  const record = item as Record<string, unknown>;
  // Cleaned as every source's titles are (cleanInline): the titles also draft the proposed summary.
  const title = cleanInline(stripTags(asText(Array.isArray(record.title) ? record.title[0] : record.title)));
  if (!title) return undefined;
  const doi = normalizeDoi(asText(record.DOI) || undefined);
  const url = asText(record.URL) || undefined;
  const arxivId =
    extractArxivId(asText(record.arxiv) || asText(record.eprint) || undefined)?.id ??
    extractArxivId(url ?? undefined)?.id;
  const authors = Array.isArray(record.author) ? (record.author as CslName[]).map(nameOf).filter(Boolean) : [];
  const container = asText(
    Array.isArray(record['container-title']) ? record['container-title'][0] : record['container-title'],
  );
  // A preprint names its server as publisher (Zotero's CSL `article`, BibTeX @misc, RIS PB), not as journal.
  const server = isPreprintServerName(asText(record.publisher)) ? asText(record.publisher) : '';
  const issns = collectIssns(
    (Array.isArray(record.ISSN) ? record.ISSN : [record.ISSN]).flatMap((value) => asText(value).split(/[,;\s]+/)),
  );
  const keywords = asText(record.keyword)
    .split(/[,;]/)
    .map((keyword) => keyword.trim())
    .filter(Boolean);
  return {
    key: doi ?? arxivId ?? url ?? `#${index + 1}`,
    title,
    authors,
    abstract: stripTags(asText(record.abstract)),
    doi,
    arxivId,
    url,
    publishedAt: dateOf(record.issued),
    journal: container
      ? { name: container, issns, ...(isPreprintServerName(container) ? { isPreprintServer: true } : {}) }
      : server
        ? { name: server, issns: [], isPreprintServer: true }
        : undefined,
    keywords,
    sourceIds: {},
    notes: [],
  };
}
