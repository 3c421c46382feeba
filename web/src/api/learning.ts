import {
  API_PATHS,
  apiPath,
  type DismissResponse,
  type LearningStatusResponse,
  type RatingResponse,
  type RatingThresholdResponse,
} from '@radar/shared';
import { api } from '@/lib/api-client';
import type { RecommendationKind } from '@/lib/recommendation-list';

/*
 * What the recommendations learn from the reader (issue 13): 'not interested' on the papers and news
 * pages, and the learning status with its reset on /my. Both change what the recommendation lists
 * answer, so their query keys are here too, where every feature that touches them can reach them.
 */

/** The first part of every cached recommendation list of a kind (the rest is its parameters). */
export const RECOMMENDATION_QUERY_KEYS = {
  paper: ['papers', 'recommendations'],
  news: ['news', 'recommendations'],
} as const;

export const LEARNING_STATUS_QUERY_KEY = ['learning', 'status'] as const;

const dismissPath = (kind: RecommendationKind, id: string) =>
  apiPath(kind === 'paper' ? API_PATHS.paperDismiss : API_PATHS.newsDismiss, { id });

/** POST .../not-interested/: the item is no longer recommended and counts as a signal. */
export function dismiss(kind: RecommendationKind, id: string): Promise<DismissResponse> {
  return api.post<DismissResponse>(dismissPath(kind, id));
}

/** DELETE .../not-interested/: undoes the mark. */
export function undoDismiss(kind: RecommendationKind, id: string): Promise<DismissResponse> {
  return api.delete<DismissResponse>(dismissPath(kind, id));
}

/** GET /api/auth/recommendations/learning/: how many signals shape the recommendations. */
export function getLearningStatus(options: { signal?: AbortSignal } = {}): Promise<LearningStatusResponse> {
  return api.get<LearningStatusResponse>(API_PATHS.learningStatus, { signal: options.signal });
}

/** POST .../learning/reset/: back to the research summary alone; answers the new status. */
export function resetLearning(): Promise<LearningStatusResponse> {
  return api.post<LearningStatusResponse>(API_PATHS.learningReset);
}

/** POST .../rating/ (not in the spec): 1 更多此类, -1 减少此类, 0 removes the rating. */
export function rateItem(kind: RecommendationKind, id: string, value: 1 | -1 | 0): Promise<RatingResponse> {
  return api.post<RatingResponse>(apiPath(kind === 'paper' ? API_PATHS.paperRating : API_PATHS.newsRating, { id }), {
    value,
  });
}

export const RATING_THRESHOLD_QUERY_KEY = ['learning', 'rating-threshold'] as const;

/** GET .../rating-threshold/ (not in the spec): the reader's 👍 and 👎 over similarity, a suggested threshold. */
export function getRatingThreshold(options: { signal?: AbortSignal } = {}): Promise<RatingThresholdResponse> {
  return api.get<RatingThresholdResponse>(API_PATHS.ratingThreshold, { signal: options.signal });
}
