import TextField, { type TextFieldProps } from '@mui/material/TextField';

type HintedTextFieldProps = Omit<TextFieldProps, 'value' | 'onChange' | 'error' | 'helperText'> & {
  value: string;
  onChange: (value: string) => void;
  /** The server's or the form's complaint; the hint shows while there is none. */
  error: string | undefined;
  hint: string;
};

/** A full-width text field held in the caller's state, whose line below is its error, else its hint. */
export function HintedTextField({ value, onChange, error, hint, ...field }: HintedTextFieldProps) {
  return (
    <TextField
      fullWidth
      {...field}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error !== undefined}
      helperText={error ?? hint}
    />
  );
}
