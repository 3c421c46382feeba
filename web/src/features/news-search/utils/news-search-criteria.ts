import { NEWS_LIST_LIMITS, NEWS_SEARCH_TYPES, type NewsSearchRequest, type NewsSearchType } from '@radar/shared';

/** A submitted news search, as kept in the URL of /search/news and sent to POST /api/news/search/. */
export type NewsSearchCriteria = {
  query: string;
  search_type: NewsSearchType;
  /** '' when not filtered. */
  institute_name: string;
  /** YYYY-MM-DD or ''. */
  date_from: string;
  date_to: string;
  page: number;
};

const DEFAULT_SEARCH_TYPE: NewsSearchType = 'keyword';

/** YYYY-MM-DD of a day the request schema gave as midnight UTC. */
const toDay = (date: Date | undefined) => (date ? date.toISOString().slice(0, 10) : '');

/** The criteria of a validated form (newsSearchRequestSchema's output), on page 1. */
export function criteriaFromForm(values: NewsSearchRequest): NewsSearchCriteria {
  return {
    query: values.query,
    search_type: values.searchType,
    institute_name: values.instituteName ?? '',
    date_from: toDay(values.dateFrom),
    date_to: toDay(values.dateTo),
    page: 1,
  };
}

/**
 * The criteria in a URL's query; null without a search text. Unknown search types are keyword search
 * and a bad page is page 1; other values go to the server as they are, which answers a bad one with
 * its message.
 */
export function parseNewsSearchParams(params: URLSearchParams): NewsSearchCriteria | null {
  const query = (params.get('query') ?? '').trim();
  if (!query) return null;
  const type = params.get('search_type');
  const page = Number(params.get('page'));
  return {
    query,
    search_type: (NEWS_SEARCH_TYPES as readonly string[]).includes(type ?? '')
      ? (type as NewsSearchType)
      : DEFAULT_SEARCH_TYPE,
    institute_name: (params.get('institute_name') ?? '').trim(),
    date_from: (params.get('date_from') ?? '').trim(),
    date_to: (params.get('date_to') ?? '').trim(),
    page: Number.isInteger(page) && page >= 1 && page <= NEWS_LIST_LIMITS.maxPage ? page : 1,
  };
}

/** The URL query of criteria: defaults and empty filters left out (the inverse of parseNewsSearchParams). */
export function toNewsSearchParams(criteria: NewsSearchCriteria): Record<string, string | undefined> {
  return {
    query: criteria.query,
    search_type: criteria.search_type === DEFAULT_SEARCH_TYPE ? undefined : criteria.search_type,
    institute_name: criteria.institute_name || undefined,
    date_from: criteria.date_from || undefined,
    date_to: criteria.date_to || undefined,
    page: criteria.page > 1 ? String(criteria.page) : undefined,
  };
}
