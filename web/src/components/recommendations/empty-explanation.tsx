import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { EmptyExplanation } from '@radar/shared';

const TEXT = { applyChange: '应用此修改' } as const;

type EmptyExplanationBoxProps = {
  explanation: EmptyExplanation;
  /** Merges `explanation.change` into the page's settings; the button shows only when there is a change. */
  onApplyChange: (change: Record<string, string>) => void;
  isBusy?: boolean;
  testId: string;
};

/** Inside a recommendation page's empty state: why the list is empty and the one change that helps. */
export function EmptyExplanationBox({ explanation, onApplyChange, isBusy = false, testId }: EmptyExplanationBoxProps) {
  const { change } = explanation;
  return (
    <Box
      data-testid={testId}
      data-cause={explanation.cause}
      // Where the reader's sources stand (optional in the answer): no_source, first_fetch, failing ...
      data-sources={explanation.sources?.state}
      sx={{ mt: 1, px: 2, py: 1.5, borderRadius: 1, bgcolor: 'action.hover', maxWidth: 480 }}
    >
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {explanation.message}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {explanation.suggestion}
      </Typography>
      {explanation.sources_note ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }} data-testid={`${testId}-sources-note`}>
          {explanation.sources_note}
        </Typography>
      ) : null}
      {change ? (
        <Button
          variant="contained"
          size="small"
          onClick={() => onApplyChange(change)}
          disabled={isBusy}
          data-testid={`${testId}-apply`}
          sx={{ mt: 1.5 }}
        >
          {TEXT.applyChange}
        </Button>
      ) : null}
    </Box>
  );
}
