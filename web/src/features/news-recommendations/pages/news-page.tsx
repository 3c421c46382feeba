import NewspaperOutlined from '@mui/icons-material/NewspaperOutlined';
import TuneRounded from '@mui/icons-material/TuneRounded';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { ActionSnackbar } from '@/components/feedback/action-snackbar';
import { EmptyState } from '@/components/feedback/empty-state';
import { LoadingStatus, RefreshArea } from '@/components/feedback/loading-status';
import { RetryAlert } from '@/components/feedback/retry-alert';
import { Page } from '@/components/page/page';
import { EmptyExplanationBox } from '@/components/recommendations/empty-explanation';
import { FreshnessLine } from '@/components/recommendations/freshness-line';
import { IncludeRatedChip } from '@/components/recommendations/include-rated-chip';
import { LoadMoreFooter } from '@/components/recommendations/load-more-footer';
import { paths } from '@/config/paths';
import { useBusyIds } from '@/hooks/use-busy-ids';
import { type ActionNotice, useDismiss } from '@/hooks/use-dismiss';
import { useRating } from '@/hooks/use-rating';
import { useNewsRecommendations } from '../api/get-news-recommendations';
import { NewsCardList } from '../components/news-card-list';
import { NewsSettingsPanel } from '../components/news-settings-panel';
import { useNewsParams } from '../hooks/use-news-params';
import { NEWS_STRINGS as STRINGS } from '../strings';
import { describeNewsError } from '../utils/news-errors';
import { NEWS_PAGE_SIZE, pageCount } from '../utils/news-params';

type NewsPageProps = {
  /** Whether the account has an English research summary; without one nothing is requested. */
  hasResearchSummary: boolean;
};

/**
 * /news: the recommended news with a settings panel behind an icon;
 * the list follows every settings change, apply and retry. Above it how fresh the sources are; each
 * card says why it is recommended and offers 'not interested'; an empty list says why, with the one
 * change that helps. Guarded; app/routes/news.tsx passes the session in.
 */
export function NewsPage({ hasResearchSummary }: NewsPageProps) {
  const settings = useNewsParams();
  const [isSettingsOpen, setIsSettingsOpen] = useState(false);
  const panelId = useId();
  const news = useNewsRecommendations(settings.active, settings.page, hasResearchSummary);
  const { data, error, isError, isFetching } = news.query;
  const { setBusy, isBusy } = useBusyIds();
  const [notice, setNotice] = useState<ActionNotice | null>(null);
  const dismiss = useDismiss('news', { setBusy, setNotice });
  const rate = useRating('news', { setBusy, setNotice: (message) => setNotice({ message }) });

  const apply = () => {
    if (!settings.apply() && hasResearchSummary) news.reload();
    setIsSettingsOpen(false);
  };

  const applySuggestedChange = (change: Record<string, string>) => {
    if (!settings.applyChange(change) && hasResearchSummary) news.reload();
  };

  const goSetUp = (
    <Button component={RouterLink} to={paths.my.getHref()} color="inherit" size="small" data-testid="news-go-setup">
      {STRINGS.errors.goSetUp}
    </Button>
  );

  const renderContent = () => {
    if (!hasResearchSummary) {
      return (
        <EmptyState
          icon={<NewspaperOutlined />}
          title={STRINGS.empty.title}
          hint={STRINGS.empty.noSummaryHint}
          testId="news-empty"
        />
      );
    }
    // A retry after a failure shows the loading state again (loading, then success or failure).
    const isLoading = isFetching && (isError || !data);
    if (isError && !isLoading) {
      const view = describeNewsError(error);
      if (view.kind === 'direction') {
        return (
          <Alert severity="info" action={goSetUp} data-testid="news-direction-error">
            {view.message}
          </Alert>
        );
      }
      return (
        <RetryAlert
          title={STRINGS.errors.title}
          message={view.message}
          retryLabel={STRINGS.errors.retry}
          onRetry={news.reload}
          isRetrying={isFetching}
          testId="news-error"
          retryTestId="news-retry"
        />
      );
    }
    if (isLoading || !data) {
      return <LoadingStatus label={STRINGS.result.loading} testId="news-loading" />;
    }
    const total = data.pagination.total_count;
    // Not every backend says how fresh its sources are: without it the line is left out.
    const freshness = data.freshness ? (
      <FreshnessLine kind="news" freshness={data.freshness} testId="news-freshness" />
    ) : null;
    if (data.data.length === 0) {
      return (
        <Stack spacing={2}>
          {freshness}
          <EmptyState
            icon={<NewspaperOutlined />}
            title={STRINGS.empty.title}
            // With nothing stored no setting helps: the explanation says what is missing instead.
            hint={data.empty_explanation?.cause === 'no_items' ? undefined : STRINGS.empty.hint}
            testId="news-empty"
          >
            {data.empty_explanation ? (
              <EmptyExplanationBox
                explanation={data.empty_explanation}
                onApplyChange={applySuggestedChange}
                isBusy={isFetching}
                testId="news-empty-explanation"
              />
            ) : null}
          </EmptyState>
        </Stack>
      );
    }
    const pages = pageCount(total, NEWS_PAGE_SIZE);
    return (
      <Stack spacing={2}>
        <Stack spacing={0.5}>
          <Typography variant="h5" component="h2" data-testid="news-result-heading">
            {/* The set's count, plus the news 加载更多 appended. */}
            {STRINGS.result.heading(total + news.items.length - data.data.length)}
          </Typography>
          {freshness}
        </Stack>
        <NewsCardList items={news.items} onDismiss={dismiss} onRate={rate} isBusy={isBusy} />
        <LoadMoreFooter
          state={news.moreState}
          isLoading={news.isLoadingMore}
          errorMessage={news.moreError ? describeNewsError(news.moreError).message : null}
          onLoadMore={news.loadMore}
          onRetry={news.retryMore}
          labels={{ ...STRINGS.more, retry: STRINGS.errors.retry }}
          testIdPrefix="news"
        />
        {total > NEWS_PAGE_SIZE ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', pt: 1 }}>
            <Pagination
              count={pages}
              page={Math.min(settings.page, pages)}
              onChange={(_event, page) => {
                settings.setPage(page);
                window.scrollTo({ top: 0 });
              }}
              color="primary"
              aria-label={STRINGS.result.pagination}
              getItemAriaLabel={STRINGS.result.pageItem}
              data-testid="news-recommendations-pagination"
            />
          </Box>
        ) : null}
      </Stack>
    );
  };

  return (
    <Page
      title={STRINGS.pageTitle}
      subtitle={STRINGS.pageSubtitle}
      actions={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <IncludeRatedChip
            label={STRINGS.includeRated.label}
            hint={STRINGS.includeRated.hint}
            isOn={settings.active.includeRated === true}
            onToggle={settings.setIncludeRated}
            testId="news-include-rated"
          />
          <Tooltip title={isSettingsOpen ? STRINGS.settings.close : STRINGS.settings.open}>
            <IconButton
              aria-label={STRINGS.settings.title}
              aria-expanded={isSettingsOpen}
              aria-controls={panelId}
              color={isSettingsOpen ? 'primary' : 'default'}
              onClick={() => setIsSettingsOpen((open) => !open)}
              data-testid="news-settings-toggle"
            >
              <TuneRounded />
            </IconButton>
          </Tooltip>
        </Stack>
      }
    >
      <Stack spacing={3}>
        {hasResearchSummary ? null : (
          <Alert severity="info" action={goSetUp} data-testid="news-no-summary">
            <AlertTitle>{STRINGS.noSummary.title}</AlertTitle>
            {STRINGS.noSummary.body}
          </Alert>
        )}
        <NewsSettingsPanel
          id={panelId}
          isOpen={isSettingsOpen}
          params={settings.params}
          onPreview={settings.preview}
          onCommit={settings.commit}
          onApply={apply}
          isBusy={isFetching}
        />
        <RefreshArea isFetching={isFetching} showBar={isFetching && !!data && !isError} barTestId="news-refreshing">
          {renderContent()}
        </RefreshArea>
      </Stack>

      <ActionSnackbar notice={notice} onClose={() => setNotice(null)} testId="news-notice" />
    </Page>
  );
}
