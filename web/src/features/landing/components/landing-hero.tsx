import ArrowForwardRounded from '@mui/icons-material/ArrowForwardRounded';
import AutoAwesomeRounded from '@mui/icons-material/AutoAwesomeRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { APP_NAME, APP_TAGLINE_PHRASES } from '@/config/app';
import { paths } from '@/config/paths';
import { createReturnState } from '@/lib/navigation-state';

type LandingHeroProps = {
  isAuthenticated: boolean;
  /** Path a guard sent the visitor away from; login returns there. */
  redirectedFrom?: string;
};

export function LandingHero({ isAuthenticated, redirectedFrom }: LandingHeroProps) {
  return (
    <Box
      component="section"
      aria-labelledby="landing-title"
      sx={(theme) => ({
        position: 'relative',
        overflow: 'hidden',
        background: `radial-gradient(1200px 500px at 85% -10%, ${alpha(theme.palette.primary.light, 0.28)}, transparent 60%),
          radial-gradient(900px 420px at -10% 110%, ${alpha(theme.palette.secondary.light, 0.22)}, transparent 60%),
          ${theme.palette.background.paper}`,
        borderBottom: `1px solid ${theme.palette.divider}`,
      })}
    >
      <Container maxWidth="lg" sx={{ py: { xs: 6, md: 10 } }}>
        <Box
          sx={{
            display: 'grid',
            gap: { xs: 5, md: 6 },
            alignItems: 'center',
            gridTemplateColumns: { xs: '1fr', lg: '1.1fr 0.9fr' },
          }}
        >
          <Box>
            <Chip
              icon={<AutoAwesomeRounded />}
              label="面向科研工作者的个性化推荐"
              color="primary"
              variant="outlined"
              sx={{ mb: 3, bgcolor: 'background.paper' }}
            />
            <Typography
              id="landing-title"
              variant="h1"
              sx={{ fontSize: { xs: '2.5rem', md: '3.5rem' }, letterSpacing: '0.06em' }}
            >
              {APP_NAME}
            </Typography>
            <Typography
              variant="h2"
              component="p"
              sx={{ mt: 2, fontSize: { xs: '1.375rem', md: '1.75rem' }, fontWeight: 600, textWrap: 'balance' }}
            >
              {APP_TAGLINE_PHRASES.map((phrase) => (
                // Chinese breaks between any two characters; each phrase stays whole on its line.
                <Box key={phrase} component="span" sx={{ display: 'inline-block' }}>
                  {phrase}
                </Box>
              ))}
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 2, maxWidth: 560, fontSize: { md: '1.0625rem' } }}>
              填写一次研究方向，{APP_NAME}
              会持续为你筛选相关的最新论文与学术新闻，并附上简明摘要，帮你把时间留给真正值得读的内容。
            </Typography>

            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 4 }}>
              {isAuthenticated ? (
                <CallToAction to={paths.papers.getHref()} primary testId="landing-cta-papers">
                  进入论文推荐
                </CallToAction>
              ) : (
                <>
                  <CallToAction to={paths.register.getHref()} primary testId="landing-cta-register">
                    注册
                  </CallToAction>
                  <CallToAction
                    to={paths.login.getHref()}
                    state={redirectedFrom ? createReturnState(redirectedFrom) : undefined}
                    testId="landing-cta-login"
                  >
                    登录
                  </CallToAction>
                </>
              )}
            </Stack>
          </Box>

          <SamplePaperCard />
        </Box>
      </Container>
    </Box>
  );
}

type CallToActionProps = {
  to: string;
  state?: unknown;
  /** The filled button with an arrow; the other is outlined on the paper colour. */
  primary?: boolean;
  testId: string;
  children: string;
};

/** A large link button below the hero's text. */
function CallToAction({ to, state, primary = false, testId, children }: CallToActionProps) {
  return (
    <Button
      component={RouterLink}
      to={to}
      state={state}
      variant={primary ? 'contained' : 'outlined'}
      size="large"
      endIcon={primary ? <ArrowForwardRounded /> : undefined}
      sx={primary ? undefined : { bgcolor: 'background.paper' }}
      data-testid={testId}
    >
      {children}
    </Button>
  );
}

/** An illustration of a recommendation card, labelled as an example so nobody mistakes it for data. */
function SamplePaperCard() {
  return (
    <Box
      aria-hidden
      sx={{ display: { xs: 'none', sm: 'block' }, position: 'relative', maxWidth: 520, mx: 'auto', width: '100%' }}
    >
      <Paper
        variant="outlined"
        sx={(theme) => ({
          position: 'absolute',
          inset: 0,
          transform: 'translate(18px, 18px) rotate(2deg)',
          borderRadius: 3,
          bgcolor: alpha(theme.palette.primary.main, 0.06),
        })}
      />
      <Paper
        variant="outlined"
        sx={(theme) => ({
          position: 'relative',
          p: 3,
          borderRadius: 3,
          boxShadow: `0 24px 48px -24px ${alpha(theme.palette.primary.dark, 0.35)}`,
        })}
      >
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5 }}>
          <Chip label="示例" size="small" />
          <Typography variant="caption" color="text.secondary">
            推荐卡片预览
          </Typography>
        </Stack>
        <Typography variant="h6" component="p" sx={{ color: 'primary.main', lineHeight: 1.4 }}>
          Graph Neural Networks for Molecular Property Prediction
        </Typography>
        <Box
          sx={(theme) => ({
            mt: 1.5,
            p: 1.5,
            borderRadius: 2,
            bgcolor: alpha(theme.palette.secondary.main, 0.08),
            borderLeft: `3px solid ${theme.palette.secondary.main}`,
          })}
        >
          <Typography variant="body2">
            AI 摘要：提出一种结合分子图结构与三维构象的图神经网络，在多个性质预测基准上优于现有方法。
          </Typography>
        </Box>
        <Stack direction="row" useFlexGap spacing={1} sx={{ mt: 2, flexWrap: 'wrap' }}>
          <Chip label="J. Chem. Inf. Model." size="small" variant="outlined" />
          <Chip label="JCR Q1" size="small" color="success" variant="outlined" />
          <Chip label="2天前" size="small" variant="outlined" />
          <Chip label="相似度 87.5%" size="small" color="primary" />
        </Stack>
      </Paper>
    </Box>
  );
}
