import TipsAndUpdatesOutlined from '@mui/icons-material/TipsAndUpdatesOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { alpha } from '@mui/material/styles';
import { LabelledDialog } from '@/components/dialogs/labelled-dialog';
import { RESEARCH_STRINGS } from '../strings';

const STRINGS = RESEARCH_STRINGS.guide;

type ResearchGuideDialogProps = {
  open: boolean;
  onClose: () => void;
  onCompleteNow: () => void;
  onRemindLater: () => void;
  onNeverRemind: () => void;
};

/** The first-visit guide of /my: why research info matters, and three ways on. */
export function ResearchGuideDialog({
  open,
  onClose,
  onCompleteNow,
  onRemindLater,
  onNeverRemind,
}: ResearchGuideDialogProps) {
  return (
    <LabelledDialog id="research-guide" open={open} onClose={onClose} maxWidth="xs" testId="research-guide">
      <Box sx={{ display: 'flex', justifyContent: 'center', pt: 3 }} aria-hidden>
        <Box
          sx={{
            display: 'grid',
            placeItems: 'center',
            width: 56,
            height: 56,
            borderRadius: '50%',
            color: 'primary.main',
            bgcolor: (theme) => alpha(theme.palette.primary.main, 0.1),
          }}
        >
          <TipsAndUpdatesOutlined />
        </Box>
      </Box>
      <DialogTitle id="research-guide-title" sx={{ textAlign: 'center' }}>
        {STRINGS.title}
      </DialogTitle>
      <DialogContent>
        <DialogContentText id="research-guide-description">{STRINGS.body}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexDirection: 'column', alignItems: 'stretch', gap: 1, px: 3, pb: 3 }}>
        <Button variant="contained" onClick={onCompleteNow} autoFocus data-testid="research-guide-complete">
          {STRINGS.completeNow}
        </Button>
        <Box sx={{ display: 'flex', gap: 1, '& > *': { flex: 1 }, m: '0 !important' }}>
          <Button color="inherit" variant="outlined" onClick={onRemindLater} data-testid="research-guide-later">
            {STRINGS.remindLater}
          </Button>
          <Button color="inherit" onClick={onNeverRemind} data-testid="research-guide-never">
            {STRINGS.neverRemind}
          </Button>
        </Box>
      </DialogActions>
    </LabelledDialog>
  );
}
