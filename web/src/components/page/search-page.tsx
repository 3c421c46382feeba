import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { RetryAlert } from '@/components/feedback/retry-alert';
import { SearchTabs } from '@/components/navigation/search-tabs';
import { getErrorMessage } from '@/lib/api-client';
import { Page } from './page';

type SearchPageProps<TData> = {
  strings: {
    pageTitle: string;
    pageSubtitle: string;
    start: string;
    loadFailed: string;
    retry: string;
    noResults: string;
  };
  /** The search screen shown (its tab). */
  tab: 'papers' | 'news';
  /**
   * 'article' or 'news': the results' section is `-results` (labelled by `-results-heading`), its states
   * `-search-start`, `-search-error` and `-search-empty`.
   */
  testIdPrefix: string;
  /** The form (and what goes with it), in a card above the results. */
  form: ReactNode;
  /** Whether anything is searched; before that the section says how to start. */
  isStarted: boolean;
  search: UseQueryResult<TData>;
  /** Shown while the first answer loads. */
  loading: ReactNode;
  isEmpty: (data: TData) => boolean;
  /** The results, under a heading with the id `${testIdPrefix}-results-heading`. */
  renderResults: (data: TData) => ReactNode;
  /** After the results: the card actions' notices. */
  children?: ReactNode;
};

/**
 * A search screen (/search and /search/news): the tabs, the form, and the results' states: not started,
 * loading, failed with a retry, nothing found, the results.
 */
export function SearchPage<TData>({
  strings,
  tab,
  testIdPrefix,
  form,
  isStarted,
  search,
  loading,
  isEmpty,
  renderResults,
  children,
}: SearchPageProps<TData>) {
  const renderSection = () => {
    if (!isStarted) {
      return (
        <Typography color="text.secondary" data-testid={`${testIdPrefix}-search-start`}>
          {strings.start}
        </Typography>
      );
    }
    if (search.isPending) return loading;
    if (search.isError) {
      return (
        <RetryAlert
          title={strings.loadFailed}
          message={getErrorMessage(search.error)}
          retryLabel={strings.retry}
          onRetry={() => void search.refetch()}
          testId={`${testIdPrefix}-search-error`}
        />
      );
    }
    if (isEmpty(search.data)) {
      return (
        <Alert severity="info" data-testid={`${testIdPrefix}-search-empty`}>
          {strings.noResults}
        </Alert>
      );
    }
    return renderResults(search.data);
  };

  return (
    <Page title={strings.pageTitle} subtitle={strings.pageSubtitle}>
      <SearchTabs current={tab} />
      <Card sx={{ mb: 3 }}>
        <CardContent sx={{ p: { xs: 2, md: 3 } }}>{form}</CardContent>
      </Card>
      <Box
        component="section"
        aria-labelledby={`${testIdPrefix}-results-heading`}
        data-testid={`${testIdPrefix}-results`}
      >
        {renderSection()}
      </Box>
      {children}
    </Page>
  );
}
