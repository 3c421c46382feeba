import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';

export type FormTextFieldProps<Values extends FieldValues, Output> = Omit<
  TextFieldProps,
  'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'error' | 'inputRef'
> & {
  control: Control<Values, unknown, Output>;
  name: Path<Values>;
};

/**
 * An MUI TextField bound to a react-hook-form field (see hooks/use-zod-form): the field's first error
 * replaces the helper text and marks the field invalid (aria-invalid, linked by aria-describedby).
 * The helper line is always there, empty when there is nothing to say.
 */
export function FormTextField<Values extends FieldValues, Output>({
  control,
  name,
  helperText,
  ...props
}: FormTextFieldProps<Values, Output>) {
  const { field, fieldState } = useController<Values, Path<Values>, Output>({ control, name });
  return (
    <TextField
      {...props}
      name={field.name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      disabled={props.disabled ?? field.disabled}
      error={Boolean(fieldState.error)}
      // A blank line is kept for the message, so a message appearing on blur does not move what is
      // below it (a click that began on a button below would otherwise miss it).
      helperText={fieldState.error?.message ?? helperText ?? ' '}
    />
  );
}
