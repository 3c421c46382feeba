/**
 * How a paper's fields read on a card (spec sections 3 and 9): the last author, the JCR tier and the
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

/**
 * A 0-1 similarity as a percentage: one decimal on the paper card, none on chips (spec section 9).
 * null when there is no score.
 */
export function formatSimilarityPercent(score: number | null | undefined, decimals: 0 | 1): string | null {
  if (typeof score !== 'number' || !Number.isFinite(score)) return null;
  return `${(score * 100).toFixed(decimals)}%`;
}
