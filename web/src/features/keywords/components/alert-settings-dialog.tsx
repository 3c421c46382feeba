import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import {
  ALERT_FREQUENCIES,
  type AlertFrequency,
  KEYWORD_LIMITS,
  type Keyword,
  type KeywordUpdate,
  keywordUpdateSchema,
} from '@radar/shared';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { LabelledDialog } from '@/components/dialogs/labelled-dialog';
import { useZodForm } from '@/hooks/use-zod-form';
import { getErrorMessage } from '@/lib/api-client';
import { useUpdateKeyword } from '../hooks/use-keywords';
import { useLastKeyword } from '../hooks/use-last-keyword';
import { FREQUENCY_LABELS, KEYWORD_STRINGS } from '../strings';
import { addNegativeTerms } from '../utils/negative-terms';
import { KeywordDialogActions } from './keyword-dialog-actions';

const STRINGS = KEYWORD_STRINGS.settings;

type AlertSettingsForm = { alert_enabled: boolean; alert_frequency: AlertFrequency; negative_terms: string[] };

const toFormValues = (keyword: Keyword): AlertSettingsForm => ({
  alert_enabled: keyword.alert_enabled,
  alert_frequency: keyword.alert_frequency,
  negative_terms: [...keyword.negative_terms],
});

type AlertSettingsDialogProps = {
  /** The keyword being edited; null closes the dialog. */
  keyword: Keyword | null;
  onClose: () => void;
  onSaved: () => void;
};

/**
 * A keyword's alert settings (PATCH /user-keywords/{id}/update/): alerts on or off, daily or weekly,
 * and the negative terms that keep a paper out of its alerts. Validated by the server's schema.
 */
export function AlertSettingsDialog({ keyword, onClose, onSaved }: AlertSettingsDialogProps) {
  const form = useZodForm<AlertSettingsForm, KeywordUpdate>({
    schema: keywordUpdateSchema,
    defaultValues: { alert_enabled: false, alert_frequency: 'daily', negative_terms: [] },
    mode: 'onSubmit',
  });
  const update = useUpdateKeyword();
  const shown = useLastKeyword(keyword);
  const [termInput, setTermInput] = useState('');
  const [termError, setTermError] = useState<string | undefined>();
  const isEnabled = useWatch({ control: form.control, name: 'alert_enabled' });

  // Each opening starts from the keyword's stored settings.
  useEffect(() => {
    if (!keyword) return;
    form.reset(toFormValues(keyword));
    update.reset();
    setTermInput('');
    setTermError(undefined);
  }, [keyword, form.reset, update.reset]);

  /** Moves the typed text into the terms (what can be added; the rest stays in the box with a message). */
  const commitTermInput = () => {
    const current = form.getValues('negative_terms');
    const result = addNegativeTerms(current, termInput);
    setTermError(result.error);
    if (result.terms.length !== current.length) form.setValue('negative_terms', result.terms, { shouldDirty: true });
    if (!result.error) setTermInput('');
  };

  const onTermKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter (outside an input method's composition) and the comma keys add the term.
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Enter' || event.key === ',' || event.key === '，') {
      event.preventDefault();
      commitTermInput();
    }
  };

  const submit = form.handleSubmit((values) => {
    if (!keyword) return;
    update.mutate(
      { id: keyword.id, update: values },
      {
        onSuccess: () => {
          onSaved();
          onClose();
        },
      },
    );
  });

  const save = () => {
    // Text still in the box counts, so a term typed but not yet confirmed is not lost.
    const pending = termInput.trim() ? addNegativeTerms(form.getValues('negative_terms'), termInput) : undefined;
    if (pending) commitTermInput();
    if (pending?.error) return;
    void submit();
  };

  const termsError = form.formState.errors.negative_terms;
  const termsMessage =
    termError ?? termsError?.message ?? (Array.isArray(termsError) ? termsError.find(Boolean)?.message : undefined);

  return (
    <LabelledDialog
      id="keyword-settings"
      open={keyword !== null}
      onClose={update.isPending ? undefined : onClose}
      maxWidth="sm"
      hasDescription={false}
      testId="keyword-settings-dialog"
    >
      <DialogTitle id="keyword-settings-title" sx={{ overflowWrap: 'anywhere' }}>
        {shown ? STRINGS.title(shown.name) : null}
      </DialogTitle>
      <DialogContent>
        <Box
          component="form"
          id="keyword-settings-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <Stack spacing={2.5}>
            <Controller
              control={form.control}
              name="alert_enabled"
              render={({ field }) => (
                <FormControlLabel
                  control={
                    <Switch
                      checked={field.value}
                      onChange={(event) => field.onChange(event.target.checked)}
                      onBlur={field.onBlur}
                    />
                  }
                  label={STRINGS.enabled}
                />
              )}
            />
            <Controller
              control={form.control}
              name="alert_frequency"
              render={({ field }) => (
                <FormControl component="fieldset" disabled={!isEnabled}>
                  <FormLabel component="legend" id="keyword-settings-frequency-label">
                    {STRINGS.frequency}
                  </FormLabel>
                  <RadioGroup
                    row
                    aria-labelledby="keyword-settings-frequency-label"
                    name={field.name}
                    value={field.value}
                    onChange={(event) => field.onChange(event.target.value)}
                  >
                    {ALERT_FREQUENCIES.map((frequency) => (
                      <FormControlLabel
                        key={frequency}
                        value={frequency}
                        control={<Radio />}
                        label={FREQUENCY_LABELS[frequency]}
                      />
                    ))}
                  </RadioGroup>
                </FormControl>
              )}
            />
            <Controller
              control={form.control}
              name="negative_terms"
              render={({ field }) => (
                <Box>
                  <TextField
                    label={STRINGS.negativeTerms}
                    placeholder={STRINGS.negativeTermsPlaceholder}
                    value={termInput}
                    onChange={(event) => {
                      setTermInput(event.target.value);
                      setTermError(undefined);
                    }}
                    onKeyDown={onTermKeyDown}
                    onBlur={() => {
                      if (termInput.trim()) commitTermInput();
                    }}
                    fullWidth
                    autoComplete="off"
                    error={Boolean(termsMessage)}
                    helperText={
                      termsMessage ??
                      `${STRINGS.negativeTermsHelper}（${field.value.length}/${KEYWORD_LIMITS.negativeTermsPerKeyword}）`
                    }
                    slotProps={{
                      htmlInput: {
                        maxLength: KEYWORD_LIMITS.negativeTermMaxLength * 4,
                        'data-testid': 'keyword-settings-terms-input',
                      },
                    }}
                  />
                  {field.value.length > 0 ? (
                    <Box
                      component="ul"
                      aria-label={STRINGS.negativeTerms}
                      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', m: 0, mt: 1.5, p: 0 }}
                    >
                      {field.value.map((term) => (
                        <li key={term}>
                          <Chip
                            label={term}
                            onDelete={() => {
                              field.onChange(field.value.filter((item) => item !== term));
                              setTermError(undefined);
                            }}
                            data-testid="keyword-settings-term"
                            sx={{ maxWidth: '100%' }}
                          />
                        </li>
                      ))}
                    </Box>
                  ) : null}
                </Box>
              )}
            />
            {update.isError ? (
              <Alert severity="error" data-testid="keyword-settings-error">
                {getErrorMessage(update.error)}
              </Alert>
            ) : null}
          </Stack>
        </Box>
      </DialogContent>
      <KeywordDialogActions
        onCancel={onClose}
        isPending={update.isPending}
        labels={{ cancel: STRINGS.cancel, confirm: STRINGS.save }}
        testIds={{ cancel: 'keyword-settings-cancel', confirm: 'keyword-settings-save' }}
        confirm={{ form: 'keyword-settings-form' }}
      />
    </LabelledDialog>
  );
}
