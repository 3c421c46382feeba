import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { FormEventHandler, ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { FormTextField, type FormTextFieldProps } from './form-text-field';

type InlineFieldFormProps<Values extends FieldValues, Output> = {
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The form's role ('search' on /search) and name. */
  role?: string;
  ariaLabel?: string;
  field: Pick<FormTextFieldProps<Values, Output>, 'control' | 'name' | 'label' | 'placeholder' | 'type'> & {
    maxLength: number;
    testId: string;
  };
  submit: { label: string; icon: ReactNode; testId: string; isPending?: boolean };
};

/** One text field and its button on one row (stacked on phones): the search box of /search, 添加关键词. */
export function InlineFieldForm<Values extends FieldValues, Output>({
  onSubmit,
  role,
  ariaLabel,
  field: { maxLength, testId, ...field },
  submit,
}: InlineFieldFormProps<Values, Output>) {
  return (
    <Box
      component="form"
      role={role}
      noValidate
      onSubmit={onSubmit}
      aria-label={ariaLabel}
      sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5, flexDirection: { xs: 'column', sm: 'row' } }}
    >
      <FormTextField
        {...field}
        fullWidth
        autoComplete="off"
        slotProps={{ htmlInput: { maxLength, 'data-testid': testId } }}
      />
      <Button
        type="submit"
        variant="contained"
        startIcon={submit.icon}
        loading={submit.isPending}
        data-testid={submit.testId}
        sx={{ flexShrink: 0, height: 56, width: { xs: '100%', sm: 'auto' }, minWidth: 112 }}
      >
        {submit.label}
      </Button>
    </Box>
  );
}
