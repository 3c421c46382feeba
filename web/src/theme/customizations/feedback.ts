import type { Components, Theme } from '@mui/material/styles';

/** Dialogs, alerts and progress. */
export const feedbackCustomizations: Components<Theme> = {
  MuiDialog: {
    styleOverrides: {
      paper: ({ theme }) => ({
        borderRadius: (theme.shape.borderRadius as number) * 1.5,
        boxShadow: theme.shadows[8],
      }),
    },
  },
  MuiDialogActions: {
    styleOverrides: {
      root: ({ theme }) => ({ padding: theme.spacing(1.5, 3, 2.5) }),
    },
  },
  MuiAlert: {
    styleOverrides: {
      root: ({ theme }) => ({ borderRadius: theme.shape.borderRadius, alignItems: 'center' }),
    },
  },
};
