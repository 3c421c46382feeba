import { API_PATHS } from '@radar/shared';
import { REQUEST_TIMEOUTS } from '@/lib/api-client';
import { forgetEarlyGet, startEarlyGet } from '@/lib/early-answers';
import { loadPaperParams, toPaperRecommendationQuery } from '../utils/recommendation-params';

/**
 * Starts the first answer of the stored settings before the page's code has loaded (app/early-requests,
 * with the account's request). The page's first request is this very one (same query), so
 * getPaperRecommendations takes it instead of asking again; the function returned drops it (an account
 * without a research summary: the page asks for nothing). Kept apart from the page's api module so the
 * entry does not carry the page's code.
 */
export function prefetchPaperRecommendations(): () => void {
  const query = toPaperRecommendationQuery(loadPaperParams());
  void startEarlyGet(API_PATHS.paperRecommendations, { query, timeoutMs: REQUEST_TIMEOUTS.recommendation });
  return () => forgetEarlyGet(API_PATHS.paperRecommendations, query);
}
