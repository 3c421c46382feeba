import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { RetryAlert } from '@/components/feedback/retry-alert';

type LoadMoreFooterProps = {
  /** 'more': the button; 'end': 没有更多了; 'none': nothing (lib/load-more.ts, loadMoreState). */
  state: 'more' | 'end' | 'none';
  isLoading: boolean;
  /** The failure of the last 加载更多, as the page words its errors; null when none. */
  errorMessage: string | null;
  onLoadMore: () => void;
  onRetry: () => void;
  labels: { loadMore: string; noMore: string; retry: string };
  /** Prefix of the test ids: `-load-more`, `-no-more`, `-load-more-error`, `-load-more-retry`. */
  testIdPrefix: string;
};

/** Under a recommendation list (beyond the spec): 加载更多, its failure with a retry, or 没有更多了. */
export function LoadMoreFooter({
  state,
  isLoading,
  errorMessage,
  onLoadMore,
  onRetry,
  labels,
  testIdPrefix,
}: LoadMoreFooterProps) {
  if (errorMessage !== null) {
    return (
      <RetryAlert
        message={errorMessage}
        retryLabel={labels.retry}
        onRetry={onRetry}
        testId={`${testIdPrefix}-load-more-error`}
        retryTestId={`${testIdPrefix}-load-more-retry`}
      />
    );
  }
  if (state === 'none') return null;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', pt: 1 }}>
      {state === 'more' ? (
        <Button variant="outlined" onClick={onLoadMore} loading={isLoading} data-testid={`${testIdPrefix}-load-more`}>
          {labels.loadMore}
        </Button>
      ) : (
        <Typography variant="body2" color="text.secondary" data-testid={`${testIdPrefix}-no-more`}>
          {labels.noMore}
        </Typography>
      )}
    </Box>
  );
}
