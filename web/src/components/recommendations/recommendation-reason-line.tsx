import LightbulbOutlined from '@mui/icons-material/LightbulbOutlined';
import Typography from '@mui/material/Typography';

/**
 * Why an item is recommended, one quiet line under a card's chips. It wraps instead of being cut off,
 * so phones show it whole.
 */
export function RecommendationReasonLine({ text, testId }: { text: string; testId: string }) {
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      data-testid={testId}
      sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5, mt: 1.5, overflowWrap: 'anywhere' }}
    >
      <LightbulbOutlined aria-hidden sx={{ fontSize: 16, mt: '1px', flexShrink: 0, color: 'text.disabled' }} />
      <span>{text}</span>
    </Typography>
  );
}
