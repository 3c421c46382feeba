import Box from '@mui/material/Box';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { FEEDBACK_DESCRIPTION_MAX_LENGTH, LIMITS } from '@radar/shared';
import { type Control, Controller, type FieldValues, type Path, useWatch } from 'react-hook-form';

type TitleDescriptionValues = FieldValues & { title: string; description: string };

type TitleDescriptionFieldsProps<T extends TitleDescriptionValues, TTransformed> = {
  control: Control<T, unknown, TTransformed>;
  labels: {
    title: string;
    titlePlaceholder: string;
    titleCounter: (length: number) => string;
    description: string;
    descriptionPlaceholder: string;
  };
  /** Prefix of the fields' test ids: `<prefix>-title`, `<prefix>-title-counter`, `<prefix>-description`. */
  testIdPrefix: string;
  descriptionRows: { min: number; max: number };
};

/**
 * The title (with its N/50 counter) and description of a message to the operators: the feedback form
 * and the contact form ask for them alike and validate them with the same schema, so they look alike.
 * Messages are shown by the form above its submit button, not under the fields.
 */
export function TitleDescriptionFields<T extends TitleDescriptionValues, TTransformed = T>({
  control,
  labels,
  testIdPrefix,
  descriptionRows,
}: TitleDescriptionFieldsProps<T, TTransformed>) {
  const titleName = 'title' as Path<T>;
  const title = String(useWatch({ control, name: titleName }) ?? '');
  return (
    <>
      <MessageField
        control={control}
        name={titleName}
        label={labels.title}
        placeholder={labels.titlePlaceholder}
        maxLength={LIMITS.feedbackTitleMaxLength}
        testId={`${testIdPrefix}-title`}
        helperText={
          <Box component="span" sx={{ display: 'flex', justifyContent: 'flex-end' }}>
            <span data-testid={`${testIdPrefix}-title-counter`}>{labels.titleCounter(title.length)}</span>
          </Box>
        }
      />
      <MessageField
        control={control}
        name={'description' as Path<T>}
        label={labels.description}
        placeholder={labels.descriptionPlaceholder}
        maxLength={FEEDBACK_DESCRIPTION_MAX_LENGTH}
        testId={`${testIdPrefix}-description`}
        multiline
        minRows={descriptionRows.min}
        maxRows={descriptionRows.max}
      />
    </>
  );
}

type MessageFieldProps<T extends FieldValues, TTransformed> = Omit<
  TextFieldProps,
  'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'inputRef' | 'slotProps'
> & {
  control: Control<T, unknown, TTransformed>;
  name: Path<T>;
  maxLength: number;
  testId: string;
};

/** A required field of the message: marked invalid on error, its message left to the form. */
function MessageField<T extends FieldValues, TTransformed>({
  control,
  name,
  maxLength,
  testId,
  ...props
}: MessageFieldProps<T, TTransformed>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          {...props}
          required
          fullWidth
          error={fieldState.invalid}
          slotProps={{ htmlInput: { maxLength, 'data-testid': testId } }}
        />
      )}
    />
  );
}
