import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import RefreshRounded from '@mui/icons-material/RefreshRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useLayoutEffect } from 'react';
import { endEarlyView } from '@/lib/early-view';

type ErrorFallbackProps = {
  title?: string;
  description?: string;
};

/** Shown by the error boundaries: what went wrong and a button that reloads the page. */
export function ErrorFallback({
  title = '页面出现了问题',
  description = '很抱歉，页面发生了意外错误。刷新页面通常可以解决；如果问题持续出现，请联系本站管理员。',
}: ErrorFallbackProps) {
  // An early view over the page would hide the failure (app/early-view).
  useLayoutEffect(endEarlyView, []);
  return (
    <Box
      role="alert"
      data-testid="error-fallback"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        gap: 2,
        minHeight: '60vh',
        px: 3,
      }}
    >
      <ErrorOutlineRounded color="error" sx={{ fontSize: 56 }} />
      <Typography variant="h4" component="h1">
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 480 }}>
        {description}
      </Typography>
      <Button
        variant="contained"
        startIcon={<RefreshRounded />}
        onClick={() => window.location.reload()}
        data-testid="error-reload"
      >
        刷新页面
      </Button>
    </Box>
  );
}
