import { RESEARCH_DIRECTION_NOT_SET } from '@radar/shared';
import { isApiError } from '@/lib/api-client';
import { PAPERS_STRINGS } from '../strings';

/** Error types of spec section 4, "Paper recommendation load". */
export type RecommendationErrorType = 'research_direction_not_set' | 'no_recommendations_found' | 'unknown_error';

/** Spec section 9: 3 attempts in all. */
export const RECOMMENDATION_ATTEMPTS = 3;
/** Spec section 9: the wait before a retry is this times the attempt number. */
export const RECOMMENDATION_RETRY_DELAY_MS = 2000;

/** An answer with `success: false` (spec section 8, 'recommendation service returned failure'). */
export class RecommendationServiceFailure extends Error {
  override readonly name = 'RecommendationServiceFailure';
  constructor() {
    super(PAPERS_STRINGS.errors.serviceReturnedFailure);
  }
}

export function isResearchDirectionNotSet(error: unknown): boolean {
  if (!isApiError(error)) return false;
  return error.code === 'RESEARCH_DIRECTION_NOT_SET' || error.body?.error_type === RESEARCH_DIRECTION_NOT_SET.errorType;
}

/**
 * Whether to try the request again (TanStack Query's `retry`; failureCount counts the failures so
 * far, from 0). Up to 3 attempts, except when trying again cannot help: no research direction (spec
 * section 4), any other 4xx (the server's answer about this request; a 401 has already ended the
 * session), or a request the page itself cancelled.
 */
export function shouldRetryRecommendation(failureCount: number, error: unknown): boolean {
  if (failureCount >= RECOMMENDATION_ATTEMPTS - 1) return false;
  if (isResearchDirectionNotSet(error)) return false;
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

/** What the page shows for a failed load (spec section 8, "Paper recommendations"). */
export function describeRecommendationError(error: unknown): RecommendationErrorView {
  const { errors } = PAPERS_STRINGS;
  if (isResearchDirectionNotSet(error) && isApiError(error)) {
    // The message comes from details (spec section 8); without them, the spec's hint stands in.
    const details = error.body?.details;
    return {
      type: 'research_direction_not_set',
      title: error.message,
      message: typeof details === 'string' && details.trim() ? details : errors.directionHint,
    };
  }
  if (error instanceof RecommendationServiceFailure) return { type: 'unknown_error', message: error.message };
  if (isApiError(error)) {
    if (error.status === 400) return { type: 'unknown_error', message: errors.completeDirection };
    if (error.code === 'TIMEOUT') return { type: 'unknown_error', message: errors.timeout };
  }
  return { type: 'unknown_error', message: errors.unavailable };
}
