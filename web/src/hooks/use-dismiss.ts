import { LEARNING_TEXTS } from '@radar/shared';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { dismiss, LEARNING_STATUS_QUERY_KEY, RECOMMENDATION_QUERY_KEYS, undoDismiss } from '@/api/learning';
import { getErrorMessage } from '@/lib/api-client';
import { type ListPosition, putBackInAnswer, type RecommendationKind, takeFromAnswer } from '@/lib/recommendation-list';

/** A line for the page's snackbar, with an undo button when `undo` is given. */
export type ActionNotice = { message: string; undo?: () => void };

type ItemRef = { id: string };
/** Where the item was taken out: one entry per cached list (page, settings) that showed it. */
type Removal = Array<{ queryKey: QueryKey; position: ListPosition }>;

type DismissOptions = {
  setBusy: (id: string, busy: boolean) => void;
  setNotice: (notice: ActionNotice) => void;
};

/**
 * 不感兴趣 (dismiss) on a recommended paper or news item. Optimistic: the card leaves every cached
 * recommendation list of its kind at once and comes back at the same place if the server refuses;
 * after the server's yes the snackbar offers an undo, which puts it back at once (and takes it out
 * again should the undo fail). Search results and the library are left alone: the mark only hides the
 * item from recommendations. The learning status (/my) counts the marks, so it reloads after each.
 */
export function useDismiss(kind: RecommendationKind, { setBusy, setNotice }: DismissOptions) {
  const queryClient = useQueryClient();

  const takeOut = async (id: string): Promise<Removal> => {
    const lists = queryClient.getQueryCache().findAll({ queryKey: RECOMMENDATION_QUERY_KEYS[kind] });
    // A list loading now would bring the card back with the state from before the click.
    await Promise.all(lists.map((list) => queryClient.cancelQueries({ queryKey: list.queryKey, exact: true })));
    const removal: Removal = [];
    for (const list of lists) {
      const taken = takeFromAnswer(list.state.data, kind, id);
      if (!taken) continue;
      queryClient.setQueryData(list.queryKey, taken.data);
      removal.push({ queryKey: list.queryKey, position: taken.position });
    }
    return removal;
  };

  const putBack = (removal: Removal) => {
    for (const { queryKey, position } of removal) {
      queryClient.setQueryData(queryKey, (data: unknown) => putBackInAnswer(data, kind, position));
    }
  };

  const refreshLearningStatus = () => queryClient.invalidateQueries({ queryKey: LEARNING_STATUS_QUERY_KEY });

  const undo = useMutation<unknown, unknown, { item: ItemRef; removal: Removal }>({
    mutationFn: ({ item }) => undoDismiss(kind, item.id),
    onMutate: ({ removal }) => putBack(removal),
    onSuccess: () => refreshLearningStatus(),
    onError: async (error, { item }) => {
      setNotice({ message: getErrorMessage(error) });
      await takeOut(item.id);
    },
  });

  const dismissal = useMutation<unknown, unknown, ItemRef, Removal>({
    mutationFn: (item) => dismiss(kind, item.id),
    onMutate: (item) => {
      setBusy(item.id, true);
      return takeOut(item.id);
    },
    onSuccess: (_answer, item, removal) => {
      setNotice({
        message: LEARNING_TEXTS.dismissDone,
        undo: () => undo.mutate({ item, removal: removal ?? [] }),
      });
      return refreshLearningStatus();
    },
    onError: (error, _item, removal) => {
      putBack(removal ?? []);
      setNotice({ message: getErrorMessage(error) });
    },
    onSettled: (_answer, _error, item) => setBusy(item.id, false),
  });

  return (item: ItemRef) => dismissal.mutate(item);
}
