import { lazy, Suspense, useState } from 'react';
import { ActionSnackbar } from '@/components/feedback/action-snackbar';
import type { PaperActions } from '@/hooks/use-paper-actions';

/**
 * Loaded when first needed (a browser that refused the clipboard): its text field is a large part of
 * MUI that the pages listing papers need nowhere else, and those pages load before their first card.
 */
const ShareLinkDialog = lazy(async () => ({ default: (await import('./share-link-dialog')).ShareLinkDialog }));

/** The snackbar and the share dialog of usePaperActions, placed once per page. */
export function PaperActionFeedback({ actions, testId }: { actions: PaperActions; testId: string }) {
  // Once opened the dialog stays mounted, so closing it keeps its transition.
  const [hasShareDialog, setHasShareDialog] = useState(false);
  if (actions.shareUrl !== null && !hasShareDialog) setHasShareDialog(true);
  return (
    <>
      {hasShareDialog ? (
        <Suspense fallback={null}>
          <ShareLinkDialog url={actions.shareUrl} onClose={actions.closeShareDialog} />
        </Suspense>
      ) : null}
      <ActionSnackbar notice={actions.notice} onClose={actions.clearNotice} testId={testId} />
    </>
  );
}
