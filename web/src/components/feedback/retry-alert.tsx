import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import type { ReactNode } from 'react';

type RetryAlertProps = {
  title?: string;
  message: ReactNode;
  retryLabel: string;
  onRetry: () => void;
  /** Disables the button while the retry runs. */
  isRetrying?: boolean;
  testId: string;
  retryTestId?: string;
};

/** A list that failed to load: what went wrong, and a button to try again. */
export function RetryAlert({
  title,
  message,
  retryLabel,
  onRetry,
  isRetrying = false,
  testId,
  retryTestId,
}: RetryAlertProps) {
  return (
    <Alert
      severity="warning"
      data-testid={testId}
      action={
        <Button color="inherit" size="small" onClick={onRetry} disabled={isRetrying} data-testid={retryTestId}>
          {retryLabel}
        </Button>
      }
    >
      {title ? <AlertTitle>{title}</AlertTitle> : null}
      {message}
    </Alert>
  );
}
