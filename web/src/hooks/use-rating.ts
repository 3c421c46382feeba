import { LEARNING_TEXTS } from '@radar/shared';
import { type Query, type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  LEARNING_STATUS_QUERY_KEY,
  RATING_THRESHOLD_QUERY_KEY,
  RECOMMENDATION_QUERY_KEYS,
  rateItem,
} from '@/api/learning';
import { getErrorMessage } from '@/lib/api-client';
import { patchNewsInAnswer, patchPaperInAnswer } from '@/lib/paper-state';
import type { RecommendationKind } from '@/lib/recommendation-list';

export type Rating = 1 | -1 | null;
type Snapshot = Array<[Query['queryKey'], unknown]>;

/** A cached answer with the item's rating changed (the same object when it does not list the item). */
const patchRating = (kind: RecommendationKind, data: unknown, id: string, rating: Rating) =>
  kind === 'paper' ? patchPaperInAnswer(data, id, { rating }) : patchNewsInAnswer(data, id, { rating });

/** Papers: every cached answer that lists it (recommendations, search, library); news: the news lists. */
const queriesShowing = (queryClient: QueryClient, kind: RecommendationKind, id: string) =>
  queryClient.getQueryCache().findAll({
    ...(kind === 'news' ? { queryKey: RECOMMENDATION_QUERY_KEYS.news } : {}),
    predicate: (query) => patchRating(kind, query.state.data, id, 1) !== query.state.data,
  });

const DONE: Record<string, string> = {
  '1': LEARNING_TEXTS.rateUpDone,
  '-1': LEARNING_TEXTS.rateDownDone,
  '0': LEARNING_TEXTS.rateUndone,
};

/**
 * 👍 (更多此类) and 👎 (减少此类) on paper or news cards (issue 23). The buttons toggle: the same button
 * again removes the rating. Optimistic: the card shows the new rating at once in every cached list
 * that shows it, takes the server's answer, or goes back on failure with the error in the snackbar.
 * The list's order and content are left alone until the next visit (the worker refits a few seconds
 * later; the next load shows it, without the rated item unless 含已评价 is on), so nothing moves under the
 * reader's pointer.
 */
export function useRating(
  kind: RecommendationKind,
  { setBusy, setNotice }: { setBusy: (id: string, busy: boolean) => void; setNotice: (message: string) => void },
) {
  const queryClient = useQueryClient();
  const patchEverywhere = (id: string, rating: Rating) => {
    for (const query of queriesShowing(queryClient, kind, id))
      queryClient.setQueryData(query.queryKey, patchRating(kind, query.state.data, id, rating));
  };

  const mutation = useMutation<{ rating?: Rating }, unknown, { id: string; value: 1 | -1 | 0 }, Snapshot>({
    mutationFn: ({ id, value }) => rateItem(kind, id, value),
    onMutate: async ({ id, value }) => {
      setBusy(id, true);
      const showing = queriesShowing(queryClient, kind, id);
      await Promise.all(showing.map((query) => queryClient.cancelQueries({ queryKey: query.queryKey, exact: true })));
      const snapshot: Snapshot = showing.map((query) => [query.queryKey, query.state.data]);
      patchEverywhere(id, value === 0 ? null : value);
      return snapshot;
    },
    onSuccess: async (answer, { id, value }) => {
      const rating = answer?.rating === undefined ? (value === 0 ? null : value) : answer.rating;
      patchEverywhere(id, rating);
      setNotice(DONE[String(rating ?? 0)] ?? LEARNING_TEXTS.rateUndone);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: LEARNING_STATUS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: RATING_THRESHOLD_QUERY_KEY }),
        // The server leaves a 👍 item out of the next answer (unless 含已评价) and a 👎 one until undone:
        // the lists are marked for the next visit but not loaded now, so no card leaves under the pointer.
        queryClient.invalidateQueries({ queryKey: RECOMMENDATION_QUERY_KEYS[kind], refetchType: 'none' }),
      ]);
    },
    onError: (error, _variables, snapshot) => {
      for (const [key, data] of snapshot ?? []) queryClient.setQueryData(key, data);
      setNotice(getErrorMessage(error));
    },
    onSettled: (_answer, _error, { id }) => setBusy(id, false),
  });

  /** The click on 👍 (1) or 👎 (-1) of an item rated `current`: the same button again removes it. */
  return (item: { id: string; rating?: Rating | undefined }, pressed: 1 | -1) =>
    mutation.mutate({ id: item.id, value: item.rating === pressed ? 0 : pressed });
}
