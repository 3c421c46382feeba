import ArticleOutlined from '@mui/icons-material/ArticleOutlined';
import SearchOffRounded from '@mui/icons-material/SearchOffRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { EmptyState } from '@/components/feedback/empty-state';
import { PaperActionFeedback } from '@/components/papers/paper-action-feedback';
import { FreshnessLine } from '@/components/recommendations/freshness-line';
import { IncludeRatedChip } from '@/components/recommendations/include-rated-chip';
import {
  RecommendationEmptyState,
  RecommendationMore,
  RecommendationPage,
} from '@/components/recommendations/recommendation-page';
import { usePaperActions } from '@/hooks/use-paper-actions';
import type { PaperRecommendations } from '@/lib/spec-answers';
import { usePaperRecommendations } from '../api/get-paper-recommendations';
import { ActiveFilterChips } from '../components/active-filter-chips';
import { FollowedAuthorsSection } from '../components/followed-authors-section';
import { PaperCardList } from '../components/paper-card-list';
import { RecommendationSettings } from '../components/recommendation-settings';
import { useRecommendationParams } from '../hooks/use-recommendation-params';
import { PAPERS_STRINGS as STRINGS } from '../strings';
import { describeRecommendationError } from '../utils/recommendation-errors';

type PapersPageProps = {
  /** Whether the account has an English research summary; without one nothing is requested. */
  hasResearchSummary: boolean;
};

/**
 * /papers: settings, active filters, how fresh the
 * sources are, the recommended papers with favourite, save, share and 'not interested' and why each is
 * recommended, and the empty (with the API's explanation) and error states. Guarded;
 * app/routes/papers.tsx passes the session in.
 */
export function PapersPage({ hasResearchSummary }: PapersPageProps) {
  const params = useRecommendationParams();
  const [isSettingsOpen, setIsSettingsOpen] = useState(false);
  const recommendations = usePaperRecommendations(params.applied, hasResearchSummary);
  const actions = usePaperActions();

  const { data, isError, isFetching, failureCount } = recommendations.query;
  const isEmptyResult = !isError && data?.recommendations.length === 0;

  const apply = () => {
    const changed = params.apply();
    // Same settings (e.g. 'apply settings and retry' without changes): load them again.
    if (!changed && hasResearchSummary) recommendations.reload();
    setIsSettingsOpen(false);
  };
  const applySuggestedChange = (change: Record<string, string>) => {
    if (!params.applyChange(change)) recommendations.reload();
  };
  const cancel = () => {
    params.cancel();
    setIsSettingsOpen(false);
  };

  const renderData = (answer: PaperRecommendations) => (
    <Stack spacing={2}>
      <Stack spacing={0.5}>
        <Typography variant="h5" component="h2" data-testid="papers-result-heading">
          {/* The answer's count, plus the papers 加载更多 appended (not interested ones leave both). */}
          {STRINGS.result.heading(
            answer.recommendations_count + recommendations.papers.length - answer.recommendations.length,
          )}
          {answer.filtered_out_count ? (
            <Typography component="span" color="text.secondary" sx={{ ml: 0.5, typography: 'body1' }}>
              {STRINGS.result.filteredOut(answer.filtered_out_count)}
            </Typography>
          ) : null}
        </Typography>
        {answer.freshness ? (
          <FreshnessLine kind="paper" freshness={answer.freshness} testId="papers-freshness" />
        ) : null}
      </Stack>
      {answer.recommendations.length === 0 ? (
        <RecommendationEmptyState
          icon={<SearchOffRounded />}
          title={STRINGS.empty.notFound}
          hint={STRINGS.empty.notFoundHint}
          explanation={answer.empty_explanation}
          onApplyChange={applySuggestedChange}
          isBusy={isFetching}
          testIdPrefix="papers"
          kind="not-found"
          action={
            <Button variant="outlined" onClick={() => setIsSettingsOpen(true)} data-testid="papers-open-settings">
              {STRINGS.settings.title}
            </Button>
          }
        />
      ) : (
        <Stack spacing={2}>
          <PaperCardList
            papers={recommendations.papers}
            actions={actions}
            testId="papers-list"
            scoreOf={(paper) => paper.similarity_score}
            canDismiss
          />
          <RecommendationMore
            list={recommendations}
            describeError={describeRecommendationError}
            strings={STRINGS}
            testIdPrefix="papers"
          />
        </Stack>
      )}
    </Stack>
  );

  return (
    <RecommendationPage
      testIdPrefix="papers"
      strings={STRINGS}
      hasResearchSummary={hasResearchSummary}
      query={recommendations.query}
      describeError={describeRecommendationError}
      onRetry={recommendations.reload}
      profileNotSetSeverity="warning"
      loadingLabel={failureCount > 0 ? STRINGS.result.retrying(failureCount + 1) : STRINGS.result.loading}
      noSummaryContent={
        <EmptyState
          icon={<ArticleOutlined />}
          title={STRINGS.empty.none}
          hint={STRINGS.empty.noneHint}
          testId="papers-empty"
          kind="none"
        />
      }
      controls={
        <>
          <RecommendationSettings
            isOpen={isSettingsOpen}
            onOpenChange={setIsSettingsOpen}
            draft={params.draft}
            onDraftChange={params.changeDraft}
            onApply={apply}
            onCancel={cancel}
            isRetry={isEmptyResult}
            isBusy={isFetching}
            // Asked only once the list loaded: without a profile vector the call fails like the list.
            onApplyThreshold={
              hasResearchSummary && data && !isError
                ? (threshold) => {
                    applySuggestedChange({ similarity_threshold: String(threshold) });
                    setIsSettingsOpen(false);
                  }
                : undefined
            }
          />
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            <ActiveFilterChips params={params.applied} />
            <IncludeRatedChip
              label={STRINGS.includeRated.label}
              hint={STRINGS.includeRated.hint}
              isOn={params.applied.includeRated === true}
              onToggle={params.setIncludeRated}
              testId="papers-include-rated"
            />
          </Box>
        </>
      }
      aboveList={
        <FollowedAuthorsSection
          papers={data?.followed_author_papers ?? []}
          namesakes={data?.followed_author_namesakes}
          actions={actions}
        />
      }
      renderData={renderData}
    >
      <PaperActionFeedback actions={actions} testId="papers-notice" />
    </RecommendationPage>
  );
}
