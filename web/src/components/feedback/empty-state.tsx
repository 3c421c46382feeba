import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

type EmptyStateProps = {
  icon?: ReactNode;
  title: string;
  hint?: string;
  /** More under the hint (e.g. why the list is empty). */
  children?: ReactNode;
  /** A button or link under the hint. */
  action?: ReactNode;
  testId?: string;
  /** Which empty state this is, for tests (`data-kind`). */
  kind?: string;
};

/** A list with nothing to show: an icon, one line saying so, and what to do about it. */
export function EmptyState({ icon, title, hint, children, action, testId, kind }: EmptyStateProps) {
  return (
    <Box
      data-testid={testId}
      data-kind={kind}
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: 1,
        py: { xs: 5, md: 8 },
        px: 2,
        border: 1,
        borderStyle: 'dashed',
        borderColor: 'divider',
        borderRadius: 2,
      }}
    >
      {icon ? (
        <Box aria-hidden sx={{ color: 'text.disabled', '& svg': { fontSize: 48 } }}>
          {icon}
        </Box>
      ) : null}
      <Typography variant="h6" component="p">
        {title}
      </Typography>
      {hint ? (
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
      ) : null}
      {children}
      {action ? <Box sx={{ mt: 1 }}>{action}</Box> : null}
    </Box>
  );
}
