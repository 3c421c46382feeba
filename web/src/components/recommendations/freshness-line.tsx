import UpdateRounded from '@mui/icons-material/UpdateRounded';
import Typography from '@mui/material/Typography';
import type { Freshness } from '@radar/shared';
import { describeFreshness } from '@/lib/freshness';
import type { RecommendationKind } from '@/lib/recommendation-list';

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
      <span>{describeFreshness(kind, freshness, now)}</span>
    </Typography>
  );
}
