import NewspaperOutlined from '@mui/icons-material/NewspaperOutlined';
import TuneRounded from '@mui/icons-material/TuneRounded';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { ActionSnackbar } from '@/components/feedback/action-snackbar';
import { EmptyState } from '@/components/feedback/empty-state';
import { FreshnessLine } from '@/components/recommendations/freshness-line';
import { IncludeRatedChip } from '@/components/recommendations/include-rated-chip';
import {
  RecommendationEmptyState,
  RecommendationMore,
  RecommendationPage,
} from '@/components/recommendations/recommendation-page';
import { useBusyIds } from '@/hooks/use-busy-ids';
import { type ActionNotice, useDismiss } from '@/hooks/use-dismiss';
import { useRating } from '@/hooks/use-rating';
import type { NewsRecommendations } from '@/lib/spec-answers';
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
  const { isFetching } = news.query;
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

  const renderData = (data: NewsRecommendations) => {
    const total = data.pagination.total_count;
    // Not every backend says how fresh its sources are: without it the line is left out.
    const freshness = data.freshness ? (
      <FreshnessLine kind="news" freshness={data.freshness} testId="news-freshness" />
    ) : null;
    if (data.data.length === 0) {
      return (
        <Stack spacing={2}>
          {freshness}
          <RecommendationEmptyState
            icon={<NewspaperOutlined />}
            title={STRINGS.empty.title}
            hint={STRINGS.empty.hint}
            explanation={data.empty_explanation}
            onApplyChange={applySuggestedChange}
            isBusy={isFetching}
            testIdPrefix="news"
          />
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
        <RecommendationMore list={news} describeError={describeNewsError} strings={STRINGS} testIdPrefix="news" />
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
    <RecommendationPage
      testIdPrefix="news"
      strings={STRINGS}
      hasResearchSummary={hasResearchSummary}
      query={news.query}
      describeError={describeNewsError}
      onRetry={news.reload}
      profileNotSetSeverity="info"
      loadingLabel={STRINGS.result.loading}
      noSummaryContent={
        <EmptyState
          icon={<NewspaperOutlined />}
          title={STRINGS.empty.title}
          hint={STRINGS.empty.noSummaryHint}
          testId="news-empty"
        />
      }
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
      controls={
        <NewsSettingsPanel
          id={panelId}
          isOpen={isSettingsOpen}
          params={settings.params}
          onPreview={settings.preview}
          onCommit={settings.commit}
          onApply={apply}
          isBusy={isFetching}
        />
      }
      renderData={renderData}
    >
      <ActionSnackbar notice={notice} onClose={() => setNotice(null)} testId="news-notice" />
    </RecommendationPage>
  );
}
