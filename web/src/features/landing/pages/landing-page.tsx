import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { DEFAULT_ERROR_MESSAGES } from '@radar/shared';
import { Link as RouterLink } from 'react-router-dom';
import { APP_NAME } from '@/config/app';
import { paths } from '@/config/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { createReturnState } from '@/lib/navigation-state';
import { CoreFeaturesSection, RecommendationFeaturesSection } from '../components/landing-features';
import { LandingHero } from '../components/landing-hero';
import { LandingSteps } from '../components/landing-steps';

type LandingPageProps = {
  isAuthenticated: boolean;
  /** Set when the guard redirected an anonymous visitor here from a protected path. */
  redirectedFrom?: string;
  /** The server ended the reader's session (a 401): the login expired, rather than never existed. */
  hasSessionExpired?: boolean;
  /** The reader has just deleted their account from /my. */
  wasAccountDeleted?: boolean;
};

/** /: what the product does, with sign-up and login calls to action. */
export function LandingPage({
  isAuthenticated,
  redirectedFrom,
  hasSessionExpired = false,
  wasAccountDeleted = false,
}: LandingPageProps) {
  useDocumentTitle('论文与学术新闻智能推荐');
  const showLoginHint = !isAuthenticated && (redirectedFrom !== undefined || hasSessionExpired);

  return (
    <Box>
      {wasAccountDeleted && !isAuthenticated ? (
        <Alert severity="success" square data-testid="landing-account-deleted">
          你的账户和全部数据已删除。感谢你使用科研雷达。
        </Alert>
      ) : null}
      {showLoginHint ? (
        <Alert
          severity="info"
          square
          data-testid="landing-login-required"
          action={
            <Button
              component={RouterLink}
              to={paths.login.getHref()}
              state={redirectedFrom === undefined ? undefined : createReturnState(redirectedFrom)}
              color="inherit"
              size="small"
            >
              去登录
            </Button>
          }
        >
          {hasSessionExpired ? DEFAULT_ERROR_MESSAGES.AUTH_EXPIRED : '该页面需要登录后访问。'}
        </Alert>
      ) : null}
      <LandingHero isAuthenticated={isAuthenticated} redirectedFrom={redirectedFrom} />
      <CoreFeaturesSection />
      <RecommendationFeaturesSection />
      <LandingSteps />
      <Divider />
      <Container component="footer" maxWidth="lg" sx={{ py: 4 }}>
        <Box
          sx={{
            display: 'flex',
            flexDirection: { xs: 'column', sm: 'row' },
            gap: 1,
            justifyContent: 'space-between',
            alignItems: { sm: 'center' },
          }}
        >
          <Typography variant="body2" color="text.secondary">
            {APP_NAME} · 可自行部署的科研助手
          </Typography>
          <Link component={RouterLink} to={paths.contact.getHref()} variant="body2">
            联系我们
          </Link>
        </Box>
      </Container>
    </Box>
  );
}
