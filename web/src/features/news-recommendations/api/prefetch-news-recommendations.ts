import { API_PATHS } from '@radar/shared';
import { forgetEarlyGet, startEarlyGet } from '@/lib/early-answers';
import { loadNewsParams, toNewsRecommendationQuery } from '../utils/news-params';

/**
 * Starts page 1 of the stored settings before the page's code has loaded (app/early-requests, with the
 * account's request). The page's first request is this very one (same query), so
 * getNewsRecommendations takes it instead of asking again; the function returned drops it (an account
 * without a research summary: the page asks for nothing). Kept apart from the page's api module so the
 * entry does not carry the page's code.
 */
export function prefetchNewsRecommendations(): () => void {
  const query = toNewsRecommendationQuery(loadNewsParams(), 1);
  void startEarlyGet(API_PATHS.newsRecommendations, { query });
  return () => forgetEarlyGet(API_PATHS.newsRecommendations, query);
}
