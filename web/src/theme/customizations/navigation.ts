import type { Components, Theme } from '@mui/material/styles';
import { alpha } from '@mui/material/styles';

/** Drawer menu, app bar and links. */
export const navigationCustomizations: Components<Theme> = {
  MuiDrawer: {
    styleOverrides: {
      paper: ({ theme }) => ({
        backgroundColor: theme.palette.background.paper,
        borderColor: theme.palette.divider,
      }),
    },
  },
  MuiAppBar: {
    defaultProps: { elevation: 0, color: 'inherit' },
    styleOverrides: {
      root: ({ theme }) => ({
        backgroundColor: theme.palette.background.paper,
        borderBottom: `1px solid ${theme.palette.divider}`,
      }),
    },
  },
  MuiListItemButton: {
    styleOverrides: {
      root: ({ theme }) => ({
        borderRadius: theme.shape.borderRadius,
        marginBottom: theme.spacing(0.5),
        color: theme.palette.text.secondary,
        '& .MuiListItemIcon-root': { color: 'inherit', minWidth: 36 },
        '&:hover': { backgroundColor: theme.palette.grey[100], color: theme.palette.text.primary },
        '&.Mui-selected': {
          backgroundColor: alpha(theme.palette.primary.main, 0.1),
          color: theme.palette.primary.main,
          '&:hover': { backgroundColor: alpha(theme.palette.primary.main, 0.14) },
        },
      }),
    },
  },
  MuiLink: {
    defaultProps: { underline: 'hover' },
  },
};
