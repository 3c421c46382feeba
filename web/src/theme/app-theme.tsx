import CssBaseline from '@mui/material/CssBaseline';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { dataDisplayCustomizations } from './customizations/data-display';
import { feedbackCustomizations } from './customizations/feedback';
import { inputsCustomizations } from './customizations/inputs';
import { navigationCustomizations } from './customizations/navigation';
import { surfacesCustomizations } from './customizations/surfaces';
import { breakpoints, palette, shape, typography } from './theme-primitives';

const appTheme = createTheme({
  breakpoints,
  palette,
  typography,
  shape,
  // Honour the system's 'reduce motion' setting: collapses, dialogs, drawers and snackbars then appear
  // without their transitions (vestibular disorders; WCAG 2.3.3). The browser tests run with it set.
  motion: { reducedMotion: 'system' },
  components: {
    ...inputsCustomizations,
    ...navigationCustomizations,
    ...surfacesCustomizations,
    ...feedbackCustomizations,
    ...dataDisplayCustomizations,
  },
});

/** The one theme of the app, with the CSS baseline. */
export function AppTheme({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={appTheme}>
      <CssBaseline enableColorScheme />
      {children}
    </ThemeProvider>
  );
}
