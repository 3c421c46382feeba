import type { Paper } from '@radar/shared';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { PaperCardPaper } from '@/components/papers/paper-card';
import { getErrorMessage } from '@/lib/api-client';
import { paperRecommendationKeys } from '../api/get-paper-recommendations';
import { sharePaper } from '../api/share-paper';
import { toggleFavorite } from '../api/toggle-favorite';
import { toggleSave } from '../api/toggle-save';
import { PAPERS_STRINGS } from '../strings';
import { type PaperStatePatch, patchRecommendedPaper } from '../utils/paper-state';

type Snapshot = ReturnType<QueryClient['getQueriesData']>;

/** Every cached recommendation list with one paper's state replaced. */
function patchCachedPapers(queryClient: QueryClient, id: string, patch: PaperStatePatch) {
  queryClient.setQueriesData<Parameters<typeof patchRecommendedPaper>[0]>(
    { queryKey: paperRecommendationKeys.all },
    (data) => patchRecommendedPaper(data, id, patch),
  );
}

type ToggleOptions = {
  queryClient: QueryClient;
  setBusy: (id: string, busy: boolean) => void;
  onNotify: (message: string) => void;
};

/** One optimistic toggle (favourite or save) of a paper's own state. */
function useToggleMutation<Field extends 'is_favorited' | 'is_saved'>(
  field: Field,
  request: (id: string) => Promise<Pick<Paper, Field>>,
  { queryClient, setBusy, onNotify }: ToggleOptions,
) {
  return useMutation<Pick<Paper, Field>, unknown, PaperCardPaper, { snapshot: Snapshot }>({
    mutationFn: (paper) => request(paper.id),
    onMutate: async (paper) => {
      setBusy(paper.id, true);
      // A list loading now would overwrite the optimistic state with the state from before the click.
      await queryClient.cancelQueries({ queryKey: paperRecommendationKeys.all });
      const snapshot = queryClient.getQueriesData({ queryKey: paperRecommendationKeys.all });
      patchCachedPapers(queryClient, paper.id, { [field]: !paper[field] });
      return { snapshot };
    },
    onSuccess: (response, paper) => patchCachedPapers(queryClient, paper.id, { [field]: response[field] }),
    onError: (error, _paper, context) => {
      for (const [key, data] of context?.snapshot ?? []) queryClient.setQueryData(key, data);
      onNotify(getErrorMessage(error));
    },
    onSettled: (_response, _error, paper) => setBusy(paper.id, false),
  });
}

/**
 * Favourite, save and share on the papers page. Favourite and save are optimistic: the card flips at
 * once and takes the server's state when it answers, or flips back on failure. Share copies the link
 * the server answers to the clipboard, or opens a dialog with it when the browser refuses.
 */
export function usePaperActions({ onNotify }: { onNotify: (message: string) => void }) {
  const queryClient = useQueryClient();
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());
  const [shareUrl, setShareUrl] = useState<string | null>(null);

  const setBusy = (id: string, busy: boolean) =>
    setBusyIds((current) => {
      const next = new Set(current);
      if (busy) next.add(id);
      else next.delete(id);
      return next;
    });

  const toggleOptions = { queryClient, setBusy, onNotify };
  const favorite = useToggleMutation('is_favorited', toggleFavorite, toggleOptions);
  const save = useToggleMutation('is_saved', toggleSave, toggleOptions);

  const share = useMutation({
    mutationFn: (paper: PaperCardPaper) => sharePaper(paper.id),
    onMutate: (paper) => setBusy(paper.id, true),
    onSuccess: async ({ url }) => {
      if (!url) {
        onNotify(PAPERS_STRINGS.share.noLink);
        return;
      }
      try {
        await navigator.clipboard.writeText(url);
        onNotify(PAPERS_STRINGS.share.copied);
      } catch {
        setShareUrl(url);
      }
    },
    onError: (error) => onNotify(getErrorMessage(error)),
    onSettled: (_response, _error, paper) => setBusy(paper.id, false),
  });

  return {
    busyIds,
    toggleFavorite: (paper: PaperCardPaper) => favorite.mutate(paper),
    toggleSave: (paper: PaperCardPaper) => save.mutate(paper),
    share: (paper: PaperCardPaper) => share.mutate(paper),
    shareUrl,
    closeShareDialog: () => setShareUrl(null),
  };
}
