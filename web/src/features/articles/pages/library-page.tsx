import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { ARTICLE_LIBRARY_LISTS, type ArticleLibraryList, LIMITS } from '@radar/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { downloadLibraryCitations } from '@/api/citation-export';
import { useCanExportCitations } from '@/api/public-config';
import { RelativeDate } from '@/components/dates/relative-date';
import { RetryAlert } from '@/components/feedback/retry-alert';
import { Page } from '@/components/page/page';
import { CitationExportMenu } from '@/components/papers/citation-export-menu';
import { PaperActionFeedback } from '@/components/papers/paper-action-feedback';
import { paths } from '@/config/paths';
import { usePaperActions } from '@/hooks/use-paper-actions';
import { getErrorMessage } from '@/lib/api-client';
import { type LibraryItem, libraryQueryOptions } from '../api/get-library';
import { PaperResults, PaperResultsSkeleton } from '../components/paper-results';
import { useShownPageInUrl } from '../hooks/use-shown-page-in-url';
import { ARTICLE_STRINGS } from '../strings';
import { pageCount } from '../utils/page-fallback';
import { parsePageParam } from '../utils/page-param';

const STRINGS = ARTICLE_STRINGS.library;

/** `?list=` of the URL; anything unknown is the whole library. */
function parseList(value: string | null): ArticleLibraryList {
  return (ARTICLE_LIBRARY_LISTS as readonly string[]).includes(value ?? '') ? (value as ArticleLibraryList) : 'all';
}

const hrefOf = (list: ArticleLibraryList, page = 1) =>
  paths.library.getHref({ list: list === 'all' ? undefined : list, page });

/**
 * /library: the favourited and saved papers (GET /articles/library/), on tabs all / favourites / read
 * later, with the card toggles and each paper's reading progress. A paper un-favourited on the
 * favourites tab leaves it when the list refetches after the toggle.
 */
export function LibraryPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const list = parseList(searchParams.get('list'));
  const page = parsePageParam(searchParams.get('page'));
  const library = useQuery(libraryQueryOptions({ list, page }));
  const actions = usePaperActions();
  const canExport = useCanExportCitations();
  const exportList = useMutation({ mutationFn: downloadLibraryCitations.bind(null, list) });

  useShownPageInUrl({
    requestedPage: page,
    data: library.data,
    isPlaceholderData: library.isPlaceholderData,
    queryKeyOf: (shown) => libraryQueryOptions({ list, page: shown }).queryKey,
    hrefOf: (shown) => hrefOf(list, shown),
  });

  const renderProgress = (paper: LibraryItem) => (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mt: 2 }}>
      <Box sx={{ flex: '1 1 160px', minWidth: 0 }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, mb: 0.5 }}>
          <Typography variant="caption" color="text.secondary" data-testid="library-progress">
            {STRINGS.progress(paper.read_progress)}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            <RelativeDate value={paper.marked_at} format={STRINGS.marked} />
          </Typography>
        </Box>
        <LinearProgress
          variant="determinate"
          value={paper.read_progress}
          aria-label={STRINGS.progressLabel}
          sx={{ height: 6, borderRadius: 3 }}
        />
      </Box>
      {paper.read_progress < 100 ? (
        <Button
          size="small"
          onClick={() => actions.recordRead(paper, 100)}
          disabled={actions.isBusy(paper.id)}
          data-testid="library-mark-read"
        >
          {STRINGS.markRead}
        </Button>
      ) : null}
    </Box>
  );

  return (
    <Page title={STRINGS.pageTitle} subtitle={STRINGS.pageSubtitle}>
      <Tabs
        value={list}
        aria-label={STRINGS.tabsLabel}
        role="navigation"
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        {ARTICLE_LIBRARY_LISTS.map((item) => (
          <Tab
            key={item}
            value={item}
            label={STRINGS.tabs[item]}
            component={RouterLink}
            to={hrefOf(item)}
            aria-current={item === list ? 'page' : undefined}
            data-testid={`library-tab-${item}`}
          />
        ))}
      </Tabs>

      <Box component="section" aria-label={STRINGS.tabs[list]} data-testid="library-results" data-list={list}>
        {library.isPending ? (
          <PaperResultsSkeleton />
        ) : library.isError ? (
          <RetryAlert
            title={STRINGS.loadFailed}
            message={getErrorMessage(library.error)}
            retryLabel={STRINGS.retry}
            onRetry={() => void library.refetch()}
            testId="library-error"
          />
        ) : library.data.results.length === 0 ? (
          <Alert
            severity="info"
            data-testid="library-empty"
            action={
              <Button component={RouterLink} to={paths.search.getHref()} color="inherit" size="small">
                {STRINGS.goSearch}
              </Button>
            }
          >
            {STRINGS.empty[list]}
          </Alert>
        ) : (
          <>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
              <Typography color="text.secondary" sx={{ flexGrow: 1 }} data-testid="library-count">
                {STRINGS.count(library.data.count)}
              </Typography>
              {canExport ? (
                // The whole list (every page) as one file, with the reader's token.
                <CitationExportMenu
                  label={STRINGS.exportList[list]}
                  variant="text"
                  disabled={exportList.isPending}
                  testId="library-export"
                  onSelect={(format) => exportList.mutate(format)}
                />
              ) : null}
            </Box>
            {exportList.isError ? (
              <Alert
                severity="error"
                sx={{ mb: 2 }}
                data-testid="library-export-error"
                onClose={() => exportList.reset()}
              >
                {getErrorMessage(exportList.error)}
              </Alert>
            ) : null}
            <PaperResults
              papers={library.data.results}
              actions={actions}
              page={library.data.page}
              pageCount={pageCount(library.data.count, LIMITS.paperSearchPageSize)}
              onPageChange={(next) => {
                navigate(hrefOf(list, next));
                window.scrollTo({ top: 0 });
              }}
              paginationLabel={STRINGS.pagination}
              renderFooter={renderProgress}
              isStale={library.isPlaceholderData}
            />
          </>
        )}
      </Box>

      <PaperActionFeedback actions={actions} testId="library-notice" />
    </Page>
  );
}
