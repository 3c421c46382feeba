import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';

type KeywordDialogActionsProps = {
  onCancel: () => void;
  /** While the change is saving: cancel is disabled and the confirm button spins. */
  isPending: boolean;
  labels: { cancel: string; confirm: string };
  testIds: { cancel: string; confirm: string };
  /** Focus starts on cancel where the confirm button cannot be undone (removing a keyword). */
  focusCancel?: boolean;
  /** The confirm button submits the dialog's form, or runs `onClick` (red: a removal). */
  confirm: { form: string } | { onClick: () => void; color: 'error' };
};

/** Cancel and the one contained confirm button at the foot of a keyword dialog (alert settings, removal). */
export function KeywordDialogActions({
  onCancel,
  isPending,
  labels,
  testIds,
  focusCancel = false,
  confirm,
}: KeywordDialogActionsProps) {
  const confirmAction = 'form' in confirm ? { type: 'submit' as const, form: confirm.form } : confirm;
  return (
    <DialogActions sx={{ px: 3, pb: 2.5 }}>
      <Button
        color="inherit"
        onClick={onCancel}
        disabled={isPending}
        autoFocus={focusCancel}
        data-testid={testIds.cancel}
      >
        {labels.cancel}
      </Button>
      <Button variant="contained" {...confirmAction} loading={isPending} data-testid={testIds.confirm}>
        {labels.confirm}
      </Button>
    </DialogActions>
  );
}
