import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

type ComingSoonDialogProps = {
  open: boolean;
  /** Name of the feature that is not available yet, e.g. the menu label. */
  featureName?: string;
  onClose: () => void;
};

/** For menu entries flagged `comingSoon` (none are flagged today). */
export function ComingSoonDialog({ open, featureName, onClose }: ComingSoonDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth data-testid="coming-soon-dialog">
      <DialogTitle>敬请期待</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {featureName ? `“${featureName}”功能` : '该功能'}正在开发中，将在后续版本中上线。
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" autoFocus>
          知道了
        </Button>
      </DialogActions>
    </Dialog>
  );
}
