import type { CitationFormat } from '@radar/shared';
import { type Query, type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LIBRARY_QUERY_KEY, recordRead, shareArticle, toggleFavorite, toggleSave } from '@/api/article-state';
import { CITATION_FORMAT_LABELS, downloadPaperCitation } from '@/api/citation-export';
import { useAuthorFollowing } from '@/api/followed-authors';
import { useCanExportCitations } from '@/api/public-config';
import { getErrorMessage } from '@/lib/api-client';
import { type PaperLinkFields, paperHref } from '@/lib/paper-display';
import { type PaperStatePatch, patchPaperInAnswer } from '@/lib/paper-state';
import { useBusyIds } from './use-busy-ids';
import { type ActionNotice, useDismiss } from './use-dismiss';
import { useRating } from './use-rating';

/** The snackbar texts of the card actions (the spec gives none; these are ours). */
const PAPER_ACTION_STRINGS = {
  favorited: '已收藏',
  unfavorited: '已取消收藏',
  saved: '已加入稍后阅读',
  unsaved: '已移出稍后阅读',
  linkCopied: '链接已复制到剪贴板',
  noLink: '这篇论文暂无可分享的链接',
  readRecorded: '已标记为已读',
  exported: (format: string) => `已导出 ${format} 文件`,
} as const;

type PaperRef = { id: string };
type Toggle = 'is_favorited' | 'is_saved';
type Snapshot = Array<[Query['queryKey'], unknown]>;

/** Cached queries whose answer lists the paper (patching changes them). */
const queriesShowing = (queryClient: QueryClient, id: string) =>
  queryClient.getQueryCache().findAll({
    predicate: (query) => patchPaperInAnswer(query.state.data, id, { is_saved: true }) !== query.state.data,
  });

/** Applies a paper's state to every cached answer that lists it (recommendations, search, library). */
function patchEverywhere(queryClient: QueryClient, id: string, patch: PaperStatePatch) {
  for (const query of queriesShowing(queryClient, id)) {
    queryClient.setQueryData(query.queryKey, patchPaperInAnswer(query.state.data, id, patch));
  }
}

const TOGGLE_NOTICES: Record<Toggle, (on: boolean) => string> = {
  is_favorited: (on) => (on ? PAPER_ACTION_STRINGS.favorited : PAPER_ACTION_STRINGS.unfavorited),
  is_saved: (on) => (on ? PAPER_ACTION_STRINGS.saved : PAPER_ACTION_STRINGS.unsaved),
};

type ToggleOptions = {
  queryClient: QueryClient;
  setBusy: (id: string, busy: boolean) => void;
  setNotice: (notice: string) => void;
};

/** One optimistic toggle (favourite or save) of a paper's own state. */
function useToggleMutation<Field extends Toggle>(
  field: Field,
  request: (id: string) => Promise<Record<Field, boolean>>,
  { queryClient, setBusy, setNotice }: ToggleOptions,
) {
  return useMutation<Record<Field, boolean>, unknown, PaperRef & Partial<Record<Field, boolean>>, Snapshot>({
    mutationFn: (paper) => request(paper.id),
    onMutate: async (paper) => {
      setBusy(paper.id, true);
      const showing = queriesShowing(queryClient, paper.id);
      // A list loading now would overwrite the optimistic state with the state from before the click.
      await Promise.all(showing.map((query) => queryClient.cancelQueries({ queryKey: query.queryKey, exact: true })));
      const snapshot: Snapshot = showing.map((query) => [query.queryKey, query.state.data]);
      patchEverywhere(queryClient, paper.id, { [field]: !paper[field] });
      return snapshot;
    },
    onSuccess: async (answer, paper) => {
      // The contract does not show this answer: without the new state, the toggle is taken as done.
      const stated = (answer as Partial<Record<Field, unknown>> | undefined)?.[field];
      const isOn = typeof stated === 'boolean' ? stated : !paper[field];
      patchEverywhere(queryClient, paper.id, { [field]: isOn });
      setNotice(TOGGLE_NOTICES[field](isOn));
      await queryClient.invalidateQueries({ queryKey: LIBRARY_QUERY_KEY });
    },
    onError: (error, _paper, snapshot) => {
      for (const [key, data] of snapshot ?? []) queryClient.setQueryData(key, data);
      setNotice(getErrorMessage(error));
    },
    onSettled: (_answer, _error, paper) => setBusy(paper.id, false),
  });
}

/**
 * Favourite, save, share, "mark as read", 'not interested' and 👍/👎 (useRating) for paper cards, the same on every screen
 * that shows them. Favourite and save are optimistic: the paper flips at once in every cached list that
 * shows it, takes the server's answer when it comes, or flips back on failure; the library (which lists
 * exactly the favourited and saved papers) refetches after each change. Share copies the link the
 * server answers to the clipboard, or opens ShareLinkDialog with it when the browser refuses. 'Not
 * interested' (recommendations only) is useDismiss's. `notice` is the line for the page's
 * snackbar (PaperActionFeedback shows both).
 */
export function usePaperActions() {
  const queryClient = useQueryClient();
  const { setBusy, isBusy } = useBusyIds();
  const [notice, setNoticeState] = useState<ActionNotice | null>(null);
  const [shareUrl, setShareUrl] = useState<string | null>(null);
  const setNotice = (message: string) => setNoticeState({ message });

  const toggleOptions = { queryClient, setBusy, setNotice };
  const favorite = useToggleMutation('is_favorited', toggleFavorite, toggleOptions);
  const save = useToggleMutation('is_saved', toggleSave, toggleOptions);
  const dismiss = useDismiss('paper', { setBusy, setNotice: setNoticeState });
  const rate = useRating('paper', { setBusy, setNotice });

  const share = useMutation({
    mutationFn: (paper: PaperRef & PaperLinkFields) => shareArticle(paper.id),
    onMutate: (paper) => setBusy(paper.id, true),
    onSuccess: async (answer, paper) => {
      // The contract does not show the share answer: without a link in it, the paper's own link is passed on.
      const url = (answer as Partial<typeof answer> | undefined)?.url || paperHref(paper);
      if (!url) {
        setNotice(PAPER_ACTION_STRINGS.noLink);
        return;
      }
      try {
        await navigator.clipboard.writeText(url);
        setNotice(PAPER_ACTION_STRINGS.linkCopied);
      } catch {
        setShareUrl(url);
      }
    },
    onError: (error) => setNotice(getErrorMessage(error)),
    onSettled: (_answer, _error, paper) => setBusy(paper.id, false),
  });

  const read = useMutation({
    mutationFn: ({ paper, progress }: { paper: PaperRef; progress: number }) => recordRead(paper.id, progress),
    onMutate: ({ paper }) => setBusy(paper.id, true),
    onSuccess: async () => {
      setNotice(PAPER_ACTION_STRINGS.readRecorded);
      await queryClient.invalidateQueries({ queryKey: LIBRARY_QUERY_KEY });
    },
    onError: (error) => setNotice(getErrorMessage(error)),
    onSettled: (_answer, _error, { paper }) => setBusy(paper.id, false),
  });

  const following = useAuthorFollowing(setNotice);

  const canExport = useCanExportCitations();
  const exportCitation = useMutation({
    mutationFn: ({ paper, format }: { paper: PaperRef; format: CitationFormat }) =>
      downloadPaperCitation(paper.id, format),
    onMutate: ({ paper }) => setBusy(paper.id, true),
    onSuccess: (_answer, { format }) => setNotice(PAPER_ACTION_STRINGS.exported(CITATION_FORMAT_LABELS[format])),
    onError: (error) => setNotice(getErrorMessage(error)),
    onSettled: (_answer, _error, { paper }) => setBusy(paper.id, false),
  });

  return {
    /** 导出 on each card: only when the server exports citation files (GET /api/config/ says so). */
    exportCitation: canExport
      ? (paper: PaperRef, format: CitationFormat) => exportCitation.mutate({ paper, format })
      : undefined,
    /** 作者 on each card (follow, unfollow): only when the server keeps followed authors. */
    authorFollow: following.canFollow
      ? {
          isFollowed: (name: string) => following.followOf(name) !== undefined,
          onToggle: (paper: PaperRef, index: number, name: string) => {
            const followed = following.followOf(name);
            if (followed) following.unfollow(followed);
            else following.follow(paper.id, index, name);
          },
          disabled: following.isBusy,
        }
      : undefined,
    toggleFavorite: (paper: PaperRef & { is_favorited?: boolean }) => favorite.mutate(paper),
    toggleSave: (paper: PaperRef & { is_saved?: boolean }) => save.mutate(paper),
    share: (paper: PaperRef) => share.mutate(paper),
    recordRead: (paper: PaperRef, progress: number) => read.mutate({ paper, progress }),
    /** On recommendations only: hides the paper from them (undo from the snackbar). */
    dismiss,
    /** 👍 / 👎 (toggles; the card shows them when the paper carries `rating`). */
    rate,
    isBusy,
    notice,
    clearNotice: () => setNoticeState(null),
    shareUrl,
    closeShareDialog: () => setShareUrl(null),
  };
}

export type PaperActions = ReturnType<typeof usePaperActions>;
