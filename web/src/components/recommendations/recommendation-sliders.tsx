import Box from '@mui/material/Box';
import Slider from '@mui/material/Slider';
import Typography from '@mui/material/Typography';
import { RECOMMENDATION_SLIDERS } from '@radar/shared';
import { useId } from 'react';
import { formatSimilarityPercent } from '@/lib/paper-display';
import { normaliseThreshold, normaliseTopK } from '@/lib/recommendation-params';

const TEXT = {
  topK: '推荐数量',
  topKValue: (count: number) => `${count} 篇`,
  threshold: '相似度阈值',
} as const;

type RecommendationSlidersProps = {
  topK: number;
  threshold: number;
  /** Called as the thumb moves (keyboard steps included). */
  onTopKChange: (value: number) => void;
  onThresholdChange: (value: number) => void;
  /** Called with the final value once the user lets go (mouse up, each key step); pages that re-fetch on change listen here. */
  onCommit?: (change: { topK: number } | { threshold: number }) => void;
  /** Prefix of the test ids: `<id>-topk`, `<id>-threshold`. */
  testIdPrefix: string;
};

const thresholdText = (value: number) => formatSimilarityPercent(value, 0) ?? '';

/**
 * The count and similarity-threshold sliders of the recommendation settings (5-50 step 5; 0.05-0.5
 * step 0.05 shown as a percentage).
 */
export function RecommendationSliders({
  topK,
  threshold,
  onTopKChange,
  onThresholdChange,
  onCommit,
  testIdPrefix,
}: RecommendationSlidersProps) {
  const topKId = useId();
  const thresholdId = useId();
  const single = (value: number | number[]) => (Array.isArray(value) ? (value[0] ?? 0) : value);
  // MUI adds the step to the value on each arrow key (0.3 + 3 x 0.05 = 0.44999999999999996): values
  // leave here on the slider's grid.
  const topKOf = (value: number | number[]) => normaliseTopK(single(value), topK);
  const thresholdOf = (value: number | number[]) => normaliseThreshold(single(value), threshold);

  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 4, rowGap: 2 }}>
      <Box>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline' }}>
          <Typography id={topKId} variant="subtitle2" component="span">
            {TEXT.topK}
          </Typography>
          <Typography variant="body2" color="primary" data-testid={`${testIdPrefix}-topk-value`}>
            {TEXT.topKValue(topK)}
          </Typography>
        </Box>
        <Slider
          value={topK}
          {...RECOMMENDATION_SLIDERS.topK}
          marks
          valueLabelDisplay="auto"
          getAriaValueText={TEXT.topKValue}
          aria-labelledby={topKId}
          onChange={(_event, value) => onTopKChange(topKOf(value))}
          onChangeCommitted={(_event, value) => onCommit?.({ topK: topKOf(value) })}
          data-testid={`${testIdPrefix}-topk`}
        />
      </Box>
      <Box>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline' }}>
          <Typography id={thresholdId} variant="subtitle2" component="span">
            {TEXT.threshold}
          </Typography>
          <Typography variant="body2" color="primary" data-testid={`${testIdPrefix}-threshold-value`}>
            {thresholdText(threshold)}
          </Typography>
        </Box>
        <Slider
          value={threshold}
          {...RECOMMENDATION_SLIDERS.threshold}
          marks
          valueLabelDisplay="auto"
          valueLabelFormat={thresholdText}
          getAriaValueText={thresholdText}
          aria-labelledby={thresholdId}
          onChange={(_event, value) => onThresholdChange(thresholdOf(value))}
          onChangeCommitted={(_event, value) => onCommit?.({ threshold: thresholdOf(value) })}
          data-testid={`${testIdPrefix}-threshold`}
        />
      </Box>
    </Box>
  );
}
