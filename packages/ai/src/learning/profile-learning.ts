/**
 * Profile learning from the reader's signals: the profile vector moves toward the papers the reader
 * favourites and away from the ones dismissed (Rocchio relevance feedback on dense embeddings).
 */

export interface LearningWeights {
  profile: number;
  liked: number;
  dismissed: number;
}

/**
 * Rocchio's weights at the top of their classic range (the textbook setting is 1, 0.75, 0.15): the
 * reader's favourites count as much as the profile, and dismissals a quarter as much, since a dismissal
 * says less about what the reader wants. On the labelled dev set precision keeps rising with heavier
 * feedback weights (docs/benchmarks.md, "Issue 13"); a simulated reader judges by broad category, so
 * that trend is not followed beyond the classic range, where a single favourite would outweigh the profile.
 */
export const LEARNING_WEIGHTS: LearningWeights = { profile: 1, liked: 1, dismissed: 0.25 };

// Below this norm the signals cancel the profile out; its direction would be noise.
const MIN_NORM = 1e-9;

/**
 * Rocchio-style: profile*base + liked*mean(liked) - dismissed*mean(dismissed), L2-normalised. Empty lists contribute nothing.
 * Vectors of another dimension than `base` or with non-finite values are skipped (a signal embedded by
 * an older model must not bend the profile); when the result has no direction, the base is returned.
 */
export function learnedProfileVector(
  base: number[],
  liked: number[][],
  dismissed: number[][],
  weights: LearningWeights = LEARNING_WEIGHTS,
): number[] {
  const result = base.map((x) => weights.profile * x);
  addMean(result, liked, weights.liked);
  addMean(result, dismissed, -weights.dismissed);
  const norm = l2Norm(result);
  if (!Number.isFinite(norm) || norm < MIN_NORM) return normalised(base);
  return result.map((x) => x / norm);
}

function isUsable(vector: number[], dimension: number): boolean {
  return vector.length === dimension && vector.every(Number.isFinite);
}

/** Adds weight * mean(vectors) to `target`, over the usable vectors only. */
function addMean(target: number[], vectors: number[][], weight: number): void {
  const usable = vectors.filter((vector) => isUsable(vector, target.length));
  if (usable.length === 0 || weight === 0) return;
  const scale = weight / usable.length;
  for (const vector of usable)
    for (let i = 0; i < target.length; i++) target[i] = (target[i] as number) + scale * (vector[i] as number);
}

function normalised(vector: number[]): number[] {
  const norm = l2Norm(vector);
  return Number.isFinite(norm) && norm >= MIN_NORM ? vector.map((x) => x / norm) : [...vector];
}

function l2Norm(vector: number[]): number {
  let sum = 0;
  for (const x of vector) sum += x * x;
  return Math.sqrt(sum);
}
