import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A list's first load (or a retry after a failure): a spinner and what is happening, announced. */
export function LoadingStatus({ label, testId }: { label: string; testId: string }) {
  return (
    <Box
      role="status"
      data-testid={testId}
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 8 }}
    >
      <CircularProgress size={32} />
      <Typography color="text.secondary">{label}</Typography>
    </Box>
  );
}

type RefreshAreaProps = {
  /** A request is under way (marks the area busy). */
  isFetching: boolean;
  /** Shows a thin bar above the content: a list is on screen while a newer one loads. */
  showBar: boolean;
  barTestId: string;
  children: ReactNode;
};

/** The content of a list that reloads in place, with a progress bar above it while it does. */
export function RefreshArea({ isFetching, showBar, barTestId, children }: RefreshAreaProps) {
  return (
    <Box sx={{ position: 'relative' }} aria-busy={isFetching}>
      {showBar ? (
        <LinearProgress sx={{ position: 'absolute', top: -12, left: 0, right: 0 }} data-testid={barTestId} />
      ) : null}
      {children}
    </Box>
  );
}
