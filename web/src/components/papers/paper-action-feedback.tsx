import Snackbar from '@mui/material/Snackbar';
import type { PaperActions } from '@/hooks/use-paper-actions';
import { ShareLinkDialog } from './share-link-dialog';

/** The snackbar and the share dialog of usePaperActions, placed once per page. */
export function PaperActionFeedback({ actions, testId }: { actions: PaperActions; testId: string }) {
  return (
    <>
      <ShareLinkDialog url={actions.shareUrl} onClose={actions.closeShareDialog} />
      <Snackbar
        open={actions.notice !== null}
        autoHideDuration={4000}
        onClose={actions.clearNotice}
        message={actions.notice}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        data-testid={testId}
      />
    </>
  );
}
