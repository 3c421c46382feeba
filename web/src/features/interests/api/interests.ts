import {
  API_PATHS,
  apiPath,
  type InterestCreateRequest,
  type InterestListResponse,
  type InterestUpdateRequest,
  LIMITS,
} from '@radar/shared';
import { api } from '@/lib/api-client';

/*
 * The reader's research interests (beyond the spec: a backend without them answers 404 and /my leaves
 * the section out).
 */

export const INTERESTS_QUERY_KEY = ['interests'] as const;
export const FAVORITES_FOR_INTERESTS_QUERY_KEY = ['interests', 'favourites'] as const;

/** GET /api/auth/interests/: the research summary first, then the others. */
export function getInterests(options: { signal?: AbortSignal } = {}): Promise<InterestListResponse> {
  return api.get<InterestListResponse>(API_PATHS.interests, { signal: options.signal });
}

/** POST /api/auth/interests/: a typed interest or one made from favourites; answers the new list. */
export function createInterest(body: InterestCreateRequest): Promise<InterestListResponse> {
  return api.post<InterestListResponse>(API_PATHS.interests, body);
}

/** PATCH /api/auth/interests/{id}/: name, description, papers or quota ('summary': quota only). */
export function updateInterest(id: string, body: InterestUpdateRequest): Promise<InterestListResponse> {
  return api.patch<InterestListResponse>(apiPath(API_PATHS.interest, { id }), body);
}

/** DELETE /api/auth/interests/{id}/. */
export function deleteInterest(id: string): Promise<InterestListResponse> {
  return api.delete<InterestListResponse>(apiPath(API_PATHS.interest, { id }));
}

/** The reader's favourites to make an interest from (the first page of the library's 'favorited' list). */
export async function getFavoritesForInterests(
  options: { signal?: AbortSignal } = {},
): Promise<{ id: string; title: string }[]> {
  const answer = await api.get<{ results?: unknown }>(API_PATHS.articleLibrary, {
    signal: options.signal,
    query: { list: 'favorited', page: 1, page_size: LIMITS.paperSearchPageSize },
  });
  const results = Array.isArray(answer?.results) ? answer.results : [];
  return results.flatMap((raw) => {
    const paper = (typeof raw === 'object' && raw !== null ? raw : {}) as { id?: unknown; title?: unknown };
    return typeof paper.id === 'string' && typeof paper.title === 'string'
      ? [{ id: paper.id, title: paper.title }]
      : [];
  });
}
