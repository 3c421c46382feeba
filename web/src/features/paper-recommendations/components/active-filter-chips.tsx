import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { formatSimilarityPercent } from '@/lib/paper-display';
import { effectiveDateFilter } from '@/lib/recommendation-params';
import { PAPERS_STRINGS } from '../strings';
import type { PaperRecommendationParams } from '../utils/recommendation-params';

const STRINGS = PAPERS_STRINGS.chips;

/** The active filters: similarity floor (no decimals), excluded tiers, date range. */
export function ActiveFilterChips({ params }: { params: PaperRecommendationParams }) {
  return (
    <Box
      component="ul"
      aria-label={STRINGS.label}
      data-testid="papers-active-filters"
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', m: 0, p: 0 }}
    >
      <li>
        <Chip
          size="small"
          color="primary"
          label={STRINGS.threshold(formatSimilarityPercent(params.threshold, 0) ?? '')}
          data-testid="papers-chip-threshold"
        />
      </li>
      {params.excludedJCR.map((tier) => (
        <li key={tier}>
          <Chip size="small" label={STRINGS.excludedTier(tier)} data-testid="papers-chip-excluded-tier" />
        </li>
      ))}
      <li>
        <Chip
          size="small"
          label={STRINGS.date(effectiveDateFilter(params.dateFilter))}
          data-testid="papers-chip-date"
        />
      </li>
    </Box>
  );
}
