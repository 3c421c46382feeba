import TextField from '@mui/material/TextField';

type CurrentPasswordFieldProps = {
  value: string;
  onChange: (value: string) => void;
  /** The server's or the form's complaint; the hint shows while there is none. */
  error: string | undefined;
  hint: string;
  autoFocus?: boolean;
};

/** The account's current password, asked again before a change that needs it (new email, deletion). */
export function CurrentPasswordField({ value, onChange, error, hint, autoFocus = false }: CurrentPasswordFieldProps) {
  return (
    <TextField
      type="password"
      label="当前密码"
      autoComplete="current-password"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error !== undefined}
      helperText={error ?? hint}
      fullWidth
      autoFocus={autoFocus}
    />
  );
}
