/**
 * Every article query (search pages, library pages) starts with this key: a favourite or save toggled
 * anywhere is patched into all of them, and the library refetches.
 */
export const ARTICLES_QUERY_KEY = ['articles'] as const;
export const LIBRARY_QUERY_KEY = [...ARTICLES_QUERY_KEY, 'library'] as const;
