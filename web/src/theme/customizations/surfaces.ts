import type { Components, Theme } from '@mui/material/styles';

/** Cards and paper: flat, outlined surfaces. */
export const surfacesCustomizations: Components<Theme> = {
  MuiPaper: {
    defaultProps: { elevation: 0 },
  },
  MuiCard: {
    defaultProps: { variant: 'outlined' },
    styleOverrides: {
      root: ({ theme }) => ({
        borderRadius: (theme.shape.borderRadius as number) * 1.5,
        borderColor: theme.palette.divider,
      }),
    },
  },
  MuiCardContent: {
    styleOverrides: {
      root: ({ theme }) => ({
        padding: theme.spacing(3),
        '&:last-child': { paddingBottom: theme.spacing(3) },
      }),
    },
  },
};
