import EditOutlined from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { getErrorMessage } from '@/lib/api-client';
import { SECTION_STRINGS } from './strings';

/** 编辑 of an editable section of /my, named after the section for screen readers (编辑基本信息). */
export function SectionEditButton({
  sectionTitle,
  onClick,
  testId,
}: {
  sectionTitle: string;
  onClick: () => void;
  testId: string;
}) {
  return (
    <Button
      variant="outlined"
      startIcon={<EditOutlined />}
      onClick={onClick}
      data-testid={testId}
      aria-label={`${SECTION_STRINGS.edit}${sectionTitle}`}
    >
      {SECTION_STRINGS.edit}
    </Button>
  );
}

type SectionFormFooterProps = {
  /** The save: its failure is shown above the buttons, its progress on 保存. */
  save: { isError: boolean; error: unknown; isPending: boolean };
  onCancel: () => void;
  /** 'basic' or 'research': `-save-error`, `-cancel`, `-save`. */
  testIdPrefix: string;
};

/** The end of an editable section's form: why the save failed, then 取消 and 保存. */
export function SectionFormFooter({ save, onCancel, testIdPrefix }: SectionFormFooterProps) {
  return (
    <>
      {save.isError ? (
        <Alert severity="error" data-testid={`${testIdPrefix}-save-error`}>
          {getErrorMessage(save.error)}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1 }}>
        <Button color="inherit" onClick={onCancel} disabled={save.isPending} data-testid={`${testIdPrefix}-cancel`}>
          {SECTION_STRINGS.cancel}
        </Button>
        <Button type="submit" variant="contained" loading={save.isPending} data-testid={`${testIdPrefix}-save`}>
          {SECTION_STRINGS.save}
        </Button>
      </Box>
    </>
  );
}
