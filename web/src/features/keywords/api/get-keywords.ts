import { API_PATHS, type KeywordListResponse } from '@radar/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { readKeywordList } from '@/lib/spec-answers';

/** Every keyword query starts with this key, so one invalidation refreshes the list and the suggestions. */
export const KEYWORDS_QUERY_KEY = ['keywords'] as const;

/** GET /user-keywords/: the caller's keywords with their alert settings, newest first. */
async function getKeywords(options: { signal?: AbortSignal } = {}): Promise<KeywordListResponse> {
  return readKeywordList(await api.get<unknown>(API_PATHS.keywords, options));
}

export const keywordsQueryOptions = () =>
  queryOptions({
    queryKey: [...KEYWORDS_QUERY_KEY, 'list'],
    queryFn: ({ signal }) => getKeywords({ signal }),
  });
