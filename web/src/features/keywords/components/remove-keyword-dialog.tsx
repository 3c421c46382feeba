import Alert from '@mui/material/Alert';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { Keyword } from '@radar/shared';
import { useEffect } from 'react';
import { LabelledDialog } from '@/components/dialogs/labelled-dialog';
import { getErrorMessage } from '@/lib/api-client';
import { useRemoveKeyword } from '../hooks/use-keywords';
import { useLastKeyword } from '../hooks/use-last-keyword';
import { KEYWORD_STRINGS } from '../strings';
import { KeywordDialogActions } from './keyword-dialog-actions';

const STRINGS = KEYWORD_STRINGS.remove;

type RemoveKeywordDialogProps = {
  /** The keyword to remove; null closes the dialog. */
  keyword: Keyword | null;
  onClose: () => void;
  onRemoved: (name: string) => void;
};

/** Asks before a keyword is removed (POST /user-keywords/{id}/remove/); its alerts stop with it. */
export function RemoveKeywordDialog({ keyword, onClose, onRemoved }: RemoveKeywordDialogProps) {
  const remove = useRemoveKeyword();
  const shown = useLastKeyword(keyword);
  useEffect(() => {
    if (keyword) remove.reset();
  }, [keyword, remove.reset]);

  const confirm = () => {
    if (!keyword) return;
    remove.mutate(keyword, {
      onSuccess: () => {
        onRemoved(keyword.name);
        onClose();
      },
    });
  };

  return (
    <LabelledDialog
      id="keyword-remove"
      open={keyword !== null}
      onClose={remove.isPending ? undefined : onClose}
      maxWidth="xs"
      testId="keyword-remove-dialog"
    >
      <DialogTitle id="keyword-remove-title">{STRINGS.title}</DialogTitle>
      <DialogContent>
        <DialogContentText id="keyword-remove-description" sx={{ overflowWrap: 'anywhere' }}>
          {shown ? STRINGS.body(shown.name) : null}
        </DialogContentText>
        {remove.isError ? (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="keyword-remove-error">
            {getErrorMessage(remove.error)}
          </Alert>
        ) : null}
      </DialogContent>
      <KeywordDialogActions
        onCancel={onClose}
        isPending={remove.isPending}
        labels={STRINGS}
        testIds={{ cancel: 'keyword-remove-cancel', confirm: 'keyword-remove-confirm' }}
        focusCancel
        confirm={{ onClick: confirm, color: 'error' }}
      />
    </LabelledDialog>
  );
}
