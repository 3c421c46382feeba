import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { LIMITS, splitSearchKeywords } from '@radar/shared';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { SearchPage } from '@/components/page/search-page';
import { PaperActionFeedback } from '@/components/papers/paper-action-feedback';
import { paths } from '@/config/paths';
import { usePaperActions } from '@/hooks/use-paper-actions';
import { articleSearchQueryOptions } from '../api/search-articles';
import { ArticleSearchForm } from '../components/article-search-form';
import { PaperResults, PaperResultsSkeleton } from '../components/paper-results';
import { useShownPageInUrl } from '../hooks/use-shown-page-in-url';
import { ARTICLE_STRINGS } from '../strings';
import { pageCount } from '../utils/page-fallback';
import { parsePageParam } from '../utils/page-param';
import { hasSearchKeyword, toggleSearchKeyword } from '../utils/search-keywords';

const STRINGS = ARTICLE_STRINGS.search;

type ArticleSearchPageProps = {
  /** The names of the keywords the user follows; undefined while they load. */
  followedKeywords: readonly string[] | undefined;
};

/**
 * /search: article search. The search text and page live in the URL
 * (`?q=&page=`), so back and forward work and a keyword's search can be linked; the keywords are
 * joined with AND by the server. The user's followed keywords are chips that add or remove themselves.
 */
export function ArticleSearchPage({ followedKeywords }: ArticleSearchPageProps) {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const q = (searchParams.get('q') ?? '').trim();
  const page = parsePageParam(searchParams.get('page'));
  const search = useQuery(articleSearchQueryOptions({ q, page }));
  const actions = usePaperActions();

  useShownPageInUrl({
    requestedPage: page,
    data: search.data,
    isPlaceholderData: search.isPlaceholderData,
    queryKeyOf: (shown) => articleSearchQueryOptions({ q, page: shown }).queryKey,
    hrefOf: (shown) => paths.search.getHref({ q, page: shown }),
  });

  const goTo = (query: string, nextPage = 1) => {
    navigate(paths.search.getHref({ q: query, page: nextPage }));
    if (nextPage !== page) window.scrollTo({ top: 0 });
  };

  const keywords = splitSearchKeywords(q);

  return (
    <SearchPage
      strings={STRINGS}
      tab="papers"
      testIdPrefix="article"
      form={
        <>
          <ArticleSearchForm query={q} onSearch={(query) => goTo(query)} />
          <MyKeywords
            followedKeywords={followedKeywords}
            query={q}
            onToggle={(name) => goTo(toggleSearchKeyword(q, name))}
          />
        </>
      }
      isStarted={q !== ''}
      search={search}
      loading={<PaperResultsSkeleton />}
      isEmpty={(data) => data.results.length === 0}
      renderResults={(data) => (
        <>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
            <Typography id="article-results-heading" variant="h5" component="h2" data-testid="article-search-count">
              {STRINGS.resultCount(data.count)}
            </Typography>
            {keywords.length > 1 ? (
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {STRINGS.matching}
                {keywords.join(' + ')}
              </Typography>
            ) : null}
          </Box>
          <PaperResults
            papers={data.results}
            actions={actions}
            page={data.page}
            pageCount={pageCount(data.count, LIMITS.paperSearchPageSize)}
            onPageChange={(next) => goTo(q, next)}
            paginationLabel={STRINGS.pagination}
            isStale={search.isPlaceholderData}
          />
        </>
      )}
    >
      <PaperActionFeedback actions={actions} testId="article-notice" />
    </SearchPage>
  );
}

function MyKeywords({
  followedKeywords,
  query,
  onToggle,
}: {
  followedKeywords: readonly string[] | undefined;
  query: string;
  onToggle: (name: string) => void;
}) {
  if (followedKeywords === undefined) return null;
  if (followedKeywords.length === 0) {
    return (
      <Alert
        severity="info"
        sx={{ mt: 2 }}
        data-testid="article-search-no-keywords"
        action={
          <Button component={RouterLink} to={paths.keywords.getHref()} color="inherit" size="small">
            {STRINGS.goSetKeywords}
          </Button>
        }
      >
        {STRINGS.noKeywords}
      </Alert>
    );
  }
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="body2" color="text.secondary" id="my-keywords-label" sx={{ mb: 1 }}>
        {STRINGS.myKeywords}（{STRINGS.myKeywordsHint}）
      </Typography>
      <Box
        component="ul"
        aria-labelledby="my-keywords-label"
        data-testid="article-search-keywords"
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', m: 0, p: 0 }}
      >
        {followedKeywords.map((name) => {
          const selected = hasSearchKeyword(query, name);
          return (
            <li key={name}>
              <Chip
                label={name}
                clickable
                color={selected ? 'primary' : 'default'}
                variant={selected ? 'filled' : 'outlined'}
                onClick={() => onToggle(name)}
                aria-pressed={selected}
                aria-label={STRINGS.toggleKeyword(name, selected)}
                data-testid="article-search-keyword"
                data-name={name}
                sx={{ maxWidth: '100%' }}
              />
            </li>
          );
        })}
      </Box>
    </Box>
  );
}
