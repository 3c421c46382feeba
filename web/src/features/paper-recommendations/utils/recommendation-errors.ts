import { RESEARCH_DIRECTION_NOT_SET } from '@radar/shared';
import { isApiError } from '@/lib/api-client';
import { PAPERS_STRINGS } from '../strings';

/** Why loading paper recommendations failed, as the page tells the user. */
export type RecommendationErrorType = 'research_direction_not_set' | 'no_recommendations_found' | 'unknown_error';

/** 3 attempts in all. */
const RECOMMENDATION_ATTEMPTS = 3;
/** The wait before a retry is this times the attempt number. */
const RECOMMENDATION_RETRY_DELAY_MS = 2000;

/** An answer with `success: false`: the recommendation service reported a failure. */
export class RecommendationServiceFailure extends Error {
  override readonly name = 'RecommendationServiceFailure';
  constructor() {
    super(PAPERS_STRINGS.errors.serviceReturnedFailure);
  }
}

function isResearchProfileNotSet(error: unknown): boolean {
  if (!isApiError(error)) return false;
  return error.code === 'RESEARCH_DIRECTION_NOT_SET' || error.body?.error_type === RESEARCH_DIRECTION_NOT_SET.errorType;
}

/**
 * Whether to try the request again (TanStack Query's `retry`; failureCount counts the failures so
 * far, from 0). Up to 3 attempts, except when trying again cannot help: no research direction, any
 * other 4xx (the server's answer about this request; a 401 has already ended the
 * session), or a request the page itself cancelled.
 */
export function shouldRetryRecommendation(failureCount: number, error: unknown): boolean {
  if (failureCount >= RECOMMENDATION_ATTEMPTS - 1) return false;
  if (isResearchProfileNotSet(error)) return false;
  if (isApiError(error)) {
    if (error.code === 'ABORTED') return false;
    if (error.status !== null && error.status >= 400 && error.status < 500) return false;
  }
  return true;
}

/** TanStack Query's `retryDelay`: 2 s before the second attempt, 4 s before the third. */
export function recommendationRetryDelay(failureCount: number): number {
  return RECOMMENDATION_RETRY_DELAY_MS * (failureCount + 1);
}

export type RecommendationErrorView = {
  type: RecommendationErrorType;
  /** A heading above the message, when there is one. */
  title?: string;
  message: string;
};

/** What the page shows for a failed load ("Paper recommendations" messages). */
export function describeRecommendationError(error: unknown): RecommendationErrorView {
  const { errors } = PAPERS_STRINGS;
  if (isResearchProfileNotSet(error) && isApiError(error)) {
    // The message comes from details; without them, the spec's hint stands in.
    const details = error.body?.details;
    return {
      type: 'research_direction_not_set',
      title: error.message,
      message: typeof details === 'string' && details.trim() ? details : errors.directionHint,
    };
  }
  if (error instanceof RecommendationServiceFailure) return { type: 'unknown_error', message: error.message };
  if (isApiError(error)) {
    // The per-user quota: the client's text says so and how long to wait; 'unavailable' would be untrue.
    if (error.status === 429) return { type: 'unknown_error', message: error.message };
    if (error.status === 400) return { type: 'unknown_error', message: errors.completeDirection };
    if (error.code === 'TIMEOUT') return { type: 'unknown_error', message: errors.timeout };
  }
  return { type: 'unknown_error', message: errors.unavailable };
}
