import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { RatingThresholdResponse } from '@radar/shared';
import { useQuery } from '@tanstack/react-query';
import { getRatingThreshold, RATING_THRESHOLD_QUERY_KEY } from '@/api/learning';

const TEXT = {
  title: '你的评分与相似度',
  hint: '每一行是一段相似度：蓝色为你点了“更多此类”的论文数，橙色为“减少此类”的论文数。',
  suggestion: (threshold: string, kept: string, filtered: string) =>
    `建议阈值 ${threshold}：保留你 ${kept} 的“更多此类”，过滤 ${filtered} 的“减少此类”。`,
  apply: '应用建议阈值',
  liked: '更多此类',
  disliked: '减少此类',
} as const;

const percent = (value: number, decimals = 0) => `${(value * 100).toFixed(decimals)}%`;

/**
 * How the reader's 👍 and 👎 papers spread over the similarity to their profile, and the suggested
 * threshold with one click to apply it (issue 23, not in the spec). Hidden while loading, when the
 * backend lacks the call (any error), and when there are too few ratings for a suggestion.
 */
export function ThresholdSuggestion({ onApply }: { onApply: (threshold: number) => void }) {
  const { data } = useQuery({
    queryKey: RATING_THRESHOLD_QUERY_KEY,
    queryFn: ({ signal }) => getRatingThreshold({ signal }),
    retry: false,
  });
  if (!isUsable(data)) return null;
  const threshold = data.suggested_threshold as number;
  const widest = Math.max(1, ...data.buckets.map((bucket) => Math.max(bucket.liked, bucket.disliked)));
  return (
    <Box component="section" data-testid="papers-threshold-suggestion" aria-label={TEXT.title}>
      <Typography variant="subtitle2">{TEXT.title}</Typography>
      <Typography variant="caption" color="text.secondary">
        {TEXT.hint}
      </Typography>
      <Stack spacing={0.5} sx={{ mt: 1 }} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {data.buckets.map((bucket) => (
          <Box
            component="li"
            key={bucket.from}
            data-testid="papers-threshold-bucket"
            aria-label={`${percent(bucket.from)}–${percent(bucket.to)}：${TEXT.liked} ${bucket.liked}，${TEXT.disliked} ${bucket.disliked}`}
            sx={{ display: 'grid', gridTemplateColumns: '5.5em 1fr', alignItems: 'center', columnGap: 1 }}
          >
            <Typography
              variant="caption"
              color={bucket.from + 1e-9 >= threshold ? 'text.primary' : 'text.disabled'}
              aria-hidden
            >
              {percent(bucket.from)}–{percent(bucket.to)}
            </Typography>
            <Box aria-hidden>
              <Bar count={bucket.liked} widest={widest} color="primary.main" />
              <Bar count={bucket.disliked} widest={widest} color="warning.main" />
            </Box>
          </Box>
        ))}
      </Stack>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mt: 1.5 }}>
        <Typography variant="body2" data-testid="papers-threshold-text" sx={{ flex: 1, minWidth: '14em' }}>
          {TEXT.suggestion(percent(threshold), percent(data.liked_kept ?? 1), percent(data.disliked_filtered ?? 0))}
        </Typography>
        <Button variant="outlined" size="small" onClick={() => onApply(threshold)} data-testid="papers-threshold-apply">
          {TEXT.apply}
        </Button>
      </Box>
    </Box>
  );
}

function Bar({ count, widest, color }: { count: number; widest: number; color: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, height: 10 }}>
      <Box
        sx={{ height: 6, borderRadius: 1, bgcolor: color, width: `${(count / widest) * 85}%`, minWidth: count ? 3 : 0 }}
      />
      {count ? (
        <Typography variant="caption" sx={{ lineHeight: 1 }}>
          {count}
        </Typography>
      ) : null}
    </Box>
  );
}

/** An answer of our backend with a suggestion (anything else hides the section). */
function isUsable(data: RatingThresholdResponse | undefined): data is RatingThresholdResponse {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof data.suggested_threshold === 'number' &&
    Array.isArray(data.buckets) &&
    data.buckets.length > 0
  );
}
