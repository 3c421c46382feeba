import CheckCircleOutlineRounded from '@mui/icons-material/CheckCircleOutlineRounded';
import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { emailOnlyRequestSchema, LIMITS, type VerifyEmailRequest, verifyEmailRequestSchema } from '@radar/shared';
import { type ReactNode, useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { FormTextField } from '@/components/form/form-text-field';
import { Page } from '@/components/page/page';
import { paths } from '@/config/paths';
import { useCountdown, useSecondsUntil } from '@/hooks/use-countdown';
import { useZodForm } from '@/hooks/use-zod-form';
import { formatCountdown } from '@/lib/countdown';
import { useVerificationStatus } from '../api/get-verification-status';
import { useResendVerificationCode } from '../api/resend-verification-code';
import { useVerifyEmail } from '../api/verify-email';
import { AuthCard } from '../components/auth-card';
import { EmailFormField } from '../components/auth-form-parts';
import { VerifyHelpBox } from '../components/verify-help-box';
import { useAuth } from '../hooks/use-auth';
import { AUTH_STRINGS } from '../strings';
import { describeResendError, describeVerifyError } from '../utils/auth-errors';
import type { VerifyFormValues } from '../utils/auth-form-schemas';

const t = AUTH_STRINGS.verify;

/** After a successful verification the user goes to /my after 2 s. */
const REDIRECT_MS = 2000;

type Panel = { kind: 'input' } | { kind: 'verifying' } | { kind: 'success' } | { kind: 'error'; message: string };
/** A notice answers one attempt for one address (`email`, normalised; '' when none was typed). */
type Notice = { severity: 'success' | 'error' | 'info'; message: string; email: string };

/** How long the typed address must stay unchanged before its verification status is fetched. */
const STATUS_LOOKUP_DELAY_MS = 600;

const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * /verify-email?email=&from=. Panels: input -> verifying -> success
 * (signed in, /my after 2 s) or error -> input again via 're-verify'. The code's time left (m:ss,
 * 'expired' at 0), the attempts left and the resend cooldown come from GET verification-status; the
 * code input is disabled when no attempt is left.
 */
export function VerifyEmailPage() {
  const [searchParams] = useSearchParams();
  const queryEmail = searchParams.get('email')?.trim() ?? '';
  const fromRegister = searchParams.get('from') === 'register';
  const navigate = useNavigate();
  const { signIn } = useAuth();

  const form = useZodForm<VerifyFormValues, VerifyEmailRequest>({
    schema: verifyEmailRequestSchema,
    defaultValues: { email: queryEmail, verification_code: '' },
  });
  const [panel, setPanel] = useState<Panel>({ kind: 'input' });
  const [notice, setNotice] = useState<Notice | null>(null);
  /** The address whose code the status line describes: the link's, then the one last verified or resent. */
  const [statusEmail, setStatusEmail] = useState(() => normaliseEmail(queryEmail));

  const status = useVerificationStatus(statusEmail);
  const verifyMutation = useVerifyEmail();
  const resendMutation = useResendVerificationCode();
  const localCooldown = useCountdown();

  const typedEmail = useWatch({ control: form.control, name: 'email' });
  const currentEmail = normaliseEmail(typedEmail ?? '');
  // The status belongs to one address: once another is typed, its countdown and attempts no longer apply.
  const data = currentEmail === statusEmail ? status.data : undefined;
  const codeSeconds = useSecondsUntil(data ? status.dataUpdatedAt + data.remaining_time * 1000 : null);
  const statusCooldown = useSecondsUntil(data ? status.dataUpdatedAt + data.resend_available_in * 1000 : null);
  const resendSeconds = Math.max(statusCooldown, localCooldown.seconds);
  const noAttemptsLeft = data !== undefined && data.remaining_attempts <= 0;
  const codeExpired = data?.has_verification_code === true && codeSeconds === 0;
  // A notice goes when the address it answered is no longer the one typed (请先输入邮箱地址 once one is
  // typed), and 验证码已发送 goes once that code has expired: it would contradict 已过期 beside it.
  const shownNotice =
    notice && notice.email === currentEmail && !(notice.severity === 'success' && codeExpired) ? notice : null;

  // An address typed by hand (not from the link) gets its status too, once the typing pauses and it is
  // a valid address: the countdown and attempts then describe what the reader sees.
  useEffect(() => {
    const parsed = emailOnlyRequestSchema.safeParse({ email: typedEmail ?? '' });
    if (!parsed.success || parsed.data.email === statusEmail) return;
    const timer = setTimeout(() => setStatusEmail(parsed.data.email), STATUS_LOOKUP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typedEmail, statusEmail]);

  useEffect(() => {
    if (panel.kind !== 'success') return;
    const timer = setTimeout(() => navigate(paths.my.getHref(), { replace: true }), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [panel.kind, navigate]);

  const onSubmit = form.handleSubmit(async (values) => {
    setNotice(null);
    setStatusEmail(values.email);
    setPanel({ kind: 'verifying' });
    try {
      const session = await verifyMutation.mutateAsync(values);
      await signIn({ token: session.token, email: session.user.email });
      setPanel({ kind: 'success' });
    } catch (error) {
      setPanel({ kind: 'error', message: describeVerifyError(error).message });
    }
  });

  const resend = async () => {
    setNotice(null);
    const typed = form.getValues('email').trim();
    const email = normaliseEmail(typed);
    if (typed === '') {
      setNotice({ severity: 'error', message: t.enterEmailFirst, email });
      return;
    }
    const parsed = emailOnlyRequestSchema.safeParse({ email: typed });
    if (!parsed.success) {
      setNotice({ severity: 'error', message: parsed.error.issues[0]?.message ?? t.resendFailed, email });
      return;
    }
    setStatusEmail(parsed.data.email);
    try {
      const result = await resendMutation.mutateAsync(parsed.data);
      localCooldown.start(result.resend_available_in);
      setNotice({ severity: 'success', message: result.message || t.resent, email });
      form.resetField('verification_code');
    } catch (error) {
      const failure = describeResendError(error);
      if (failure.waitSeconds) localCooldown.start(failure.waitSeconds);
      setNotice({ severity: 'error', message: failure.message, email });
    }
  };

  const reverify = () => {
    form.resetField('verification_code');
    setPanel({ kind: 'input' });
  };

  return (
    <Page title={t.title} subtitle={t.subtitle} maxWidth="sm">
      {fromRegister && queryEmail && panel.kind !== 'success' ? (
        <Alert severity="success" data-testid="verify-registered-banner" sx={{ mb: 3 }}>
          <AlertTitle>{t.registeredTitle}</AlertTitle>
          {t.registered(queryEmail)}
        </Alert>
      ) : null}
      <AuthCard testId="verify-card">
        <Box data-testid="verify-panel" data-panel={panel.kind}>
          {panel.kind === 'input' ? (
            <Stack component="form" noValidate onSubmit={onSubmit} spacing={1.5} aria-label={t.title}>
              {shownNotice ? (
                <Alert severity={shownNotice.severity} data-testid="verify-notice">
                  {shownNotice.message}
                </Alert>
              ) : null}
              <EmailFormField control={form.control} name="email" />
              <FormTextField
                control={form.control}
                name="verification_code"
                label={t.code}
                placeholder={t.codePlaceholder}
                autoComplete="one-time-code"
                disabled={noAttemptsLeft}
                slotProps={{
                  htmlInput: {
                    inputMode: 'numeric',
                    maxLength: LIMITS.verificationCodeLength,
                    'data-testid': 'verify-code-input',
                    style: { letterSpacing: '0.4em', fontVariantNumeric: 'tabular-nums' },
                  },
                }}
              />
              {data ? (
                <CodeStatus
                  hasCode={data.has_verification_code}
                  codeSeconds={codeSeconds}
                  attempts={data.remaining_attempts}
                />
              ) : null}
              {noAttemptsLeft || codeExpired ? (
                <Alert severity="warning" data-testid="verify-code-unavailable">
                  {!data?.has_verification_code ? t.noCode : noAttemptsLeft ? t.locked : t.codeExpired}
                </Alert>
              ) : null}
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
                <Button
                  type="submit"
                  variant="contained"
                  size="large"
                  // An expired code can only be refused: the reader's next step is 重新发送验证码.
                  disabled={noAttemptsLeft || codeExpired}
                  data-testid="verify-submit"
                  sx={{ flex: 1 }}
                >
                  {t.submit}
                </Button>
                <Button
                  variant="outlined"
                  size="large"
                  onClick={() => void resend()}
                  disabled={resendSeconds > 0 || resendMutation.isPending}
                  data-testid="verify-resend"
                  startIcon={resendMutation.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
                  sx={{ flex: 1 }}
                >
                  {resendSeconds > 0 ? t.resendWait(resendSeconds) : t.resend}
                </Button>
              </Stack>
            </Stack>
          ) : panel.kind === 'verifying' ? (
            <Box role="status" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 4 }}>
              <CircularProgress />
              <Typography>{t.verifying}</Typography>
            </Box>
          ) : panel.kind === 'success' ? (
            <ResultPanel
              icon={<CheckCircleOutlineRounded color="success" sx={{ fontSize: 56 }} />}
              title={t.successTitle}
              message={t.successRedirect}
              action={
                <Button variant="contained" onClick={() => navigate(paths.my.getHref(), { replace: true })}>
                  {t.goNow}
                </Button>
              }
            />
          ) : (
            <ResultPanel
              icon={<ErrorOutlineRounded color="error" sx={{ fontSize: 56 }} />}
              title={t.errorTitle}
              message={panel.message}
              testId="verify-error-message"
              action={
                <Button variant="contained" onClick={reverify} data-testid="verify-retry" autoFocus>
                  {t.retry}
                </Button>
              }
            />
          )}
        </Box>
        <VerifyHelpBox />
      </AuthCard>
    </Page>
  );
}

function CodeStatus({ hasCode, codeSeconds, attempts }: { hasCode: boolean; codeSeconds: number; attempts: number }) {
  if (!hasCode) return null;
  return (
    <Stack
      direction="row"
      spacing={2}
      sx={{ justifyContent: 'space-between', flexWrap: 'wrap', color: 'text.secondary', typography: 'body2' }}
    >
      <span data-testid="verify-code-countdown" data-seconds={codeSeconds}>
        {t.codeValidFor}：
        <Box
          component="span"
          sx={{
            fontWeight: 600,
            fontVariantNumeric: 'tabular-nums',
            color: codeSeconds > 0 ? 'text.primary' : 'error.main',
          }}
        >
          {codeSeconds > 0 ? formatCountdown(codeSeconds) : t.expired}
        </Box>
      </span>
      <span data-testid="verify-attempts" data-attempts={attempts}>
        {t.attemptsLeft(attempts)}
      </span>
    </Stack>
  );
}

function ResultPanel({
  icon,
  title,
  message,
  action,
  testId,
}: {
  icon: ReactNode;
  title: string;
  message: string;
  action: ReactNode;
  testId?: string;
}) {
  return (
    <Box
      role="status"
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: 1.5, py: 2 }}
    >
      {icon}
      <Typography variant="h5" component="h2">
        {title}
      </Typography>
      <Typography color="text.secondary" data-testid={testId}>
        {message}
      </Typography>
      <Box sx={{ mt: 1 }}>{action}</Box>
    </Box>
  );
}
