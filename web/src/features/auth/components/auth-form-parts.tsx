import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FieldValues, Path } from 'react-hook-form';
import { Link as RouterLink } from 'react-router-dom';
import { FormTextField, type FormTextFieldProps } from '@/components/form/form-text-field';
import { AUTH_STRINGS } from '../strings';
import { PasswordFormField } from './password-form-field';
import { PasswordMatchHint, PasswordStrengthHint } from './password-hints';

/** The email input of every auth form (the browser's email keyboard and autofill). */
export function EmailFormField<Values extends FieldValues, Output>(
  props: Omit<FormTextFieldProps<Values, Output>, 'label' | 'type' | 'autoComplete' | 'placeholder'>,
) {
  return (
    <FormTextField
      {...props}
      label={AUTH_STRINGS.common.email}
      type="email"
      autoComplete="email"
      placeholder={AUTH_STRINGS.common.emailPlaceholder}
    />
  );
}

type NewPasswordFieldsProps<Values extends FieldValues, Output> = {
  control: FormTextFieldProps<Values, Output>['control'];
  passwordName: Path<Values>;
  confirmationName: Path<Values>;
  passwordLabel: string;
  confirmationLabel: string;
  /** The typed values, for the strength and match hints. */
  password: string;
  confirmation: string;
  disabled: boolean;
};

/** A new password with its rules and strength hint, and its confirmation with the match hint. */
export function NewPasswordFields<Values extends FieldValues, Output>({
  control,
  passwordName,
  confirmationName,
  passwordLabel,
  confirmationLabel,
  password,
  confirmation,
  disabled,
}: NewPasswordFieldsProps<Values, Output>) {
  return (
    <>
      <Box>
        <PasswordFormField
          control={control}
          name={passwordName}
          label={passwordLabel}
          autoComplete="new-password"
          helperText={AUTH_STRINGS.register.passwordRules}
          disabled={disabled}
        />
        <PasswordStrengthHint password={password} />
      </Box>
      <PasswordFormField
        control={control}
        name={confirmationName}
        label={confirmationLabel}
        autoComplete="new-password"
        helperText={<PasswordMatchHint password={password} confirmation={confirmation} />}
        disabled={disabled}
      />
    </>
  );
}

type SubmitButtonProps = {
  isSubmitting: boolean;
  /** Disabled for another reason than a request under way. */
  disabled?: boolean;
  /** Every auth page's strings carry the two labels, so a page passes its own. */
  labels: { submit: string; submitting: string };
  testId: string;
};

/** A form's main button; shows a spinner and the running label while the request is under way. */
export function SubmitButton({ isSubmitting, disabled = false, labels, testId }: SubmitButtonProps) {
  return (
    <Button
      type="submit"
      variant="contained"
      size="large"
      disabled={isSubmitting || disabled}
      data-testid={testId}
      startIcon={isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
    >
      {isSubmitting ? labels.submitting : labels.submit}
    </Button>
  );
}

type SwitchFormPromptProps = {
  prompt: string;
  label: string;
  to: string;
  /** Navigation state carried to the other form (the typed email, where to return). */
  state?: unknown;
  testId: string;
};

/** Below a form: "no account yet? register" and the like, after a divider. */
export function SwitchFormPrompt({ prompt, label, to, state, testId }: SwitchFormPromptProps) {
  return (
    <>
      <Divider sx={{ my: 3 }} />
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ alignItems: 'center', justifyContent: 'center' }}
      >
        <Typography variant="body2" color="text.secondary">
          {prompt}
        </Typography>
        <Button component={RouterLink} to={to} state={state} variant="outlined" data-testid={testId}>
          {label}
        </Button>
      </Stack>
    </>
  );
}
