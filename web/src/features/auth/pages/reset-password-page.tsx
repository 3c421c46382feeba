import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ResetPasswordRequest } from '@radar/shared';
import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { Page } from '@/components/page/page';
import { paths } from '@/config/paths';
import { useCountdown } from '@/hooks/use-countdown';
import { useZodForm } from '@/hooks/use-zod-form';
import { setServerFieldErrors } from '@/lib/form-errors';
import { useResetPassword } from '../api/reset-password';
import { AuthCard } from '../components/auth-card';
import { NewPasswordFields, SubmitButton } from '../components/auth-form-parts';
import { AUTH_STRINGS } from '../strings';
import { describeResetPasswordError } from '../utils/auth-errors';
import { type ResetPasswordFormValues, resetPasswordFormSchema } from '../utils/auth-form-schemas';

const t = AUTH_STRINGS.reset;

/** After a successful reset the user goes to / after 3 s. */
const REDIRECT_SECONDS = 3;

/**
 * /reset-password?token=: new password and confirmation, with a link to
 * request a new mail. Without a token it shows the invalid-link error; success returns to / after 3 s.
 */
export function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  return (
    <Page title={t.title} subtitle={t.subtitle} maxWidth="sm">
      <AuthCard testId="reset-password-card">
        {token ? <ResetPasswordForm token={token} /> : <InvalidLinkNotice />}
      </AuthCard>
    </Page>
  );
}

function InvalidLinkNotice() {
  return (
    <Stack spacing={2}>
      <Alert severity="error" data-testid="reset-password-invalid-link">
        {t.invalidLink}
      </Alert>
      <Button component={RouterLink} to={paths.forgotPassword.getHref()} variant="contained">
        {t.retry}
      </Button>
    </Stack>
  );
}

function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const form = useZodForm<ResetPasswordFormValues, ResetPasswordRequest>({
    schema: resetPasswordFormSchema,
    defaultValues: { token, password: '', confirm_password: '' },
  });
  const [password, confirmation] = useWatch({ control: form.control, name: ['password', 'confirm_password'] });
  const resetMutation = useResetPassword();
  const [failure, setFailure] = useState<{ message: string; invalidLink: boolean } | null>(null);
  const [doneMessage, setDoneMessage] = useState<string | null>(null);
  const redirect = useCountdown();

  useEffect(() => {
    const subscription = form.watch((_values, { name }) => {
      if (name === 'password' && form.getFieldState('confirm_password').isTouched)
        void form.trigger('confirm_password');
    });
    return () => subscription.unsubscribe();
  }, [form]);

  useEffect(() => {
    if (doneMessage === null) return;
    const timer = setTimeout(() => navigate(paths.home.getHref(), { replace: true }), REDIRECT_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [doneMessage, navigate]);

  const isSubmitting = resetMutation.isPending || form.formState.isSubmitting;
  // The token is not an input: a malformed one (too long) fails validation here, before any request.
  const tokenError = form.formState.errors.token;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const result = await resetMutation.mutateAsync(values);
      setDoneMessage(result.message);
      redirect.start(REDIRECT_SECONDS);
    } catch (error) {
      const described = describeResetPasswordError(error);
      if (!described.invalidLink && setServerFieldErrors(error, form.setError, ['password', 'confirm_password']))
        return;
      setFailure(described);
    }
  });

  if (doneMessage !== null) {
    return (
      <Stack spacing={2.5} data-testid="reset-password-success">
        <Alert severity="success">
          <AlertTitle>{t.successTitle}</AlertTitle>
          {doneMessage}
        </Alert>
        <Typography color="text.secondary" role="status">
          {t.redirecting(Math.max(redirect.seconds, 0))}
        </Typography>
        <Button component={RouterLink} to={paths.home.getHref()} replace variant="contained">
          {t.goHomeNow}
        </Button>
      </Stack>
    );
  }

  const showInvalidLink = failure?.invalidLink || Boolean(tokenError);
  return (
    <>
      <Stack component="form" noValidate onSubmit={onSubmit} spacing={1.5} aria-label={t.title}>
        {showInvalidLink ? (
          // The link to request a new mail is right below the form.
          <Alert severity="error" data-testid="reset-password-invalid-link">
            {t.invalidLink}
          </Alert>
        ) : failure ? (
          <Alert severity="error" data-testid="reset-password-error">
            {failure.message}
          </Alert>
        ) : null}
        <NewPasswordFields
          control={form.control}
          passwordName="password"
          confirmationName="confirm_password"
          passwordLabel={t.newPassword}
          confirmationLabel={t.confirmPassword}
          password={password}
          confirmation={confirmation}
          disabled={isSubmitting}
        />
        <SubmitButton isSubmitting={isSubmitting} labels={t} testId="reset-password-submit" />
      </Stack>
      <Divider sx={{ my: 3 }} />
      <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
        <Link component={RouterLink} to={paths.forgotPassword.getHref()} data-testid="reset-password-retry">
          {t.retry}
        </Link>
      </Typography>
    </>
  );
}
