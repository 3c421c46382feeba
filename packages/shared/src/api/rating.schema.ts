import { z } from 'zod';

/**
 * Explicit ratings (issue 23, not in the spec): 👍 (1, 更多此类) and 👎 (-1, 减少此类) on paper and news
 * cards, 0 removes the rating; and how the reader's ratings spread over the similarity to their profile,
 * with a suggested threshold. Decisions are in docs/decisions.md, "Issue 23: ratings".
 */

export const ratingValueSchema = z.union([z.literal(1), z.literal(-1)]);

const VALUE_MESSAGE = '评分 value 只能是 1（更多此类）、-1（减少此类）或 0（取消评分）';

/** POST /articles/{id}/rating/ and /api/news/{id}/rating/. */
export const ratingRequestSchema = z.object({
  value: z.literal([1, -1, 0], { error: VALUE_MESSAGE }),
});

export const ratingResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  /** The rating now: 1, -1, or null after 0 (undo). */
  rating: ratingValueSchema.nullable(),
});
export type RatingResponse = z.infer<typeof ratingResponseSchema>;

/** One bucket of the similarity histogram: [from, to) of the similarity to the profile, 0-1. */
export const ratingBucketSchema = z.object({
  from: z.number(),
  to: z.number(),
  /** 👍 papers in the bucket. */
  liked: z.number().int(),
  /** 👎 papers in the bucket. */
  disliked: z.number().int(),
});
export type RatingBucket = z.infer<typeof ratingBucketSchema>;

/** GET /api/auth/recommendations/rating-threshold/. */
export const ratingThresholdResponseSchema = z.object({
  success: z.literal(true),
  /** Rated papers with a vector of the active model, since the last reset. */
  liked_count: z.number().int(),
  disliked_count: z.number().int(),
  /** Ratings needed before a threshold is suggested: at least this many 👍 and this many 👎. */
  min_liked: z.number().int(),
  min_disliked: z.number().int(),
  /** Buckets 0.05 wide, from the lowest to the highest rated similarity (empty without ratings). */
  buckets: z.array(ratingBucketSchema),
  /**
   * The highest threshold (2 decimals) that keeps at least 90% of the reader's 👍 papers; null when there
   * are too few ratings.
   */
  suggested_threshold: z.number().nullable(),
  /** At the suggested threshold: the share of 👍 kept and of 👎 filtered out (0-1); null without one. */
  liked_kept: z.number().nullable(),
  disliked_filtered: z.number().nullable(),
});
export type RatingThresholdResponse = z.infer<typeof ratingThresholdResponseSchema>;
