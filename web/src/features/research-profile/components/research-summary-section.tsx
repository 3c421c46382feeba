import AutoAwesomeRounded from '@mui/icons-material/AutoAwesomeRounded';
import ScienceOutlined from '@mui/icons-material/ScienceOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import { alpha, keyframes } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { RESEARCH_FIELDS, researchConfirmRequestSchema, type UserResponse } from '@radar/shared';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { saveProfile } from '@/api/save-profile';
import { FormTextField } from '@/components/form/form-text-field';
import { MutationForm } from '@/components/form/mutation-form';
import { InfoRow } from '@/components/sections/info-row';
import { SectionCard } from '@/components/sections/section-card';
import { SectionEditButton, SectionFormFooter } from '@/components/sections/section-edit';
import { useSectionEdit } from '@/components/sections/use-section-edit';
import { useZodForm } from '@/hooks/use-zod-form';
import { brand } from '@/theme/theme-primitives';
import { RESEARCH_STRINGS } from '../strings';
import { parseStoredResearchFields, researchFieldLabel, toggleFieldId } from '../utils/research-fields';

const STRINGS = RESEARCH_STRINGS.research;

// The server's rules for these two fields; the 21 checkboxes cannot produce an unknown id.
const researchSummarySchema = z.object({
  research_summary_en: researchConfirmRequestSchema.shape.research_summary_en.unwrap(),
  research_fields: z.array(z.string()),
});
type ResearchSummaryForm = { research_summary_en: string; research_fields: string[] };
type ResearchSummaryUpdate = z.output<typeof researchSummarySchema>;

function toFormValues(user: UserResponse): ResearchSummaryForm {
  return {
    research_summary_en: user.research_summary_en,
    research_fields: parseStoredResearchFields(user.research_fields).ids,
  };
}

// A ring that grows out of the button and fades: draws the eye to it while there is no research info.
const pulse = keyframes`
  0% { box-shadow: 0 0 0 0 ${alpha(brand[600], 0.45)}; }
  70% { box-shadow: 0 0 0 12px ${alpha(brand[600], 0)}; }
  100% { box-shadow: 0 0 0 0 ${alpha(brand[600], 0)}; }
`;

type ResearchSummarySectionProps = {
  user: UserResponse;
  /** No research info yet: the generate button pulses. */
  isEmpty: boolean;
  onGenerate: () => void;
  onSaved: () => Promise<void>;
  onNotify: (message: string) => void;
};

/**
 * Research info of /my: the English research direction and the fields as chips; in edit mode a text
 * box and the 21 field checkboxes with a counter. Cancel restores the stored values.
 */
export function ResearchSummarySection({ user, isEmpty, onGenerate, onSaved, onNotify }: ResearchSummarySectionProps) {
  // Names outside the 21 fields are kept on save unless removed here.
  const [unknownFields, setUnknownFields] = useState<string[]>([]);
  const stored = parseStoredResearchFields(user.research_fields);
  const form = useZodForm<ResearchSummaryForm, ResearchSummaryUpdate>({
    schema: researchSummarySchema,
    defaultValues: toFormValues(user),
  });
  const { isEditing, save, startEditing, cancel } = useSectionEdit<ResearchSummaryUpdate>({
    saveValues: (values) =>
      saveProfile({
        research_summary_en: values.research_summary_en,
        research_fields: [...values.research_fields, ...unknownFields],
      }),
    onSaved,
    onNotify,
    resetForm: () => {
      form.reset(toFormValues(user));
      setUnknownFields(stored.unknown);
    },
  });

  const actions = (
    <>
      {isEditing ? null : (
        <SectionEditButton sectionTitle={STRINGS.title} onClick={startEditing} testId="research-edit" />
      )}
      <Button
        variant="contained"
        startIcon={<AutoAwesomeRounded />}
        onClick={onGenerate}
        data-testid="research-generate"
        data-pulsing={isEmpty ? 'true' : 'false'}
        sx={
          isEmpty
            ? {
                animation: `${pulse} 1.8s ease-out infinite`,
                '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
              }
            : undefined
        }
      >
        {STRINGS.generate}
      </Button>
    </>
  );

  return (
    <SectionCard
      id="research"
      icon={<ScienceOutlined />}
      title={STRINGS.title}
      description={STRINGS.description}
      actions={actions}
    >
      {isEmpty && !isEditing ? (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="research-empty">
          {STRINGS.generateHint}
        </Alert>
      ) : null}

      {isEditing ? (
        <MutationForm form={form} onValues={save.mutate} spacing={3} testId="research-form">
          <FormTextField
            control={form.control}
            name="research_summary_en"
            label={STRINGS.summary}
            helperText={STRINGS.summaryHelper}
            multiline
            minRows={4}
            maxRows={14}
            fullWidth
            autoFocus
            slotProps={{ htmlInput: { lang: 'en', 'data-testid': 'research-summary-input' } }}
          />

          <Controller
            control={form.control}
            name="research_fields"
            render={({ field }) => (
              <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: 2 }}>
                  <FormLabel component="legend" sx={{ float: 'left', fontWeight: 600, color: 'text.primary' }}>
                    {STRINGS.fields}
                  </FormLabel>
                  <Typography
                    variant="body2"
                    color="primary"
                    aria-live="polite"
                    data-testid="research-field-count"
                    sx={{ fontWeight: 600 }}
                  >
                    {STRINGS.selectedCount(field.value.length)}
                  </Typography>
                </Box>
                <FormGroup
                  sx={{
                    clear: 'both',
                    mt: 1,
                    display: 'grid',
                    gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))' },
                    columnGap: 1,
                  }}
                >
                  {RESEARCH_FIELDS.map((option) => (
                    <FormControlLabel
                      key={option.id}
                      label={option.labelZh}
                      sx={{ mr: 0, minWidth: 0 }}
                      control={
                        <Checkbox
                          size="small"
                          checked={field.value.includes(option.id)}
                          onChange={() => field.onChange(toggleFieldId(field.value, option.id))}
                        />
                      }
                    />
                  ))}
                </FormGroup>
              </Box>
            )}
          />

          {unknownFields.length > 0 ? (
            <Box>
              <Typography variant="body2" color="text.secondary">
                {STRINGS.unknownFields}
              </Typography>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
                {unknownFields.map((name) => (
                  <Chip
                    key={name}
                    label={name}
                    variant="outlined"
                    onDelete={() => setUnknownFields((current) => current.filter((item) => item !== name))}
                  />
                ))}
              </Box>
            </Box>
          ) : null}

          <SectionFormFooter save={save} onCancel={cancel} testIdPrefix="research" />
        </MutationForm>
      ) : (
        <Box component="dl" sx={{ m: 0 }}>
          <InfoRow label={STRINGS.summary} value={user.research_summary_en} testId="research-summary" />
          <InfoRow label={STRINGS.fields} value={user.research_fields} testId="research-fields">
            {stored.ids.length + stored.unknown.length === 0 ? (
              <Typography sx={{ color: 'text.disabled' }}>{STRINGS.noFields}</Typography>
            ) : (
              <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, m: 0, p: 0, listStyle: 'none' }}>
                {[...stored.ids, ...stored.unknown].map((name) => (
                  <li key={name}>
                    <Chip label={researchFieldLabel(name)} color="primary" variant="outlined" size="small" />
                  </li>
                ))}
              </Box>
            )}
          </InfoRow>
        </Box>
      )}
    </SectionCard>
  );
}
