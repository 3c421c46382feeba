import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { SECTION_STRINGS } from './strings';

type InfoRowProps = {
  label: string;
  /** Empty text shows '未填写'. */
  value: string;
  testId?: string;
  /** Replaces the plain value (e.g. chips). */
  children?: ReactNode;
};

/** A label and its value, side by side on wide screens and stacked on phones. */
export function InfoRow({ label, value, testId, children }: InfoRowProps) {
  const isEmpty = value.trim() === '';
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '8rem 1fr' },
        gap: { xs: 0.5, sm: 2 },
        py: 1.25,
        '& + &': { borderTop: 1, borderColor: 'divider' },
      }}
    >
      <Typography component="dt" variant="body2" color="text.secondary" sx={{ pt: { sm: 0.25 } }}>
        {label}
      </Typography>
      <Box component="dd" sx={{ m: 0, minWidth: 0 }} data-testid={testId}>
        {children ?? (
          <Typography
            sx={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line', color: isEmpty ? 'text.disabled' : 'text.primary' }}
          >
            {isEmpty ? SECTION_STRINGS.notFilled : value}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
