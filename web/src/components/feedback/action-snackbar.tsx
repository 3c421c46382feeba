import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import { LEARNING_TEXTS } from '@radar/shared';
import type { ActionNotice } from '@/hooks/use-dismiss';

/** Longer with an undo button, so there is time to reach it. */
const HIDE_AFTER_MS = { plain: 4000, withUndo: 8000 } as const;

/** The one snackbar of a list page's card actions: a line, and 撤销 when the action can be undone. */
export function ActionSnackbar({
  notice,
  onClose,
  testId,
}: {
  notice: ActionNotice | null;
  onClose: () => void;
  testId: string;
}) {
  const undo = notice?.undo;
  return (
    <Snackbar
      open={notice !== null}
      autoHideDuration={undo ? HIDE_AFTER_MS.withUndo : HIDE_AFTER_MS.plain}
      // A click elsewhere on the page would otherwise take the undo away before it is reached.
      onClose={(_event, reason) => {
        if (!(undo && reason === 'clickaway')) onClose();
      }}
      message={notice?.message}
      action={
        undo ? (
          <Button
            color="inherit"
            size="small"
            onClick={() => {
              onClose();
              undo();
            }}
            data-testid={`${testId}-undo`}
          >
            {LEARNING_TEXTS.undo}
          </Button>
        ) : undefined
      }
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      data-testid={testId}
    />
  );
}
