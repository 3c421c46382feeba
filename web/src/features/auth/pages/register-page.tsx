import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { RegisterRequest } from '@radar/shared';
import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { Page } from '@/components/page/page';
import { paths } from '@/config/paths';
import { useZodForm } from '@/hooks/use-zod-form';
import { createAuthNavigationState, getReturnTarget, getStateEmail } from '@/lib/navigation-state';
import { useRegister } from '../api/register';
import { AuthCard } from '../components/auth-card';
import { EmailFormField, NewPasswordFields, SubmitButton, SwitchFormPrompt } from '../components/auth-form-parts';
import { AUTH_STRINGS } from '../strings';
import { describeRegisterError } from '../utils/auth-errors';
import { type RegisterFormValues, registerFormSchema } from '../utils/auth-form-schemas';

const t = AUTH_STRINGS.register;

/**
 * /register: email, password with the strength hint, confirmation with
 * the match hint. The request may take up to 15 s (the button shows it is running). An address with a
 * verified account gets a warning offering to log in or use another email; success continues on
 * /verify-email?email=…&from=register.
 */
export function RegisterPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const from = getReturnTarget(location.state);
  const form = useZodForm<RegisterFormValues, RegisterRequest>({
    schema: registerFormSchema,
    defaultValues: { email: getStateEmail(location.state) ?? '', password: '', password2: '' },
  });
  const [email, password, password2] = useWatch({ control: form.control, name: ['email', 'password', 'password2'] });
  const registerMutation = useRegister();
  const [formError, setFormError] = useState<string | null>(null);
  /** The (normalised) address the server said is taken; the warning shows while the field still holds it. */
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);
  const showAlreadyRegistered = registeredEmail !== null && registeredEmail === email.trim().toLowerCase();

  // The confirmation is judged against the current password, so a changed password re-checks it.
  useEffect(() => {
    const subscription = form.watch((_values, { name }) => {
      if (name === 'password' && form.getFieldState('password2').isTouched) void form.trigger('password2');
    });
    return () => subscription.unsubscribe();
  }, [form]);

  const isSubmitting = registerMutation.isPending || form.formState.isSubmitting;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setRegisteredEmail(null);
    try {
      const result = await registerMutation.mutateAsync(values);
      navigate(paths.verifyEmail.getHref({ email: result.email, from: 'register' }));
    } catch (error) {
      const failure = describeRegisterError(error);
      if (failure.kind === 'already-registered') setRegisteredEmail(values.email);
      else if (failure.kind === 'field')
        form.setError(failure.field, { type: 'server', message: failure.message }, { shouldFocus: true });
      else setFormError(failure.message);
    }
  });

  const chooseAnotherEmail = () => {
    setRegisteredEmail(null);
    form.setValue('email', '');
    form.setFocus('email');
  };

  return (
    <Page title={t.title} subtitle={t.subtitle} maxWidth="sm">
      <AuthCard testId="register-card">
        <Stack
          component="form"
          noValidate
          onSubmit={onSubmit}
          spacing={2.5}
          aria-label={t.title}
          aria-busy={isSubmitting}
        >
          {formError ? (
            <Alert severity="error" data-testid="register-error">
              {formError}
            </Alert>
          ) : null}
          {showAlreadyRegistered ? (
            <Alert severity="warning" data-testid="register-already-registered">
              <AlertTitle>{t.alreadyRegisteredTitle}</AlertTitle>
              {t.alreadyRegistered}
              <Stack direction="row" spacing={1} sx={{ mt: 1.5, flexWrap: 'wrap', rowGap: 1 }}>
                <Button
                  component={RouterLink}
                  to={paths.login.getHref()}
                  state={createAuthNavigationState({ email: registeredEmail ?? undefined, from })}
                  variant="contained"
                  color="warning"
                  size="small"
                  data-testid="register-go-login"
                >
                  {t.goLogin}
                </Button>
                <Button
                  onClick={chooseAnotherEmail}
                  variant="outlined"
                  color="warning"
                  size="small"
                  data-testid="register-use-another-email"
                >
                  {t.useAnotherEmail}
                </Button>
              </Stack>
            </Alert>
          ) : null}
          <EmailFormField control={form.control} name="email" disabled={isSubmitting} />
          <NewPasswordFields
            control={form.control}
            passwordName="password"
            confirmationName="password2"
            passwordLabel={AUTH_STRINGS.common.password}
            confirmationLabel={t.confirmPassword}
            password={password}
            confirmation={password2}
            disabled={isSubmitting}
          />
          <SubmitButton isSubmitting={isSubmitting} labels={t} testId="register-submit" />
        </Stack>
        <SwitchFormPrompt
          prompt={t.hasAccount}
          label={t.login}
          to={paths.login.getHref()}
          state={createAuthNavigationState({ email, from })}
          testId="register-login"
        />
      </AuthCard>
    </Page>
  );
}
