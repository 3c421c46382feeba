import { API_PATHS } from '@radar/shared';
import { REQUEST_TIMEOUTS } from '@/lib/api-client';
import { startEarlyGet } from '@/lib/early-answers';
import { loadPaperParams, toPaperRecommendationQuery } from '../utils/recommendation-params';

/**
 * Starts the first answer of the stored settings before the page's code has loaded (app/early-requests,
 * for a reader with a research summary). The page's first request is this very one (same query), so
 * getPaperRecommendations takes it instead of asking again. Kept apart from the page's api module so the
 * entry does not carry the page's code.
 */
export function prefetchPaperRecommendations(): Promise<unknown> {
  return startEarlyGet(API_PATHS.paperRecommendations, {
    query: toPaperRecommendationQuery(loadPaperParams()),
    timeoutMs: REQUEST_TIMEOUTS.recommendation,
  });
}
