import { splitSearchKeywords } from '@radar/shared';

/**
 * Search text from keywords, for GET /articles/search/?q=, which joins its keywords with AND. A keyword with spaces is quoted so it stays one keyword; quotes inside a keyword cannot
 * be kept and become spaces. Blank keywords and repeats (ignoring case) are left out.
 */
export function joinSearchKeywords(keywords: readonly string[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const raw of keywords) {
    const keyword = raw.replace(/["“”]/g, ' ').replace(/\s+/g, ' ').trim();
    if (!keyword || seen.has(keyword.toLowerCase())) continue;
    seen.add(keyword.toLowerCase());
    parts.push(/\s/.test(keyword) ? `"${keyword}"` : keyword);
  }
  return parts.join(' ');
}

/** Whether the search text already holds the keyword (ignoring case), as the server splits it. */
export function hasSearchKeyword(query: string, keyword: string): boolean {
  const key = joinSearchKeywords([keyword]);
  if (!key) return false;
  const wanted = splitSearchKeywords(key)[0]?.toLowerCase();
  return splitSearchKeywords(query).some((part) => part.toLowerCase() === wanted);
}

/** The search text with the keyword added at the end, or taken out when it is there already. */
export function toggleSearchKeyword(query: string, keyword: string): string {
  const keywords = splitSearchKeywords(query);
  if (!hasSearchKeyword(query, keyword)) return joinSearchKeywords([...keywords, keyword]);
  const wanted = splitSearchKeywords(joinSearchKeywords([keyword]))[0]?.toLowerCase();
  return joinSearchKeywords(keywords.filter((part) => part.toLowerCase() !== wanted));
}
