import { ARTICLE_SEARCH_MAX_PAGE } from '@radar/shared';

/** The `page` of a URL: a whole number from 1 to the server's last allowed page; anything else is page 1. */
export function parsePageParam(value: string | null | undefined): number {
  if (!value || !/^\d{1,6}$/.test(value.trim())) return 1;
  const page = Number(value.trim());
  return page >= 1 && page <= ARTICLE_SEARCH_MAX_PAGE ? page : 1;
}
