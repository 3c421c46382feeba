import type { Components, Theme } from '@mui/material/styles';

/** Buttons and form controls. */
export const inputsCustomizations: Components<Theme> = {
  MuiButtonBase: {
    defaultProps: { disableTouchRipple: true },
  },
  MuiButton: {
    defaultProps: { disableElevation: true },
    styleOverrides: {
      root: ({ theme }) => ({
        borderRadius: theme.shape.borderRadius,
        paddingInline: theme.spacing(2),
      }),
      sizeLarge: ({ theme }) => ({
        paddingBlock: theme.spacing(1.25),
        paddingInline: theme.spacing(3),
        fontSize: '1rem',
      }),
    },
  },
  MuiIconButton: {
    styleOverrides: {
      root: ({ theme }) => ({ borderRadius: theme.shape.borderRadius }),
    },
  },
  MuiTextField: {
    defaultProps: { fullWidth: true },
  },
  MuiOutlinedInput: {
    styleOverrides: {
      root: ({ theme }) => ({
        backgroundColor: theme.palette.background.paper,
      }),
    },
  },
};
