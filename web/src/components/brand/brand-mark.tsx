import RadarRounded from '@mui/icons-material/RadarRounded';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { APP_NAME } from '@/config/app';

/** Logo tile and product name, used in the drawer header and the mobile top bar. */
export function BrandMark() {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25 }}>
      <Box
        aria-hidden
        sx={{
          display: 'grid',
          placeItems: 'center',
          width: 34,
          height: 34,
          borderRadius: 2,
          color: 'primary.contrastText',
          background: (theme) =>
            `linear-gradient(135deg, ${theme.palette.primary.light}, ${theme.palette.primary.dark})`,
        }}
      >
        <RadarRounded fontSize="small" />
      </Box>
      <Typography variant="h6" component="span" sx={{ fontWeight: 700, letterSpacing: '0.04em' }}>
        {APP_NAME}
      </Typography>
    </Box>
  );
}
