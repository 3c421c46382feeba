/**
 * Whether a text mentions a keyword, for reasons in memory (the alert job matches keywords and negative
 * terms in SQL over the search index). Latin terms match whole words, with an optional plural ending
 * ('graph' in 'graphs', not in 'paragraph'); CJK terms match as substrings (Chinese has no spaces).
 */
export function mentions(text: string, term: string): boolean {
  const needle = term.trim().toLowerCase();
  if (!needle) return false;
  const haystack = text.toLowerCase();
  if (!/[a-z0-9]/.test(needle)) return haystack.includes(needle);
  const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?:s|es)?(?![\\p{L}\\p{N}])`, 'u').test(haystack);
}

/** The first of `terms` the text mentions, if any. */
export const firstMentioned = (text: string, terms: readonly string[]): string | undefined =>
  terms.find((term) => mentions(text, term));
