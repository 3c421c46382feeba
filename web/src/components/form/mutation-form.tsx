import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';

type MutationFormProps<Values extends FieldValues, Output> = {
  form: UseFormReturn<Values, unknown, Output>;
  /** Called with the checked values only (a mutation's `mutate` can be passed as it is). */
  onValues: (values: Output) => void;
  /** The gap between the fields, which stand in a column. */
  spacing: number;
  label?: string;
  testId?: string;
  children: ReactNode;
};

/**
 * A form checked by react-hook-form (hooks/use-zod-form) whose valid values go to one call: the
 * browser's own checks are off (noValidate), so the schema's messages are the ones shown.
 */
export function MutationForm<Values extends FieldValues, Output>({
  form,
  onValues,
  spacing,
  label,
  testId,
  children,
}: MutationFormProps<Values, Output>) {
  return (
    <Box
      component="form"
      noValidate
      aria-label={label}
      onSubmit={form.handleSubmit((values) => onValues(values))}
      data-testid={testId}
    >
      <Stack spacing={spacing}>{children}</Stack>
    </Box>
  );
}
