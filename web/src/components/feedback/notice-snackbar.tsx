import Snackbar from '@mui/material/Snackbar';

/** A one-line confirmation at the bottom of the page for 3 s (a keyword removed, a setting saved on /my). */
export function NoticeSnackbar({
  notice,
  onClose,
  testId,
}: {
  notice: string | null;
  onClose: () => void;
  testId?: string;
}) {
  return (
    <Snackbar
      open={notice !== null}
      autoHideDuration={3000}
      onClose={onClose}
      message={notice}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      data-testid={testId}
    />
  );
}
