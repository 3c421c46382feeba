import type { Paper } from '@radar/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { getErrorMessage } from '@/lib/api-client';
import { ARTICLES_QUERY_KEY, LIBRARY_QUERY_KEY } from '../api/query-keys';
import { recordRead } from '../api/record-read';
import { shareArticle } from '../api/share-article';
import { toggleFavorite } from '../api/toggle-favorite';
import { toggleSave } from '../api/toggle-save';
import { ARTICLE_STRINGS } from '../strings';
import { type PaperStatePatch, patchPaperInPage } from '../utils/paper-cache';

const STRINGS = ARTICLE_STRINGS.actions;

type PaperRef = { id: string };

/** Puts a text on the clipboard; false when the browser refuses (no permission, insecure page). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Favourite, save, share and "mark as read" for paper cards. A toggle's new state (the server's answer)
 * is patched into every cached search and library page at once; the library lists then refetch, so a
 * paper un-favourited on the favourites tab leaves it. `notice` is the text for the page's snackbar.
 */
export function useArticleActions() {
  const queryClient = useQueryClient();
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);

  const setBusy = (id: string, busy: boolean) =>
    setBusyIds((current) => {
      const next = new Set(current);
      if (busy) next.add(id);
      else next.delete(id);
      return next;
    });

  // Awaited by the mutations: the paper's buttons stay disabled until the lists are fresh again.
  const applyState = async (id: string, patch: PaperStatePatch) => {
    queryClient.setQueriesData<{ results: Paper[] }>({ queryKey: ARTICLES_QUERY_KEY }, (data) =>
      patchPaperInPage(data, id, patch),
    );
    await queryClient.invalidateQueries({ queryKey: LIBRARY_QUERY_KEY });
  };

  const options = {
    onMutate: (paper: PaperRef) => setBusy(paper.id, true),
    onError: (error: unknown) => setNotice(getErrorMessage(error)),
    onSettled: (_data: unknown, _error: unknown, paper: PaperRef) => setBusy(paper.id, false),
  };

  const favorite = useMutation({
    mutationFn: (paper: PaperRef) => toggleFavorite(paper.id),
    ...options,
    onSuccess: async (result) => {
      setNotice(result.is_favorited ? STRINGS.favorited : STRINGS.unfavorited);
      await applyState(result.id, { is_favorited: result.is_favorited });
    },
  });

  const save = useMutation({
    mutationFn: (paper: PaperRef) => toggleSave(paper.id),
    ...options,
    onSuccess: async (result) => {
      setNotice(result.is_saved ? STRINGS.saved : STRINGS.unsaved);
      await applyState(result.id, { is_saved: result.is_saved });
    },
  });

  const share = useMutation({
    mutationFn: (paper: PaperRef) => shareArticle(paper.id),
    ...options,
    onSuccess: async (result) => {
      if (!result.url) {
        setNotice(STRINGS.noLink);
        return;
      }
      setNotice((await copyText(result.url)) ? STRINGS.linkCopied : STRINGS.shareLink(result.url));
    },
  });

  const read = useMutation({
    mutationFn: ({ paper, progress }: { paper: PaperRef; progress: number }) => recordRead(paper.id, progress),
    onMutate: ({ paper }) => setBusy(paper.id, true),
    onError: (error) => setNotice(getErrorMessage(error)),
    onSettled: (_data, _error, { paper }) => setBusy(paper.id, false),
    onSuccess: async () => {
      setNotice(STRINGS.readRecorded);
      await queryClient.invalidateQueries({ queryKey: LIBRARY_QUERY_KEY });
    },
  });

  return {
    onToggleFavorite: (paper: PaperRef) => favorite.mutate(paper),
    onToggleSave: (paper: PaperRef) => save.mutate(paper),
    onShare: (paper: PaperRef) => share.mutate(paper),
    onRecordRead: (paper: PaperRef, progress: number) => read.mutate({ paper, progress }),
    isBusy: (id: string) => busyIds.has(id),
    notice,
    clearNotice: () => setNotice(null),
  };
}
