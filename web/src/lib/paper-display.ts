/**
 * How a paper's fields read on a card: the last author, the JCR tier and the
 * similarity as a percentage.
 */

export const UNKNOWN_AUTHOR = '未知';

/** An author as sources give it: a name, or an object with a name. */
export type AuthorEntry = string | { name?: string | null } | null | undefined;

/** The name of one author entry; '' when it has none. */
export function authorName(entry: AuthorEntry): string {
  if (typeof entry === 'string') return entry.trim();
  if (entry && typeof entry === 'object' && typeof entry.name === 'string') return entry.name.trim();
  return '';
}

/**
 * The last author (in most fields the senior or corresponding author), or '未知' when the list is
 * empty or its last entry has no name.
 */
export function lastAuthor(authors: readonly AuthorEntry[] | null | undefined): string {
  const last = authors && authors.length > 0 ? authorName(authors[authors.length - 1]) : '';
  return last || UNKNOWN_AUTHOR;
}

/** 'JCR Q1' ... 'JCR Q4'; null when the journal has no known tier. */
export function formatJcrTier(tier: number | null | undefined): string | null {
  return typeof tier === 'number' && Number.isInteger(tier) && tier >= 1 && tier <= 4 ? `JCR Q${tier}` : null;
}

const TIER_SYSTEM_NAMES = {
  scimago: 'SCImago 期刊分区',
  openalex: 'OpenAlex 引用指标分区',
  imported: '本机构导入的分区表',
} as const;

/**
 * Where a tier comes from, for the tier chip's hover text: "SCImago 期刊分区 2024". Null when the answer
 * does not say (a backend that answers only the spec's fields).
 */
export function describeTierSource(source: unknown, year: unknown): string | null {
  if (typeof source !== 'string' || !Object.hasOwn(TIER_SYSTEM_NAMES, source)) return null;
  const name = TIER_SYSTEM_NAMES[source as keyof typeof TIER_SYSTEM_NAMES];
  return typeof year === 'number' && Number.isInteger(year) ? `${name} ${year}` : name;
}

/**
 * A 0-1 similarity as a percentage: one decimal on the paper card, none on chips.
 * null when there is no score.
 */
export function formatSimilarityPercent(score: number | null | undefined, decimals: 0 | 1): string | null {
  if (typeof score !== 'number' || !Number.isFinite(score)) return null;
  return `${(score * 100).toFixed(decimals)}%`;
}

/** The fields a paper's link comes from: its page, else its DOI. */
export type PaperLinkFields = { url?: string | null; doi?: string | null };

/**
 * A DOI as sources write it, bare: '10.1000/xyz' from 'doi:10.1000/xyz', 'https://doi.org/10.1000/xyz'
 * or 'http://dx.doi.org/10.1000/xyz'; null when nothing is left.
 */
export function normalizeDoi(doi: string | null | undefined): string | null {
  const bare = (doi ?? '')
    .trim()
    .replace(/^doi:\s*/i, '')
    .replace(/^https?:\/\/(dx\.)?doi\.org\//i, '')
    .trim();
  return bare === '' ? null : bare;
}

/**
 * Where a paper's title links to: its `url`, else its DOI at https://doi.org/ (the contract's Paper has
 * "url (falls back to a DOI link)", and a recommendation carries "url or doi"); null when it has
 * neither, and the title is plain text.
 */
export function paperHref(paper: PaperLinkFields): string | null {
  const url = paper.url?.trim() ?? '';
  if (url !== '') return url;
  const doi = normalizeDoi(paper.doi);
  return doi === null ? null : `https://doi.org/${doi}`;
}
