import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Collapse from '@mui/material/Collapse';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { DateFilterCheckboxes } from '@/components/recommendations/date-filter-checkboxes';
import { RecommendationSliders } from '@/components/recommendations/recommendation-sliders';
import { toggleDateFilter } from '@/lib/recommendation-params';
import { NEWS_STRINGS } from '../strings';
import { defaultNewsParams, type NewsRecommendationParams } from '../utils/news-params';

const STRINGS = NEWS_STRINGS.settings;

type NewsSettingsPanelProps = {
  id: string;
  isOpen: boolean;
  params: NewsRecommendationParams;
  onPreview: (patch: Partial<NewsRecommendationParams>) => void;
  onCommit: (patch: Partial<NewsRecommendationParams>) => void;
  onApply: () => void;
  isBusy: boolean;
};

/** The news recommendation settings: the sliders of the papers page and the date filter. */
export function NewsSettingsPanel({
  id,
  isOpen,
  params,
  onPreview,
  onCommit,
  onApply,
  isBusy,
}: NewsSettingsPanelProps) {
  const headingId = useId();
  return (
    <Collapse in={isOpen} unmountOnExit id={id}>
      <Card component="section" aria-labelledby={headingId} data-testid="news-settings">
        <CardContent sx={{ p: { xs: 2, md: 3 } }}>
          <Typography id={headingId} variant="h6" component="h2">
            {STRINGS.title}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {STRINGS.hint}
          </Typography>
          <Stack spacing={3}>
            <RecommendationSliders
              topK={params.topK}
              threshold={params.threshold}
              onTopKChange={(topK) => onPreview({ topK })}
              onThresholdChange={(threshold) => onPreview({ threshold })}
              onCommit={onCommit}
              testIdPrefix="news-settings"
            />
            <DateFilterCheckboxes
              selected={params.dateFilter}
              onToggle={(label, checked) =>
                onCommit({ dateFilter: toggleDateFilter(params.dateFilter, label, checked) })
              }
              testId="news-settings-date"
            />
            <Box sx={{ display: 'flex', justifyContent: 'flex-end', flexWrap: 'wrap', gap: 1.5 }}>
              <Button variant="text" onClick={() => onCommit(defaultNewsParams())} data-testid="news-settings-reset">
                {STRINGS.reset}
              </Button>
              <Button variant="contained" onClick={onApply} disabled={isBusy} data-testid="news-settings-apply">
                {STRINGS.apply}
              </Button>
            </Box>
          </Stack>
        </CardContent>
      </Card>
    </Collapse>
  );
}
