import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import TuneRounded from '@mui/icons-material/TuneRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Collapse from '@mui/material/Collapse';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { DateFilterCheckboxes } from '@/components/recommendations/date-filter-checkboxes';
import { RecommendationSliders } from '@/components/recommendations/recommendation-sliders';
import { toggleDateFilter } from '@/lib/recommendation-params';
import { PAPERS_STRINGS } from '../strings';
import {
  JCR_EXCLUSION_ORDER,
  type PaperRecommendationParams,
  toggleExcludedTier,
} from '../utils/recommendation-params';
import { ThresholdSuggestion } from './threshold-suggestion';

const STRINGS = PAPERS_STRINGS.settings;

type RecommendationSettingsProps = {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  /** The settings being edited (the list follows, and they are stored, on apply). */
  draft: PaperRecommendationParams;
  onDraftChange: (draft: PaperRecommendationParams) => void;
  onApply: () => void;
  onCancel: () => void;
  /** After an empty result the apply button reads 'apply settings and retry'. */
  isRetry: boolean;
  isBusy: boolean;
  /** Applies the threshold suggested from the reader's ratings at once (the section hides without one). */
  onApplyThreshold?: (threshold: number) => void;
};

/** The collapsible 'recommendation settings' card above the paper list. */
export function RecommendationSettings({
  isOpen,
  onOpenChange,
  draft,
  onDraftChange,
  onApply,
  onCancel,
  isRetry,
  isBusy,
  onApplyThreshold,
}: RecommendationSettingsProps) {
  const headingId = useId();
  const contentId = useId();
  const jcrHintId = useId();

  return (
    <Card component="section" aria-labelledby={headingId} data-testid="papers-settings" data-open={isOpen}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: { xs: 2, md: 3 }, py: 1.5 }}>
        <TuneRounded color="primary" aria-hidden />
        <Typography id={headingId} variant="h6" component="h2" sx={{ flex: 1 }}>
          {STRINGS.title}
        </Typography>
        <IconButton
          aria-label={isOpen ? STRINGS.collapse : STRINGS.expand}
          aria-expanded={isOpen}
          aria-controls={contentId}
          data-testid="papers-settings-toggle"
          onClick={() => onOpenChange(!isOpen)}
          sx={{ transform: isOpen ? 'rotate(180deg)' : 'none', transition: 'transform 150ms' }}
        >
          <ExpandMoreRounded />
        </IconButton>
      </Box>
      <Collapse in={isOpen} unmountOnExit id={contentId}>
        <CardContent sx={{ px: { xs: 2, md: 3 }, pt: 0, pb: { xs: 2, md: 3 } }}>
          <Stack spacing={3}>
            <RecommendationSliders
              topK={draft.topK}
              threshold={draft.threshold}
              onTopKChange={(topK) => onDraftChange({ ...draft, topK })}
              onThresholdChange={(threshold) => onDraftChange({ ...draft, threshold })}
              testIdPrefix="papers-settings"
            />
            {onApplyThreshold ? <ThresholdSuggestion onApply={onApplyThreshold} /> : null}
            <FormControl component="fieldset" aria-describedby={jcrHintId} data-testid="papers-settings-jcr">
              <FormLabel component="legend" sx={{ typography: 'subtitle2', color: 'text.primary', mb: 0.5 }}>
                {STRINGS.jcr}
              </FormLabel>
              <FormGroup row>
                {JCR_EXCLUSION_ORDER.map((tier) => (
                  <FormControlLabel
                    key={tier}
                    label={STRINGS.jcrTier(tier)}
                    control={
                      <Checkbox
                        size="small"
                        checked={draft.excludedJCR.includes(tier)}
                        onChange={(event) =>
                          onDraftChange({
                            ...draft,
                            excludedJCR: toggleExcludedTier(draft.excludedJCR, tier, event.target.checked),
                          })
                        }
                      />
                    }
                  />
                ))}
              </FormGroup>
              <FormHelperText id={jcrHintId} sx={{ mx: 0 }}>
                {STRINGS.jcrHint}
              </FormHelperText>
            </FormControl>
            <DateFilterCheckboxes
              selected={draft.dateFilter}
              onToggle={(label, checked) =>
                onDraftChange({ ...draft, dateFilter: toggleDateFilter(draft.dateFilter, label, checked) })
              }
              testId="papers-settings-date"
            />
            <Box sx={{ display: 'flex', justifyContent: 'flex-end', flexWrap: 'wrap', gap: 1.5 }}>
              <Button variant="text" onClick={onCancel} data-testid="papers-settings-cancel">
                {STRINGS.cancel}
              </Button>
              <Button variant="contained" onClick={onApply} disabled={isBusy} data-testid="papers-settings-apply">
                {isRetry ? STRINGS.applyAndRetry : STRINGS.apply}
              </Button>
            </Box>
          </Stack>
        </CardContent>
      </Collapse>
    </Card>
  );
}
