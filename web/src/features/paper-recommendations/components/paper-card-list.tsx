import Stack from '@mui/material/Stack';
import { PaperCard, type PaperCardPaper } from '@/components/papers/paper-card';
import type { PaperActions } from '@/hooks/use-paper-actions';
import { useStagedList } from '@/hooks/use-staged-list';

type PaperCardListProps<P extends PaperCardPaper> = {
  papers: readonly P[];
  actions: PaperActions;
  testId: string;
  /** The similarity each card shows (the recommendations; the section 关注的作者 shows none). */
  scoreOf?: (paper: P) => number | null;
  /**
   * Whether the cards offer 不感兴趣: the recommendations do; the section 关注的作者 does not (the reader
   * follows the person; unfollowing is on the author list).
   */
  canDismiss?: boolean;
};

const LIST_SX = { listStyle: 'none', m: 0, p: 0 } as const;

/**
 * The cards of /papers, one list markup and one set of actions for the recommendations and the section
 * 关注的作者 above them: favourite, save, share, export, 👍/👎, the author list, and 不感兴趣 when offered.
 */
export function PaperCardList<P extends PaperCardPaper>({
  papers,
  actions,
  testId,
  scoreOf,
  canDismiss = false,
}: PaperCardListProps<P>) {
  // The first cards paint before the rest render (hooks/use-staged-list); `data-complete` says when all are in.
  const { shown, isComplete } = useStagedList(papers);
  return (
    <Stack component="ul" spacing={2} sx={LIST_SX} data-testid={testId} data-complete={isComplete ? 'true' : 'false'}>
      {shown.map((paper) => (
        <li key={paper.id}>
          <PaperCard
            paper={paper}
            score={scoreOf?.(paper)}
            onToggleFavorite={actions.toggleFavorite}
            onToggleSave={actions.toggleSave}
            onShare={actions.share}
            onExport={actions.exportCitation}
            onDismiss={canDismiss ? actions.dismiss : undefined}
            onRate={actions.rate}
            authorFollow={actions.authorFollow}
            isBusy={actions.isBusy(paper.id)}
          />
        </li>
      ))}
    </Stack>
  );
}
