import { API_PATHS, type KeywordSuggestionsResponse } from '@radar/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { readKeywordSuggestions } from '@/lib/spec-answers';
import { KEYWORDS_QUERY_KEY } from './get-keywords';

/** GET /user-rkeywords/: keywords suggested from the research profile and the papers nearest to it. */
async function getKeywordSuggestions(options: { signal?: AbortSignal } = {}): Promise<KeywordSuggestionsResponse> {
  return readKeywordSuggestions(await api.get<unknown>(API_PATHS.keywordSuggestions, options));
}

export const keywordSuggestionsQueryOptions = () =>
  queryOptions({
    queryKey: [...KEYWORDS_QUERY_KEY, 'suggestions'],
    queryFn: ({ signal }) => getKeywordSuggestions({ signal }),
    // Each call runs a nearest-neighbour search (and is rate-limited): the profile changes rarely.
    staleTime: 5 * 60_000,
  });
