import {
  errorDetails,
  isResearchProfileNotSet,
  type RecommendationErrorView,
} from '@/components/recommendations/recommendation-error';
import { isApiError } from '@/lib/api-client';
import { NEWS_STRINGS } from '../strings';

/** The texts the API client gives for failures that are not the request's fault; shown as they are. */
const TRANSIENT_CODES = new Set(['TIMEOUT', 'NETWORK_ERROR', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR']);

/**
 * What the news page shows for a failed load ("News recommendation" messages): the research
 * profile error is recognised by its error_type (or code), and any message about the research
 * direction is treated the same; another 400 is '推荐失败'; other failures keep the client's message,
 * else the generic one.
 */
export function describeNewsError(error: unknown): RecommendationErrorView {
  if (!isApiError(error)) return { kind: 'error', message: NEWS_STRINGS.errors.generic };
  if (isResearchProfileNotSet(error) || error.message.includes('研究方向')) {
    return { kind: 'research-profile-not-set', message: errorDetails(error) || error.message };
  }
  if (error.status === 400) return { kind: 'error', message: NEWS_STRINGS.errors.recommendationFailed };
  if (TRANSIENT_CODES.has(error.code)) return { kind: 'error', message: error.message };
  return { kind: 'error', message: NEWS_STRINGS.errors.generic };
}
