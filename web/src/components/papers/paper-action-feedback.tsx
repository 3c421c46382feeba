import { ActionSnackbar } from '@/components/feedback/action-snackbar';
import type { PaperActions } from '@/hooks/use-paper-actions';
import { ShareLinkDialog } from './share-link-dialog';

/** The snackbar and the share dialog of usePaperActions, placed once per page. */
export function PaperActionFeedback({ actions, testId }: { actions: PaperActions; testId: string }) {
  return (
    <>
      <ShareLinkDialog url={actions.shareUrl} onClose={actions.closeShareDialog} />
      <ActionSnackbar notice={actions.notice} onClose={actions.clearNotice} testId={testId} />
    </>
  );
}
