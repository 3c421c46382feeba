import type { ThemeOptions } from '@mui/material/styles';

/**
 * Design tokens of the app (MUI shared-theme layout): colours, type, shape and breakpoints. Component
 * looks live in ./customizations, one file per component family; ./app-theme.tsx combines them.
 */

export const brand = {
  50: '#eef3ff',
  100: '#dce6fe',
  200: '#bccffd',
  300: '#8eaefb',
  400: '#5c86f6',
  500: '#3a63ef',
  600: '#1e4fd8',
  700: '#1b3fb0',
  800: '#1b368c',
  900: '#1b306f',
} as const;

export const teal = {
  100: '#ccfbf1',
  300: '#5eead4',
  500: '#14b8a6',
  700: '#0f766e',
} as const;

export const gray = {
  50: '#f7f8fa',
  100: '#eef0f4',
  200: '#e1e5eb',
  300: '#c9d0da',
  400: '#98a2b3',
  500: '#667085',
  600: '#4b5565',
  700: '#364152',
  800: '#202939',
  900: '#121926',
} as const;

/** Xs 0, sm 600, md 768, lg 1200, xl 1536. The shell switches drawers at md. */
export const breakpoints: ThemeOptions['breakpoints'] = {
  values: { xs: 0, sm: 600, md: 768, lg: 1200, xl: 1536 },
};

export const palette: ThemeOptions['palette'] = {
  mode: 'light',
  primary: { light: brand[400], main: brand[600], dark: brand[800], contrastText: '#fff' },
  secondary: { light: teal[300], main: teal[500], dark: teal[700], contrastText: '#fff' },
  grey: gray,
  divider: gray[200],
  background: { default: gray[50], paper: '#fff' },
  text: { primary: gray[900], secondary: gray[600] },
};

// System fonts only: the app is self-hosted and may run without internet access.
export const fontFamily = [
  '-apple-system',
  'BlinkMacSystemFont',
  '"Segoe UI"',
  'Roboto',
  '"PingFang SC"',
  '"Hiragino Sans GB"',
  '"Microsoft YaHei"',
  '"Noto Sans CJK SC"',
  '"Source Han Sans SC"',
  '"Helvetica Neue"',
  'Arial',
  'sans-serif',
].join(',');

export const typography: ThemeOptions['typography'] = {
  fontFamily,
  h1: { fontSize: '2.5rem', fontWeight: 700, lineHeight: 1.2, letterSpacing: 0 },
  h2: { fontSize: '2rem', fontWeight: 700, lineHeight: 1.25 },
  h3: { fontSize: '1.625rem', fontWeight: 700, lineHeight: 1.3 },
  h4: { fontSize: '1.375rem', fontWeight: 600, lineHeight: 1.35 },
  h5: { fontSize: '1.125rem', fontWeight: 600, lineHeight: 1.4 },
  h6: { fontSize: '1rem', fontWeight: 600, lineHeight: 1.5 },
  subtitle1: { fontSize: '1rem', lineHeight: 1.6 },
  subtitle2: { fontSize: '0.875rem', fontWeight: 600 },
  body1: { fontSize: '0.9375rem', lineHeight: 1.7 },
  body2: { fontSize: '0.875rem', lineHeight: 1.6 },
  button: { textTransform: 'none', fontWeight: 600 },
  caption: { fontSize: '0.75rem' },
};

export const shape: ThemeOptions['shape'] = { borderRadius: 8 };
