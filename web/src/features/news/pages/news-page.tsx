import NewspaperOutlined from '@mui/icons-material/NewspaperOutlined';
import TuneRounded from '@mui/icons-material/TuneRounded';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { EmptyState } from '@/components/feedback/empty-state';
import { NewsCard } from '@/components/news/news-card';
import { Page } from '@/components/page/page';
import { paths } from '@/config/paths';
import { useNewsRecommendations } from '../api/get-news-recommendations';
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
 * /news (spec section 2, "News page"): the recommended news with a settings panel behind an icon;
 * the list follows every settings change, apply and retry. Guarded; app/routes/news.tsx passes the
 * session in.
 */
export function NewsPage({ hasResearchSummary }: NewsPageProps) {
  const settings = useNewsParams();
  const [isSettingsOpen, setIsSettingsOpen] = useState(false);
  const panelId = useId();
  const news = useNewsRecommendations(settings.active, settings.page, hasResearchSummary);
  const { data, error, isError, isFetching } = news;

  const apply = () => {
    if (!settings.apply() && hasResearchSummary) void news.refetch();
    setIsSettingsOpen(false);
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
    // A retry after a failure shows the loading state again (spec section 4: loading, then success or failure).
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
        <Alert
          severity="warning"
          data-testid="news-error"
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() => void news.refetch()}
              disabled={isFetching}
              data-testid="news-retry"
            >
              {STRINGS.errors.retry}
            </Button>
          }
        >
          <AlertTitle>{STRINGS.errors.title}</AlertTitle>
          {view.message}
        </Alert>
      );
    }
    if (isLoading || !data) {
      return (
        <Box
          role="status"
          data-testid="news-loading"
          sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 8 }}
        >
          <CircularProgress size={32} />
          <Typography color="text.secondary">{STRINGS.result.loading}</Typography>
        </Box>
      );
    }
    const total = data.pagination.total_count;
    if (data.data.length === 0) {
      return (
        <EmptyState
          icon={<NewspaperOutlined />}
          title={STRINGS.empty.title}
          hint={STRINGS.empty.hint}
          testId="news-empty"
        />
      );
    }
    const pages = pageCount(total, NEWS_PAGE_SIZE);
    return (
      <Stack spacing={2}>
        <Typography variant="h5" component="h2" data-testid="news-result-heading">
          {STRINGS.result.heading(total)}
        </Typography>
        <Stack component="ul" spacing={2} sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid="news-list">
          {data.data.map((item) => (
            <li key={item.id}>
              <NewsCard item={item} />
            </li>
          ))}
        </Stack>
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
        <Box sx={{ position: 'relative' }} aria-busy={isFetching}>
          {isFetching && data && !isError ? (
            <LinearProgress sx={{ position: 'absolute', top: -12, left: 0, right: 0 }} data-testid="news-refreshing" />
          ) : null}
          {renderContent()}
        </Box>
      </Stack>
    </Page>
  );
}
