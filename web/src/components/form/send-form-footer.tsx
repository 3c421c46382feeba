import SendRounded from '@mui/icons-material/SendRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';

type SendFormFooterProps = {
  /** What is wrong with the fields, all in one warning ('；'-joined); none when empty. */
  validationMessages: readonly (string | undefined)[];
  /** Why sending failed, or null. */
  errorMessage: string | null;
  isPending: boolean;
  submitLabel: string;
  /** A 取消 before the send button, when the form has one. */
  cancel?: { label: string; onClick: () => void };
  /** 'feedback' or 'contact': `-validation`, `-error`, `-cancel`, `-submit`. */
  testIdPrefix: string;
};

/** The end of a form that sends a message (/feedback, /contact): its problems, then 取消 and the send button. */
export function SendFormFooter({
  validationMessages,
  errorMessage,
  isPending,
  submitLabel,
  cancel,
  testIdPrefix,
}: SendFormFooterProps) {
  return (
    <>
      {validationMessages.length > 0 ? (
        <Alert severity="warning" data-testid={`${testIdPrefix}-validation`}>
          {validationMessages.join('；')}
        </Alert>
      ) : null}
      {errorMessage !== null ? (
        <Alert severity="error" data-testid={`${testIdPrefix}-error`}>
          {errorMessage}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5 }}>
        {cancel ? (
          <Button color="inherit" onClick={cancel.onClick} disabled={isPending} data-testid={`${testIdPrefix}-cancel`}>
            {cancel.label}
          </Button>
        ) : null}
        <Button
          type="submit"
          variant="contained"
          endIcon={<SendRounded />}
          loading={isPending}
          data-testid={`${testIdPrefix}-submit`}
        >
          {submitLabel}
        </Button>
      </Box>
    </>
  );
}
