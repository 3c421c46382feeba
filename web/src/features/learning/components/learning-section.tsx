import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { LEARNING_TEXTS } from '@radar/shared';
import { SectionCard } from '@/components/sections/section-card';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { useLearningStatus, useResetLearning } from '../hooks/use-learning-status';
import { LEARNING_STRINGS } from '../strings';

const STRINGS = LEARNING_STRINGS;

/**
 * How the recommendations learn (issue 13), on /my for a reader with a research summary: how many
 * favourites, saves, reads and 'not interested' marks adjust them, and a reset back to the research
 * summary alone (the 'not interested' marks stay).
 */
export function LearningSection({ onNotify }: { onNotify: (message: string) => void }) {
  const status = useLearningStatus();
  const reset = useResetLearning({ onReset: () => onNotify(LEARNING_TEXTS.resetDone) });

  // A backend without learning (it is beyond the product contract) answers 404: the section is left out.
  if (status.isError && isApiError(status.error) && status.error.status === 404) return null;

  const renderStatus = () => {
    if (status.isPending) {
      return (
        <Typography color="text.secondary" data-testid="learning-loading">
          {STRINGS.loading}
        </Typography>
      );
    }
    if (status.isError) {
      return (
        <Alert severity="error" data-testid="learning-error">
          {getErrorMessage(status.error)}
        </Alert>
      );
    }
    const count = status.data.signal_count;
    if (count === 0) return <Typography data-testid="learning-status">{LEARNING_TEXTS.plain}</Typography>;
    return (
      <>
        <Box
          sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1.5 }}
        >
          <Typography data-testid="learning-status">{LEARNING_TEXTS.adjusted(count)}</Typography>
          <Button
            variant="outlined"
            onClick={() => reset.mutate()}
            loading={reset.isPending}
            data-testid="learning-reset"
          >
            {LEARNING_TEXTS.reset}
          </Button>
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="learning-note">
          {LEARNING_TEXTS.dismissedStayHidden}
        </Typography>
        {reset.isError ? (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="learning-reset-error">
            {getErrorMessage(reset.error)}
          </Alert>
        ) : null}
      </>
    );
  };

  return (
    <SectionCard id="learning" icon={<InsightsOutlined />} title={STRINGS.title} description={STRINGS.description}>
      {renderStatus()}
    </SectionCard>
  );
}
