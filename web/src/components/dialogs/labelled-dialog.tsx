import Dialog, { type DialogProps } from '@mui/material/Dialog';
import type { ReactNode } from 'react';

type LabelledDialogProps = {
  /** The ids of its parts: the title is `${id}-title`, the description (when there is one) `${id}-description`. */
  id: string;
  open: boolean;
  /** Left out while something is saving, so the dialog stays until it is done. */
  onClose: (() => void) | undefined;
  maxWidth: DialogProps['maxWidth'];
  hasDescription?: boolean;
  testId: string;
  children: ReactNode;
};

/** A full-width dialog named by its title and described by its text, for screen readers. */
export function LabelledDialog({
  id,
  open,
  onClose,
  maxWidth,
  hasDescription = true,
  testId,
  children,
}: LabelledDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      maxWidth={maxWidth}
      fullWidth
      aria-labelledby={`${id}-title`}
      aria-describedby={hasDescription ? `${id}-description` : undefined}
      data-testid={testId}
    >
      {children}
    </Dialog>
  );
}
