import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ChangePasswordRequest, changePasswordRequestSchema, newPasswordSchema } from '@radar/shared';
import { useState } from 'react';
import { FormTextField } from '@/components/form/form-text-field';
import { useZodForm } from '@/hooks/use-zod-form';
import { getErrorMessage } from '@/lib/api-client';
import { isCommonPassword } from '@/lib/common-passwords';
import { setServerFieldErrors } from '@/lib/form-errors';
import { useChangePassword } from '../hooks/use-sessions';
import { SECURITY_STRINGS } from '../security-strings';

const STRINGS = SECURITY_STRINGS.password;

type Values = { current_password: string; password: string; confirm_password: string };
const EMPTY: Values = { current_password: '', password: '', confirm_password: '' };

/** The server's rules, plus the common-password check the browser can make too (as on register and reset). */
const formSchema = changePasswordRequestSchema.safeExtend({
  password: newPasswordSchema.refine((password) => !isCommonPassword(password), { message: STRINGS.commonPassword }),
});

/**
 * Change the password with the current one. On success the other devices are logged out (the server
 * says how many) and the form empties; a wrong current password is shown on that field.
 */
export function PasswordChangeForm({ onNotify }: { onNotify: (message: string) => void }) {
  const form = useZodForm<Values, ChangePasswordRequest>({ schema: formSchema, defaultValues: EMPTY });
  const [failure, setFailure] = useState<string | null>(null);
  const change = useChangePassword((message) => {
    form.reset(EMPTY);
    onNotify(message);
  });
  const isBusy = change.isPending || form.formState.isSubmitting;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await change.mutateAsync(values);
    } catch (error) {
      if (setServerFieldErrors(error, form.setError, ['current_password', 'password', 'confirm_password'])) return;
      setFailure(getErrorMessage(error));
    }
  });

  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={1} aria-label={STRINGS.title}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {STRINGS.title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ pb: 1 }}>
        {STRINGS.hint}
      </Typography>
      {failure ? (
        <Alert severity="error" data-testid="password-change-error">
          {failure}
        </Alert>
      ) : null}
      {(['current_password', 'password', 'confirm_password'] as const).map((name) => (
        <FormTextField
          key={name}
          control={form.control}
          name={name}
          type="password"
          label={{ current_password: STRINGS.current, password: STRINGS.next, confirm_password: STRINGS.confirm }[name]}
          autoComplete={name === 'current_password' ? 'current-password' : 'new-password'}
          disabled={isBusy}
          fullWidth
          size="small"
        />
      ))}
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" loading={isBusy} data-testid="password-change-submit">
          {isBusy ? STRINGS.submitting : STRINGS.submit}
        </Button>
      </Stack>
    </Stack>
  );
}
