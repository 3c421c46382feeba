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
  const single = (value: number | number[]) => (Array.isArray(value) ? (value[0] ?? 0) : value);
  // MUI adds the step to the value on each arrow key (0.3 + 3 x 0.05 = 0.44999999999999996): values
  // leave here on the slider's grid.
  const topKOf = (value: number | number[]) => normaliseTopK(single(value), topK);
  const thresholdOf = (value: number | number[]) => normaliseThreshold(single(value), threshold);

  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 4, rowGap: 2 }}>
      <LabelledSlider
        label={TEXT.topK}
        value={topK}
        bounds={RECOMMENDATION_SLIDERS.topK}
        valueText={TEXT.topKValue}
        onChange={(value) => onTopKChange(topKOf(value))}
        onChangeCommitted={(value) => onCommit?.({ topK: topKOf(value) })}
        testId={`${testIdPrefix}-topk`}
      />
      <LabelledSlider
        label={TEXT.threshold}
        value={threshold}
        bounds={RECOMMENDATION_SLIDERS.threshold}
        valueText={thresholdText}
        labelsThumb
        onChange={(value) => onThresholdChange(thresholdOf(value))}
        onChangeCommitted={(value) => onCommit?.({ threshold: thresholdOf(value) })}
        testId={`${testIdPrefix}-threshold`}
      />
    </Box>
  );
}

type LabelledSliderProps = {
  label: string;
  value: number;
  bounds: { min: number; max: number; step: number };
  /** The value as the heading row and screen readers say it. */
  valueText: (value: number) => string;
  /** The thumb's label shows valueText too (else the bare number). */
  labelsThumb?: boolean;
  onChange: (value: number | number[]) => void;
  onChangeCommitted: (value: number | number[]) => void;
  /** The slider's test id; its shown value is `<testId>-value`. */
  testId: string;
};

/** A slider under a row with its name and its current value. */
function LabelledSlider({
  label,
  value,
  bounds,
  valueText,
  labelsThumb = false,
  onChange,
  onChangeCommitted,
  testId,
}: LabelledSliderProps) {
  const labelId = useId();
  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline' }}>
        <Typography id={labelId} variant="subtitle2" component="span">
          {label}
        </Typography>
        <Typography variant="body2" color="primary" data-testid={`${testId}-value`}>
          {valueText(value)}
        </Typography>
      </Box>
      <Slider
        value={value}
        {...bounds}
        marks
        valueLabelDisplay="auto"
        valueLabelFormat={labelsThumb ? valueText : undefined}
        getAriaValueText={valueText}
        aria-labelledby={labelId}
        onChange={(_event, next) => onChange(next)}
        onChangeCommitted={(_event, next) => onChangeCommitted(next)}
        data-testid={testId}
      />
    </Box>
  );
}
