import Box from '@mui/material/Box';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import { PaperCard } from '@/components/papers/paper-card';
import type { PaperActions } from '@/hooks/use-paper-actions';
import type { ClientPaper } from '@/lib/spec-answers';

type PaperResultsProps<P extends ClientPaper> = {
  papers: readonly P[];
  actions: PaperActions;
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  paginationLabel: string;
  /** Extra content under a card's chips (the library's reading progress). */
  renderFooter?: (paper: P) => ReactNode;
  /** While another page loads, the shown one is dimmed. */
  isStale?: boolean;
};

/** A page of paper cards with favourite, save and share, and the pages below them. */
export function PaperResults<P extends ClientPaper>({
  papers,
  actions,
  page,
  pageCount,
  onPageChange,
  paginationLabel,
  renderFooter,
  isStale = false,
}: PaperResultsProps<P>) {
  return (
    <>
      <Stack
        component="ul"
        spacing={2}
        aria-busy={isStale}
        sx={{ listStyle: 'none', m: 0, p: 0, opacity: isStale ? 0.6 : 1, transition: 'opacity 150ms' }}
      >
        {papers.map((paper) => (
          <li key={paper.id}>
            <PaperCard
              paper={paper}
              onToggleFavorite={actions.toggleFavorite}
              onToggleSave={actions.toggleSave}
              onShare={actions.share}
              onExport={actions.exportCitation}
              onRate={actions.rate}
              authorFollow={actions.authorFollow}
              isBusy={actions.isBusy(paper.id)}
              footer={renderFooter?.(paper)}
            />
          </li>
        ))}
      </Stack>
      {pageCount > 1 ? (
        <Box component="nav" aria-label={paginationLabel} sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
          <Pagination
            count={pageCount}
            page={Math.min(page, pageCount)}
            onChange={(_event, next) => onPageChange(next)}
            siblingCount={0}
            color="primary"
            data-testid="paper-pagination"
          />
        </Box>
      ) : null}
    </>
  );
}

/** Placeholder cards while the first page loads. */
export function PaperResultsSkeleton() {
  return (
    <Stack spacing={2} aria-hidden data-testid="paper-results-loading">
      {[0, 1, 2].map((row) => (
        <Skeleton key={row} variant="rounded" height={160} />
      ))}
    </Stack>
  );
}
