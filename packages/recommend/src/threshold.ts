import type { RatingBucket } from '@radar/shared';

/**
 * A threshold a reader can trust (issue 23): from the similarity to the profile of the papers they rated,
 * the highest threshold that still keeps SUGGESTION_KEEPS of their 👍 papers. Keeping 👍 is the promise
 * (a reader forgives a few irrelevant papers more easily than a missed relevant one); what it filters
 * of their 👎 is shown beside it. F1 over 👍/👎 was not chosen: the reader's 👎 are the papers the
 * ranking showed them, not a sample of everything below a threshold, so precision estimated from them
 * would drift with the ranking.
 */

const MIN_LIKED_FOR_SUGGESTION = 5;
const MIN_DISLIKED_FOR_SUGGESTION = 3;
/** The share of the reader's 👍 papers the suggested threshold keeps. */
const SUGGESTION_KEEPS = 0.9;
const BUCKET_WIDTH = 0.05;

export interface ThresholdSuggestion {
  liked_count: number;
  disliked_count: number;
  min_liked: number;
  min_disliked: number;
  buckets: RatingBucket[];
  suggested_threshold: number | null;
  liked_kept: number | null;
  disliked_filtered: number | null;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export function suggestThreshold(rated: readonly { value: 1 | -1; similarity: number }[]): ThresholdSuggestion {
  const finite = rated.filter((r) => Number.isFinite(r.similarity));
  const liked = finite
    .filter((r) => r.value === 1)
    .map((r) => r.similarity)
    .sort((a, b) => a - b);
  const disliked = finite.filter((r) => r.value === -1).map((r) => r.similarity);
  const base = {
    liked_count: liked.length,
    disliked_count: disliked.length,
    min_liked: MIN_LIKED_FOR_SUGGESTION,
    min_disliked: MIN_DISLIKED_FOR_SUGGESTION,
    buckets: buckets(finite),
  };
  if (liked.length < MIN_LIKED_FOR_SUGGESTION || disliked.length < MIN_DISLIKED_FOR_SUGGESTION)
    return { ...base, suggested_threshold: null, liked_kept: null, disliked_filtered: null };
  // At most this many 👍 may fall below: the lowest `dropped` liked similarities.
  const dropped = Math.floor(liked.length * (1 - SUGGESTION_KEEPS) + 1e-9);
  const boundary = liked[dropped] as number;
  // Two decimals, rounded down so the boundary paper itself stays above it; never below 0.
  const threshold = Math.max(0, Math.floor(boundary * 100 + 1e-9) / 100);
  return {
    ...base,
    suggested_threshold: threshold,
    liked_kept: round(liked.filter((s) => s >= threshold).length / liked.length, 4),
    disliked_filtered: round(disliked.filter((s) => s < threshold).length / disliked.length, 4),
  };
}

/** Buckets BUCKET_WIDTH wide from the lowest to the highest rated similarity (clamped to 0-1). */
function buckets(rated: readonly { value: 1 | -1; similarity: number }[]): RatingBucket[] {
  if (rated.length === 0) return [];
  const indexOf = (similarity: number) =>
    Math.min(Math.floor(1 / BUCKET_WIDTH) - 1, Math.max(0, Math.floor(similarity / BUCKET_WIDTH + 1e-9)));
  const indices = rated.map((r) => indexOf(r.similarity));
  const first = Math.min(...indices);
  const last = Math.max(...indices);
  const result: RatingBucket[] = [];
  for (let i = first; i <= last; i++)
    result.push({ from: round(i * BUCKET_WIDTH, 2), to: round((i + 1) * BUCKET_WIDTH, 2), liked: 0, disliked: 0 });
  rated.forEach((r, k) => {
    const bucket = result[(indices[k] as number) - first] as RatingBucket;
    if (r.value === 1) bucket.liked++;
    else bucket.disliked++;
  });
  return result;
}
