import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** Placeholder while a route chunk or the session is loading. */
export function PageLoader() {
  return (
    <Box
      role="status"
      aria-label="加载中"
      data-testid="page-loader"
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: '40vh' }}
    >
      <CircularProgress size={32} />
    </Box>
  );
}
