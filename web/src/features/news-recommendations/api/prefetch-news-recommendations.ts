import { API_PATHS } from '@radar/shared';
import { startEarlyGet } from '@/lib/early-answers';
import { loadNewsParams, toNewsRecommendationQuery } from '../utils/news-params';

/**
 * Starts page 1 of the stored settings before the page's code has loaded (app/early-requests, for a
 * reader with a research summary). The page's first request is this very one (same query), so
 * getNewsRecommendations takes it instead of asking again. Kept apart from the page's api module so the
 * entry does not carry the page's code.
 */
export function prefetchNewsRecommendations(): Promise<unknown> {
  return startEarlyGet(API_PATHS.newsRecommendations, { query: toNewsRecommendationQuery(loadNewsParams(), 1) });
}
