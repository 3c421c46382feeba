import { HintedTextField } from '@/components/form/hinted-text-field';

type CurrentPasswordFieldProps = {
  value: string;
  onChange: (value: string) => void;
  /** The server's or the form's complaint; the hint shows while there is none. */
  error: string | undefined;
  hint: string;
  autoFocus?: boolean;
};

/** The account's current password, asked again before a change that needs it (new email, deletion). */
export function CurrentPasswordField({ autoFocus = false, ...field }: CurrentPasswordFieldProps) {
  return (
    <HintedTextField
      {...field}
      type="password"
      label="当前密码"
      autoComplete="current-password"
      autoFocus={autoFocus}
    />
  );
}
