import { RESEARCH_DIRECTION_NOT_SET } from '@radar/shared';
import { isApiError } from '@/lib/api-client';
import { NEWS_STRINGS } from '../strings';

export type NewsErrorView =
  /** No research direction (or its vector is not ready): an info banner with 'go set it'. */
  | { kind: 'direction'; message: string }
  /** Anything else: '获取推荐失败' with the message and a retry button. */
  | { kind: 'error'; message: string };

/** The texts the API client gives for failures that are not the request's fault; shown as they are. */
const TRANSIENT_CODES = new Set(['TIMEOUT', 'NETWORK_ERROR', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR']);

/**
 * What the news page shows for a failed load ("News recommendation" messages): the research
 * direction error is recognised by its error_type (or code), and any message about the research
 * direction is treated the same; another 400 is '推荐失败'; other failures keep the client's message,
 * else the generic one.
 */
export function describeNewsError(error: unknown): NewsErrorView {
  if (!isApiError(error)) return { kind: 'error', message: NEWS_STRINGS.errors.generic };
  const details = typeof error.body?.details === 'string' ? error.body.details.trim() : '';
  const isDirection =
    error.code === 'RESEARCH_DIRECTION_NOT_SET' ||
    error.body?.error_type === RESEARCH_DIRECTION_NOT_SET.errorType ||
    error.message.includes('研究方向');
  if (isDirection) return { kind: 'direction', message: details || error.message };
  if (error.status === 400) return { kind: 'error', message: NEWS_STRINGS.errors.recommendationFailed };
  if (TRANSIENT_CODES.has(error.code)) return { kind: 'error', message: error.message };
  return { kind: 'error', message: NEWS_STRINGS.errors.generic };
}
