import HelpOutlineRounded from '@mui/icons-material/HelpOutlineRounded';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { paths } from '@/config/paths';
import { AUTH_STRINGS } from '../strings';

const t = AUTH_STRINGS.verify;

/** The help box of the verify screen. */
export function VerifyHelpBox() {
  return (
    <Box
      component="aside"
      aria-labelledby="verify-help-title"
      data-testid="verify-help"
      sx={{ mt: 3, p: 2.5, borderRadius: 2, bgcolor: 'action.hover' }}
    >
      <Typography
        id="verify-help-title"
        variant="subtitle2"
        component="h2"
        sx={{ display: 'flex', alignItems: 'center', gap: 1 }}
      >
        <HelpOutlineRounded fontSize="small" color="primary" aria-hidden />
        {t.helpTitle}
      </Typography>
      <Box component="ul" sx={{ m: 0, mt: 1, pl: 3, color: 'text.secondary', typography: 'body2' }}>
        {t.help.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </Box>
      <Link component={RouterLink} to={paths.contact.getHref()} variant="body2" sx={{ display: 'inline-block', mt: 1 }}>
        {t.helpContact}
      </Link>
    </Box>
  );
}
