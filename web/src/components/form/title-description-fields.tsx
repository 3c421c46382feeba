import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
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
      <Controller
        control={control}
        name={titleName}
        render={({ field, fieldState }) => (
          <TextField
            {...field}
            label={labels.title}
            placeholder={labels.titlePlaceholder}
            required
            fullWidth
            error={fieldState.invalid}
            helperText={
              <Box component="span" sx={{ display: 'flex', justifyContent: 'flex-end' }}>
                <span data-testid={`${testIdPrefix}-title-counter`}>{labels.titleCounter(title.length)}</span>
              </Box>
            }
            slotProps={{
              htmlInput: { maxLength: LIMITS.feedbackTitleMaxLength, 'data-testid': `${testIdPrefix}-title` },
            }}
          />
        )}
      />
      <Controller
        control={control}
        name={'description' as Path<T>}
        render={({ field, fieldState }) => (
          <TextField
            {...field}
            label={labels.description}
            placeholder={labels.descriptionPlaceholder}
            required
            fullWidth
            multiline
            minRows={descriptionRows.min}
            maxRows={descriptionRows.max}
            error={fieldState.invalid}
            slotProps={{
              htmlInput: { maxLength: FEEDBACK_DESCRIPTION_MAX_LENGTH, 'data-testid': `${testIdPrefix}-description` },
            }}
          />
        )}
      />
    </>
  );
}
