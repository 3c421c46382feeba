import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { emailOnlyRequestSchema, LIMITS } from '@radar/shared';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { Page } from '@/components/page/page';
import { paths } from '@/config/paths';
import { useSecondsUntil } from '@/hooks/use-countdown';
import { useZodForm } from '@/hooks/use-zod-form';
import { setServerFieldErrors } from '@/lib/form-errors';
import { createAuthNavigationState, getReturnTarget, getStateEmail } from '@/lib/navigation-state';
import { getLatestRetryEmail, getRetryDeadline, storeRetryDeadline } from '@/lib/retry-deadlines';
import { FORGOT_PASSWORD_RETRY_STORAGE_KEY } from '@/lib/session';
import { useForgotPassword } from '../api/forgot-password';
import { AuthCard } from '../components/auth-card';
import { EmailFormField, SubmitButton } from '../components/auth-form-parts';
import { AUTH_STRINGS } from '../strings';
import { describeForgotPasswordError } from '../utils/auth-errors';
import type { EmailFormValues } from '../utils/auth-form-schemas';

const t = AUTH_STRINGS.forgot;

/** localStorage key of the rate-limit deadlines per address (lib/retry-deadlines); logout clears it. */
const RETRY_DEADLINES_KEY = FORGOT_PASSWORD_RETRY_STORAGE_KEY;

/** After a mail is sent, the button is disabled this long for that address. */
const SENT_COOLDOWN_SECONDS = LIMITS.verificationResendCooldownSeconds;

/**
 * /forgot-password: email, send button, return-home button and a
 * contact-support link. A rate-limit answer disables the button for its remaining seconds, and a sent
 * mail for 60 s, kept across a reload for that address.
 */
export function ForgotPasswordPage() {
  const location = useLocation();
  const from = getReturnTarget(location.state);
  const form = useZodForm<EmailFormValues, { email: string }>({
    schema: emailOnlyRequestSchema,
    // After a reload during a rate limit, the address it applies to comes back with its countdown.
    defaultValues: { email: getStateEmail(location.state) ?? getLatestRetryEmail(RETRY_DEADLINES_KEY) ?? '' },
  });
  const email = useWatch({ control: form.control, name: 'email' });
  const forgotMutation = useForgotPassword();
  // The wait belongs to the address the server limited; read at each render, so typing another
  // address shows that one's (usually none), and a reload keeps the count.
  const waitSeconds = useSecondsUntil(getRetryDeadline(RETRY_DEADLINES_KEY, email ?? ''));
  const isWaiting = waitSeconds > 0;
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const isSubmitting = forgotMutation.isPending || form.formState.isSubmitting;

  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    setSentMessage(null);
    try {
      const result = await forgotMutation.mutateAsync(values);
      setSentMessage(result.message);
      // A second click would send a second mail: the button waits as long as the verification code's
      // resend does, for this address (kept across a reload like a rate-limit wait).
      storeRetryDeadline(RETRY_DEADLINES_KEY, values.email, Date.now() + SENT_COOLDOWN_SECONDS * 1000);
    } catch (failure) {
      if (setServerFieldErrors(failure, form.setError, ['email'])) return;
      const { message, waitSeconds } = describeForgotPasswordError(failure);
      setError(message);
      if (waitSeconds) storeRetryDeadline(RETRY_DEADLINES_KEY, values.email, Date.now() + waitSeconds * 1000);
    }
  });

  return (
    <Page title={t.title} subtitle={t.subtitle} maxWidth="sm">
      <AuthCard testId="forgot-password-card">
        <Stack component="form" noValidate onSubmit={onSubmit} spacing={1.5} aria-label={t.title}>
          {sentMessage ? (
            <Alert severity="success" data-testid="forgot-password-sent">
              <AlertTitle>{t.sentTitle}</AlertTitle>
              {sentMessage}
              <Typography variant="body2" sx={{ mt: 0.5 }}>
                {t.sentHint}
              </Typography>
            </Alert>
          ) : null}
          {error ? (
            <Alert severity="error" data-testid="forgot-password-error">
              {error}
            </Alert>
          ) : null}
          <EmailFormField control={form.control} name="email" />
          <SubmitButton
            isSubmitting={isSubmitting}
            disabled={isWaiting}
            labels={{ submit: isWaiting ? t.waitSeconds(waitSeconds) : t.submit, submitting: t.submitting }}
            testId="forgot-password-submit"
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <Button
              component={RouterLink}
              to={paths.home.getHref()}
              variant="outlined"
              data-testid="forgot-password-home"
              sx={{ flex: 1 }}
            >
              {AUTH_STRINGS.common.backHome}
            </Button>
            <Button
              component={RouterLink}
              to={paths.login.getHref()}
              state={createAuthNavigationState({ email, from })}
              variant="outlined"
              data-testid="forgot-password-login"
              sx={{ flex: 1 }}
            >
              {t.backToLogin}
            </Button>
          </Stack>
        </Stack>
        <Divider sx={{ my: 3 }} />
        <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
          {t.needHelp}
          <Link
            component={RouterLink}
            to={paths.contact.getHref()}
            sx={{ ml: 0.5 }}
            data-testid="forgot-password-contact"
          >
            {AUTH_STRINGS.common.contactSupport}
          </Link>
        </Typography>
      </AuthCard>
    </Page>
  );
}
