import Box from '@mui/material/Box';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { NewsCard } from '@/components/news/news-card';
import { SearchPage } from '@/components/page/search-page';
import { paths } from '@/config/paths';
import { newsSearchQueryOptions } from '../api/search-news';
import { NewsSearchFormCard } from '../components/news-search-form';
import { NEWS_SEARCH_STRINGS as STRINGS } from '../strings';
import { type NewsSearchCriteria, parseNewsSearchParams, toNewsSearchParams } from '../utils/news-search-criteria';

/**
 * /search/news: news search (POST /api/news/search/). The
 * submitted form and the page live in the URL, so back and forward work; 20 items a page.
 */
export function NewsSearchPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const criteria = useMemo(() => parseNewsSearchParams(searchParams), [searchParams]);
  const search = useQuery({
    ...newsSearchQueryOptions(criteria ?? EMPTY_CRITERIA),
    enabled: criteria !== null,
  });

  const goTo = (next: NewsSearchCriteria | null) => {
    navigate(paths.newsSearch.getHref(next ? toNewsSearchParams(next) : {}));
    if (next && criteria && next.page !== criteria.page) window.scrollTo({ top: 0 });
  };

  return (
    <SearchPage
      strings={STRINGS}
      tab="news"
      testIdPrefix="news"
      form={<NewsSearchFormCard criteria={criteria} onSearch={goTo} onClear={() => goTo(null)} />}
      isStarted={criteria !== null}
      search={search}
      loading={
        <Stack spacing={2} aria-hidden data-testid="news-results-loading">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} variant="rounded" height={140} />
          ))}
        </Stack>
      }
      isEmpty={(data) => data.data.length === 0}
      renderResults={(data) => (
        <>
          <Typography
            id="news-results-heading"
            variant="h5"
            component="h2"
            sx={{ mb: 2 }}
            data-testid="news-search-count"
          >
            {STRINGS.resultCount(data.pagination.total_count)}
          </Typography>
          <Stack
            component="ul"
            spacing={2}
            aria-busy={search.isPlaceholderData}
            sx={{ listStyle: 'none', m: 0, p: 0, opacity: search.isPlaceholderData ? 0.6 : 1 }}
          >
            {data.data.map((item) => (
              <li key={item.id}>
                <NewsCard item={item} />
              </li>
            ))}
          </Stack>
          {criteria && data.pagination.total_pages > 1 ? (
            <Box
              component="nav"
              aria-label={STRINGS.pagination}
              sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}
            >
              <Pagination
                count={data.pagination.total_pages}
                page={Math.min(criteria.page, data.pagination.total_pages)}
                onChange={(_event, page) => goTo({ ...criteria, page })}
                siblingCount={0}
                color="primary"
                data-testid="news-pagination"
              />
            </Box>
          ) : null}
        </>
      )}
    />
  );
}

/** The key of the disabled query while nothing is searched. */
const EMPTY_CRITERIA: NewsSearchCriteria = {
  query: '',
  search_type: 'keyword',
  institute_name: '',
  date_from: '',
  date_to: '',
  page: 1,
};
