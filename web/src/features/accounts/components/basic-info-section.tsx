import BadgeOutlined from '@mui/icons-material/BadgeOutlined';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { researchConfirmRequestSchema, type UserResponse } from '@radar/shared';
import type { z } from 'zod';
import { saveProfile } from '@/api/save-profile';
import { FormTextField } from '@/components/form/form-text-field';
import { InfoRow } from '@/components/sections/info-row';
import { SectionCard } from '@/components/sections/section-card';
import { SectionEditButton, SectionFormFooter } from '@/components/sections/section-edit';
import { useSectionEdit } from '@/components/sections/use-section-edit';
import { useZodForm } from '@/hooks/use-zod-form';
import { ACCOUNT_STRINGS } from '../strings';

const STRINGS = ACCOUNT_STRINGS.basic;

// The server's rules (trimmed, length limits) for the three fields.
const basicInfoSchema = researchConfirmRequestSchema.pick({
  research_name: true,
  research_position: true,
  research_institution: true,
});
type BasicInfoForm = Pick<UserResponse, 'research_name' | 'research_position' | 'research_institution'>;
type BasicInfoUpdate = z.output<typeof basicInfoSchema>;

const FIELDS = [
  { name: 'research_name', label: STRINGS.name, autoComplete: 'name' },
  { name: 'research_position', label: STRINGS.position, autoComplete: 'organization-title' },
  { name: 'research_institution', label: STRINGS.institution, autoComplete: 'organization' },
] as const satisfies readonly { name: keyof BasicInfoForm; label: string; autoComplete: string }[];

const toFormValues = (user: UserResponse): BasicInfoForm => ({
  research_name: user.research_name,
  research_position: user.research_position,
  research_institution: user.research_institution,
});

type BasicInfoSectionProps = {
  user: UserResponse;
  onSaved: () => Promise<void>;
  onNotify: (message: string) => void;
};

/** Basic info of /my: name, position and institution, with its own edit mode; cancel restores the stored values. */
export function BasicInfoSection({ user, onSaved, onNotify }: BasicInfoSectionProps) {
  const form = useZodForm<BasicInfoForm, BasicInfoUpdate>({
    schema: basicInfoSchema,
    defaultValues: toFormValues(user),
  });
  const { isEditing, save, startEditing, cancel } = useSectionEdit<BasicInfoUpdate>({
    saveValues: saveProfile,
    onSaved,
    onNotify,
    resetForm: () => form.reset(toFormValues(user)),
  });

  return (
    <SectionCard
      id="basic"
      icon={<BadgeOutlined />}
      title={STRINGS.title}
      actions={
        isEditing ? null : <SectionEditButton sectionTitle={STRINGS.title} onClick={startEditing} testId="basic-edit" />
      }
    >
      {isEditing ? (
        <Box component="form" noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
          <Stack spacing={2.5}>
            {FIELDS.map((item, index) => (
              <FormTextField
                key={item.name}
                control={form.control}
                name={item.name}
                label={item.label}
                fullWidth
                autoFocus={index === 0}
                autoComplete={item.autoComplete}
                slotProps={{ htmlInput: { 'data-testid': `basic-${item.name}-input` } }}
              />
            ))}
            <SectionFormFooter save={save} onCancel={cancel} testIdPrefix="basic" />
          </Stack>
        </Box>
      ) : (
        <Box component="dl" sx={{ m: 0 }}>
          {FIELDS.map((item) => (
            <InfoRow key={item.name} label={item.label} value={user[item.name]} testId={`basic-${item.name}`} />
          ))}
        </Box>
      )}
    </SectionCard>
  );
}
