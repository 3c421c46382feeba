import ArticleOutlined from '@mui/icons-material/ArticleOutlined';
import SearchOffRounded from '@mui/icons-material/SearchOffRounded';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { EmptyState } from '@/components/feedback/empty-state';
import { LoadingStatus, RefreshArea } from '@/components/feedback/loading-status';
import { RetryAlert } from '@/components/feedback/retry-alert';
import { Page } from '@/components/page/page';
import { PaperActionFeedback } from '@/components/papers/paper-action-feedback';
import { EmptyExplanationBox } from '@/components/recommendations/empty-explanation';
import { FreshnessLine } from '@/components/recommendations/freshness-line';
import { IncludeRatedChip } from '@/components/recommendations/include-rated-chip';
import { LoadMoreFooter } from '@/components/recommendations/load-more-footer';
import { paths } from '@/config/paths';
import { usePaperActions } from '@/hooks/use-paper-actions';
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

  const { data, error, isError, isFetching, failureCount } = recommendations.query;
  const isEmptyResult = !isError && data?.recommendations.length === 0;
  const hasNoItems = isEmptyResult && data?.empty_explanation?.cause === 'no_items';

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

  const goSetUp = (
    <Button component={RouterLink} to={paths.my.getHref()} color="inherit" size="small" data-testid="papers-go-setup">
      {STRINGS.errors.goSetUp}
    </Button>
  );

  const renderContent = () => {
    if (!hasResearchSummary) {
      return (
        <EmptyState
          icon={<ArticleOutlined />}
          title={STRINGS.empty.none}
          hint={STRINGS.empty.noneHint}
          testId="papers-empty"
          kind="none"
        />
      );
    }
    // A retry after a failure shows the loading state again (loading, then success or failure).
    const isLoading = isFetching && (isError || !data);
    if (isError && !isLoading) {
      const view = describeRecommendationError(error);
      if (view.type === 'research_direction_not_set') {
        return (
          <Alert severity="warning" action={goSetUp} data-testid="papers-direction-error">
            {view.title ? <AlertTitle>{view.title}</AlertTitle> : null}
            {view.message}
          </Alert>
        );
      }
      return (
        <RetryAlert
          message={view.message}
          retryLabel={STRINGS.errors.retry}
          onRetry={recommendations.reload}
          isRetrying={isFetching}
          testId="papers-error"
          retryTestId="papers-retry"
        />
      );
    }
    if (isLoading || !data) {
      return (
        <LoadingStatus
          label={failureCount > 0 ? STRINGS.result.retrying(failureCount + 1) : STRINGS.result.loading}
          testId="papers-loading"
        />
      );
    }
    return (
      <Stack spacing={2}>
        <Stack spacing={0.5}>
          <Typography variant="h5" component="h2" data-testid="papers-result-heading">
            {/* The answer's count, plus the papers 加载更多 appended (not interested ones leave both). */}
            {STRINGS.result.heading(
              data.recommendations_count + recommendations.papers.length - data.recommendations.length,
            )}
            {data.filtered_out_count ? (
              <Typography component="span" color="text.secondary" sx={{ ml: 0.5, typography: 'body1' }}>
                {STRINGS.result.filteredOut(data.filtered_out_count)}
              </Typography>
            ) : null}
          </Typography>
          {data.freshness ? <FreshnessLine kind="paper" freshness={data.freshness} testId="papers-freshness" /> : null}
        </Stack>
        {isEmptyResult ? (
          <EmptyState
            icon={<SearchOffRounded />}
            title={STRINGS.empty.notFound}
            // With nothing stored no setting helps: the explanation says what is missing instead.
            hint={hasNoItems ? undefined : STRINGS.empty.notFoundHint}
            testId="papers-empty"
            kind="not-found"
            action={
              hasNoItems ? undefined : (
                <Button variant="outlined" onClick={() => setIsSettingsOpen(true)} data-testid="papers-open-settings">
                  {STRINGS.settings.title}
                </Button>
              )
            }
          >
            {data.empty_explanation ? (
              <EmptyExplanationBox
                explanation={data.empty_explanation}
                onApplyChange={applySuggestedChange}
                isBusy={isFetching}
                testId="papers-empty-explanation"
              />
            ) : null}
          </EmptyState>
        ) : (
          <Stack spacing={2}>
            <PaperCardList
              papers={recommendations.papers}
              actions={actions}
              testId="papers-list"
              scoreOf={(paper) => paper.similarity_score}
              canDismiss
            />
            <LoadMoreFooter
              state={recommendations.moreState}
              isLoading={recommendations.isLoadingMore}
              errorMessage={
                recommendations.moreError ? describeRecommendationError(recommendations.moreError).message : null
              }
              onLoadMore={recommendations.loadMore}
              onRetry={recommendations.retryMore}
              labels={{ ...STRINGS.more, retry: STRINGS.errors.retry }}
              testIdPrefix="papers"
            />
          </Stack>
        )}
      </Stack>
    );
  };

  return (
    <Page title={STRINGS.pageTitle} subtitle={STRINGS.pageSubtitle}>
      <Stack spacing={3}>
        {hasResearchSummary ? null : (
          <Alert severity="info" action={goSetUp} data-testid="papers-no-summary">
            <AlertTitle>{STRINGS.noSummary.title}</AlertTitle>
            {STRINGS.noSummary.body}
          </Alert>
        )}
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
        <RefreshArea isFetching={isFetching} showBar={isFetching && !!data && !isError} barTestId="papers-refreshing">
          <Stack spacing={3}>
            {isError ? null : (
              <FollowedAuthorsSection
                papers={data?.followed_author_papers ?? []}
                namesakes={data?.followed_author_namesakes}
                actions={actions}
              />
            )}
            {renderContent()}
          </Stack>
        </RefreshArea>
      </Stack>

      <PaperActionFeedback actions={actions} testId="papers-notice" />
    </Page>
  );
}
