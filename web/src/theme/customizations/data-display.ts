import type { Components, Theme } from '@mui/material/styles';

/** Chips, lists and tooltips. */
export const dataDisplayCustomizations: Components<Theme> = {
  MuiChip: {
    styleOverrides: {
      root: ({ theme }) => ({ borderRadius: theme.shape.borderRadius, fontWeight: 500 }),
    },
  },
  MuiTooltip: {
    defaultProps: { arrow: true },
  },
};
