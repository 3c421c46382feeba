import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { type LoginRequest, loginRequestSchema } from '@radar/shared';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Navigate, Link as RouterLink, useLocation, useSearchParams } from 'react-router-dom';
import { PageLoader } from '@/components/feedback/page-loader';
import { Page } from '@/components/page/page';
import { paths } from '@/config/paths';
import { useZodForm } from '@/hooks/use-zod-form';
import { createAuthNavigationState, getReturnTarget, getStateEmail } from '@/lib/navigation-state';
import { useLogin } from '../api/login';
import { AuthCard } from '../components/auth-card';
import { EmailFormField, SubmitButton, SwitchFormPrompt } from '../components/auth-form-parts';
import { PasswordFormField } from '../components/password-form-field';
import { useAuth } from '../hooks/use-auth';
import { AUTH_STRINGS } from '../strings';
import { describeLoginError, type LoginFailure } from '../utils/auth-errors';
import type { LoginFormValues } from '../utils/auth-form-schemas';
import { getPostLoginTarget } from '../utils/return-target';

const t = AUTH_STRINGS.login;

/**
 * /login: email and password with a show/hide toggle; submit stays disabled
 * while either is empty. The email may come prefilled from the query (`?email=`) or navigation state.
 * A signed-in user (already, or after this login) goes to the originating route or /my.
 */
export function LoginPage() {
  const { status, signIn } = useAuth();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const from = getReturnTarget(location.state);
  const initialEmail = searchParams.get('email')?.trim() || getStateEmail(location.state) || '';

  const form = useZodForm<LoginFormValues, LoginRequest>({
    schema: loginRequestSchema,
    defaultValues: { email: initialEmail, password: '' },
  });
  const [email, password] = useWatch({ control: form.control, name: ['email', 'password'] });
  const loginMutation = useLogin();
  const [failure, setFailure] = useState<LoginFailure | null>(null);

  if (status === 'authenticated') return <Navigate to={getPostLoginTarget(location.state)} replace />;
  // A stored token is being checked: wait rather than show a form that may be left at once.
  if (status === 'loading') return <PageLoader />;

  const isSubmitting = loginMutation.isPending || form.formState.isSubmitting;
  const canSubmit = email.trim() !== '' && password !== '' && !isSubmitting;
  const carriedState = createAuthNavigationState({ email, from });

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const session = await loginMutation.mutateAsync(values);
      // The session change re-renders this page, which then redirects (see above).
      await signIn({ token: session.token, email: session.user.email });
    } catch (error) {
      setFailure(describeLoginError(error));
    }
  });

  return (
    <Page title={t.title} subtitle={t.subtitle} maxWidth="sm">
      <AuthCard testId="login-card">
        <Stack component="form" noValidate onSubmit={onSubmit} spacing={1.5} aria-label={t.title}>
          {failure ? (
            <Alert
              severity="error"
              data-testid="login-error"
              action={
                failure.needsVerification ? (
                  <Button
                    component={RouterLink}
                    to={paths.verifyEmail.getHref({ email: email.trim() })}
                    color="inherit"
                    size="small"
                  >
                    {t.verifyNow}
                  </Button>
                ) : undefined
              }
            >
              {failure.message}
            </Alert>
          ) : null}
          <EmailFormField control={form.control} name="email" autoFocus={initialEmail === ''} />
          <PasswordFormField
            control={form.control}
            name="password"
            label={AUTH_STRINGS.common.password}
            autoComplete="current-password"
            autoFocus={initialEmail !== ''}
          />
          <Link
            component={RouterLink}
            to={paths.forgotPassword.getHref()}
            state={carriedState}
            variant="body2"
            data-testid="login-forgot-password"
            sx={{ alignSelf: 'flex-end', mt: '-8px !important' }}
          >
            {t.forgotPassword}
          </Link>
          <SubmitButton isSubmitting={isSubmitting} disabled={!canSubmit} labels={t} testId="login-submit" />
        </Stack>
        <SwitchFormPrompt
          prompt={t.noAccount}
          label={t.register}
          to={paths.register.getHref()}
          state={carriedState}
          testId="login-register"
        />
      </AuthCard>
    </Page>
  );
}
