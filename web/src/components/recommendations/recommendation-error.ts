import { RESEARCH_DIRECTION_NOT_SET } from '@radar/shared';
import { isApiError } from '@/lib/api-client';

/**
 * What a recommendation page shows for a failed load: 'research-profile-not-set' (no research summary,
 * or its vector is not ready) is a banner with 去设置; 'error' is anything else, with a retry.
 */
export type RecommendationErrorView = {
  kind: 'research-profile-not-set' | 'error';
  /** A heading above the message, when there is one. */
  title?: string;
  message: string;
};

/** The API's answer that the reader has no research profile yet, by its code or error_type. */
export function isResearchProfileNotSet(error: unknown): boolean {
  if (!isApiError(error)) return false;
  return error.code === 'RESEARCH_DIRECTION_NOT_SET' || error.body?.error_type === RESEARCH_DIRECTION_NOT_SET.errorType;
}

/** The `details` of an API error, trimmed; '' when there are none. */
export function errorDetails(error: unknown): string {
  if (!isApiError(error)) return '';
  const details = error.body?.details;
  return typeof details === 'string' ? details.trim() : '';
}
