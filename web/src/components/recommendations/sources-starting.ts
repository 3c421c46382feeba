import type { EmptyExplanation } from '@radar/shared';

/** How often an empty list is asked for again while the reader's sources are starting. */
export const SOURCES_STARTING_REFETCH_MS = 15_000;

/**
 * The refetch interval of a recommendation list: while its empty explanation says the reader's sources
 * are about to fetch or fetching for the first time (`sources.state` waiting or first_fetch, or failing
 * with others of them still on their first fetch), or that
 * the stored items' vectors are being computed (items_not_embedded), the page asks again every 15 s,
 * so the first papers appear without a reload. Answers without an explanation never refetch.
 */
export function refetchWhileSourcesStart(query: {
  state: { data?: { empty_explanation?: EmptyExplanation | null } | undefined };
}): number | false {
  const explanation = query.state.data?.empty_explanation;
  const state = explanation?.sources?.state;
  // Failing sources with others still on their first fetch (`first_fetch` beside `failing`) ask again too.
  const starting =
    state === 'first_fetch' ||
    state === 'waiting' ||
    explanation?.sources?.first_fetch !== undefined ||
    explanation?.cause === 'items_not_embedded';
  return starting ? SOURCES_STARTING_REFETCH_MS : false;
}
