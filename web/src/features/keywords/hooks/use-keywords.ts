import type { Keyword, KeywordListResponse, KeywordUpdate } from '@radar/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { addKeyword } from '../api/add-keyword';
import { keywordSuggestionsQueryOptions } from '../api/get-keyword-suggestions';
import { keywordsQueryOptions } from '../api/get-keywords';
import { paperAvailabilityQueryOptions } from '../api/get-paper-availability';
import { removeKeyword } from '../api/remove-keyword';
import { updateKeyword } from '../api/update-keyword';

/** The caller's keywords (GET /user-keywords/). */
export function useKeywords() {
  return useQuery(keywordsQueryOptions());
}

/** Suggested keywords (GET /user-rkeywords/). */
export function useKeywordSuggestions() {
  return useQuery(keywordSuggestionsQueryOptions());
}

/** How many papers can be analysed; asked only when `enabled` (the suggestions came back empty). */
export function usePaperAvailability(enabled: boolean) {
  return useQuery({ ...paperAvailabilityQueryOptions(), enabled });
}

const listKey = keywordsQueryOptions().queryKey;

/** Applies a change to the cached list at once; the refetch after it has the final word. */
function useListUpdater() {
  const queryClient = useQueryClient();
  return {
    update: (change: (keywords: Keyword[]) => Keyword[]) =>
      queryClient.setQueryData<KeywordListResponse>(listKey, (current) => {
        if (!current) return current;
        const keywords = change(current.keywords);
        return { keywords, count: keywords.length };
      }),
    refetch: () => queryClient.invalidateQueries({ queryKey: listKey }),
    refetchSuggestions: () => queryClient.invalidateQueries({ queryKey: keywordSuggestionsQueryOptions().queryKey }),
  };
}

/** Follows a keyword; a 409 (already followed) or 400 (limit reached) comes back as the mutation's error. */
export function useAddKeyword() {
  const list = useListUpdater();
  return useMutation({
    mutationFn: (name: string) => addKeyword(name),
    onSuccess: ({ keyword }) => {
      // An answer without the keyword (another backend) leaves the list to the refetch below.
      if (keyword.id !== '') list.update((keywords) => [keyword, ...keywords.filter((k) => k.id !== keyword.id)]);
      // The server also leaves out the parts of a followed phrase ("graph neural" once "graph neural
      // network" is followed), which only it can tell; not awaited, the add is done.
      void list.refetchSuggestions();
    },
    // Also after a 409: another tab may have added it, so the list was stale. Not awaited: the
    // caller's own callbacks (clearing the box) run once the answer is in, not after the refetch.
    onSettled: () => {
      void list.refetch();
    },
  });
}

export function useRemoveKeyword() {
  const list = useListUpdater();
  return useMutation({
    mutationFn: (keyword: Pick<Keyword, 'id' | 'name'>) => removeKeyword(keyword.id),
    onSuccess: (_result, keyword) => list.update((keywords) => keywords.filter((k) => k.id !== keyword.id)),
    onSettled: () => {
      // A keyword no longer followed may be suggested again.
      void list.refetch();
      void list.refetchSuggestions();
    },
  });
}

export function useUpdateKeyword() {
  const list = useListUpdater();
  return useMutation({
    mutationFn: ({ id, update }: { id: string; update: KeywordUpdate }) => updateKeyword(id, update),
    onSuccess: ({ keyword }) => {
      if (keyword.name !== '') list.update((keywords) => keywords.map((k) => (k.id === keyword.id ? keyword : k)));
    },
    onSettled: () => {
      void list.refetch();
    },
  });
}
