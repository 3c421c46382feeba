import UpdateRounded from '@mui/icons-material/UpdateRounded';
import Typography from '@mui/material/Typography';
import type { Freshness } from '@radar/shared';
import { describeFreshness } from '@/lib/freshness';
import type { RecommendationKind } from '@/lib/recommendation-list';
import { formatAbsoluteDate } from '@/lib/relative-time';

/** The freshness line above a recommendation list (describeFreshness says what it reads). */
export function FreshnessLine({
  kind,
  freshness,
  testId,
  now,
}: {
  kind: RecommendationKind;
  freshness: Freshness;
  testId: string;
  /** "Now" for the relative time; tests pin it. */
  now?: Date;
}) {
  return (
    <Typography
      variant="body2"
      color="text.secondary"
      data-testid={testId}
      sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}
    >
      <UpdateRounded aria-hidden sx={{ fontSize: 18, flexShrink: 0 }} />
      <span title={absoluteMoments(kind, freshness)}>{describeFreshness(kind, freshness, now)}</span>
    </Typography>
  );
}

/** The hover text: the moments the line gives relatively (3小时前), as absolute dates in the readers' zone. */
function absoluteMoments(kind: RecommendationKind, freshness: Freshness): string | undefined {
  const noun = kind === 'paper' ? '论文' : '新闻';
  const checked = formatAbsoluteDate(freshness.last_checked_at);
  const newest = formatAbsoluteDate(freshness.last_new_item_at);
  const lines = [checked ? `${noun}来源最近更新：${checked}` : '', newest ? `最新${noun}收录于：${newest}` : ''];
  return lines.filter(Boolean).join('\n') || undefined;
}
