import Alert, { type AlertColor } from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { EmptyExplanation } from '@radar/shared';
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { EmptyState } from '@/components/feedback/empty-state';
import { LoadingStatus, RefreshArea } from '@/components/feedback/loading-status';
import { RetryAlert } from '@/components/feedback/retry-alert';
import { Page } from '@/components/page/page';
import { paths } from '@/config/paths';
import { earlyPageAt, endEarlyView, rememberListTop } from '@/lib/early-view';
import { EmptyExplanationBox } from './empty-explanation';
import { LoadMoreFooter } from './load-more-footer';
import type { RecommendationErrorView } from './recommendation-error';

/** The texts a recommendation page shares (each page's strings.ts has them under these keys). */
type RecommendationPageStrings = {
  pageTitle: string;
  pageSubtitle: string;
  noSummary: { title: string; body: string };
  more: { loadMore: string; noMore: string };
  errors: { goSetUp: string; retry: string; title?: string };
};

/** A list that 加载更多 lengthens (the pages' recommendation hooks). */
type AppendableList = {
  moreState: 'more' | 'end' | 'none';
  isLoadingMore: boolean;
  moreError: unknown;
  loadMore: () => void;
  retryMore: () => void;
};

type RecommendationPageProps<TData> = {
  /**
   * 'papers' or 'news': the prefix of the test ids (`-no-summary`, `-go-setup`, `-direction-error`,
   * `-error`, `-retry`, `-loading`, `-refreshing`, and the load-more footer's).
   */
  testIdPrefix: string;
  strings: RecommendationPageStrings;
  /** Whether the account has an English research summary; without one nothing is requested. */
  hasResearchSummary: boolean;
  query: { data: TData | undefined; error: unknown; isError: boolean; isFetching: boolean };
  describeError: (error: unknown) => RecommendationErrorView;
  onRetry: () => void;
  /** How the 'research profile not set' answer is shown: 'info' on /news, 'warning' on /papers. */
  profileNotSetSeverity: AlertColor;
  loadingLabel: string;
  /** What stands in for the list without a research summary. */
  noSummaryContent: ReactNode;
  /** Buttons beside the page title. */
  actions?: ReactNode;
  /** The settings and filters, between the banner and the list. */
  controls: ReactNode;
  /** Above the list, inside its refresh area, unless the load failed (the followed authors on /papers). */
  aboveList?: ReactNode;
  /** The loaded answer: heading, cards (or the empty state) and 加载更多. */
  renderData: (data: TData) => ReactNode;
  /** After the content: the card actions' notices. */
  children?: ReactNode;
};

/**
 * The page both /papers and /news are: the banner without a research summary, the page's settings, and
 * the list's states (no summary, loading, 'research profile not set', a failure with a retry, the
 * answer), a thin bar while a newer list loads over the one on screen.
 */
export function RecommendationPage<TData>({
  testIdPrefix,
  strings,
  hasResearchSummary,
  query,
  describeError,
  onRetry,
  profileNotSetSeverity,
  loadingLabel,
  noSummaryContent,
  actions,
  controls,
  aboveList,
  renderData,
  children,
}: RecommendationPageProps<TData>) {
  const { data, error, isError, isFetching } = query;
  useEndOfEarlyView(!hasResearchSummary || isError || data !== undefined);

  const goSetUp = (
    <Button
      component={RouterLink}
      to={paths.my.getHref()}
      color="inherit"
      size="small"
      data-testid={`${testIdPrefix}-go-setup`}
    >
      {strings.errors.goSetUp}
    </Button>
  );

  const renderContent = () => {
    if (!hasResearchSummary) return noSummaryContent;
    // A retry after a failure shows the loading state again (loading, then success or failure).
    const isLoading = isFetching && (isError || !data);
    if (isError && !isLoading) {
      const view = describeError(error);
      if (view.kind === 'research-profile-not-set') {
        return (
          <Alert severity={profileNotSetSeverity} action={goSetUp} data-testid={`${testIdPrefix}-direction-error`}>
            {view.title ? <AlertTitle>{view.title}</AlertTitle> : null}
            {view.message}
          </Alert>
        );
      }
      return (
        <RetryAlert
          title={strings.errors.title}
          message={view.message}
          retryLabel={strings.errors.retry}
          onRetry={onRetry}
          isRetrying={isFetching}
          testId={`${testIdPrefix}-error`}
          retryTestId={`${testIdPrefix}-retry`}
        />
      );
    }
    if (isLoading || !data) return <LoadingStatus label={loadingLabel} testId={`${testIdPrefix}-loading`} />;
    return renderData(data);
  };

  const content = renderContent();
  return (
    <Page title={strings.pageTitle} subtitle={strings.pageSubtitle} actions={actions}>
      <Stack spacing={3}>
        {hasResearchSummary ? null : (
          <Alert severity="info" action={goSetUp} data-testid={`${testIdPrefix}-no-summary`}>
            <AlertTitle>{strings.noSummary.title}</AlertTitle>
            {strings.noSummary.body}
          </Alert>
        )}
        {controls}
        <RefreshArea
          isFetching={isFetching}
          showBar={isFetching && !!data && !isError}
          barTestId={`${testIdPrefix}-refreshing`}
        >
          {aboveList && !isError ? (
            <Stack spacing={3}>
              {aboveList}
              {content}
            </Stack>
          ) : (
            content
          )}
        </RefreshArea>
      </Stack>
      {children}
    </Page>
  );
}

/**
 * Ends the early view (app/early-view) once the page shows more than its loading state, and notes where
 * its first card begins for the next visit's; also when the page goes away.
 */
function useEndOfEarlyView(isShown: boolean) {
  const page = earlyPageAt(useLocation().pathname);
  const hasRemembered = useRef(false);
  useLayoutEffect(() => {
    if (!isShown) return;
    endEarlyView();
    if (page && !hasRemembered.current) {
      hasRemembered.current = true;
      rememberListTop(page, document.querySelector('main article'));
    }
  }, [isShown, page]);
  useLayoutEffect(() => endEarlyView, []);
}

type RecommendationEmptyStateProps = {
  icon: ReactNode;
  title: string;
  /** What helps, left out when nothing is stored (no setting helps then). */
  hint: string;
  explanation: EmptyExplanation | null | undefined;
  onApplyChange: (change: Record<string, string>) => void;
  isBusy: boolean;
  testIdPrefix: string;
  kind?: string;
  /** A button under the hint, also left out when nothing is stored. */
  action?: ReactNode;
};

/** An empty answer: the title, what helps, and the API's explanation with its one suggested change. */
export function RecommendationEmptyState({
  icon,
  title,
  hint,
  explanation,
  onApplyChange,
  isBusy,
  testIdPrefix,
  kind,
  action,
}: RecommendationEmptyStateProps) {
  // With nothing stored no setting helps: the explanation says what is missing instead.
  const hasNoItems = explanation?.cause === 'no_items';
  return (
    <EmptyState
      icon={icon}
      title={title}
      hint={hasNoItems ? undefined : hint}
      testId={`${testIdPrefix}-empty`}
      kind={kind}
      action={hasNoItems ? undefined : action}
    >
      {explanation ? (
        <EmptyExplanationBox
          explanation={explanation}
          onApplyChange={onApplyChange}
          isBusy={isBusy}
          testId={`${testIdPrefix}-empty-explanation`}
        />
      ) : null}
    </EmptyState>
  );
}

type RecommendationMoreProps = {
  list: AppendableList;
  describeError: (error: unknown) => RecommendationErrorView;
  strings: RecommendationPageStrings;
  testIdPrefix: string;
};

/** The footer under a recommendation list: 加载更多, its failure in the page's words, or 没有更多了. */
export function RecommendationMore({ list, describeError, strings, testIdPrefix }: RecommendationMoreProps) {
  return (
    <LoadMoreFooter
      state={list.moreState}
      isLoading={list.isLoadingMore}
      errorMessage={list.moreError ? describeError(list.moreError).message : null}
      onLoadMore={list.loadMore}
      onRetry={list.retryMore}
      labels={{ ...strings.more, retry: strings.errors.retry }}
      testIdPrefix={testIdPrefix}
    />
  );
}
