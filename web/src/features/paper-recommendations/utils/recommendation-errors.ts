import {
  errorDetails,
  isResearchProfileNotSet,
  type RecommendationErrorView,
} from '@/components/recommendations/recommendation-error';
import { isApiError } from '@/lib/api-client';
import { PAPERS_STRINGS } from '../strings';

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

/**
 * Whether to try the request again (TanStack Query's `retry`; failureCount counts the failures so
 * far, from 0). Up to 3 attempts, except when trying again cannot help: no research profile, any
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

/** What the page shows for a failed load ("Paper recommendations" messages). */
export function describeRecommendationError(error: unknown): RecommendationErrorView {
  const { errors } = PAPERS_STRINGS;
  if (isResearchProfileNotSet(error) && isApiError(error)) {
    // The message comes from details; without them, the spec's hint stands in.
    return {
      kind: 'research-profile-not-set',
      title: error.message,
      message: errorDetails(error) || errors.directionHint,
    };
  }
  if (error instanceof RecommendationServiceFailure) return { kind: 'error', message: error.message };
  if (isApiError(error)) {
    // The per-user quota: the client's text says so and how long to wait; 'unavailable' would be untrue.
    if (error.status === 429) return { kind: 'error', message: error.message };
    if (error.status === 400) return { kind: 'error', message: errors.completeDirection };
    if (error.code === 'TIMEOUT') return { kind: 'error', message: errors.timeout };
  }
  return { kind: 'error', message: errors.unavailable };
}
