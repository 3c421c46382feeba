/**
 * A per-reader classifier (issue 23): L2-regularised logistic regression on the active model's vectors,
 * as Scholar Inbox trains one per reader. Positives are the papers the reader rated 👍, favourited or
 * saved (and the research summary itself), negatives those rated 👎 or marked 'not interested', plus
 * unrated papers sampled at random as weaker negatives; newer signals weigh more (a half-life).
 * The fitted model ranks by sigmoid(w·x + b): w·x is one inner product per candidate, so the database
 * computes it beside the cosine (pgvector's <#>).
 */

export interface TrainingExample {
  vector: readonly number[];
  /** 1: the reader wants more like it; 0: less. */
  label: 0 | 1;
  /** How much it counts (time decay, weaker random negatives); > 0. */
  weight: number;
}

export interface ReaderClassifier {
  weights: number[];
  bias: number;
}

export interface ClassifierOptions {
  /** L2 penalty on the weights (not the bias), per unit of total example weight. */
  l2: number;
  /** Gradient steps (accelerated); the objective is convex and smooth, so a fixed number suffices. */
  iterations: number;
}

/**
 * Chosen on the simulated readers of `pnpm bench:quality` (docs/benchmarks.md, "Issue 23"): a weaker
 * penalty lets a few ratings overturn the summary's direction, a stronger one makes it Rocchio again.
 */
export const CLASSIFIER_OPTIONS: ClassifierOptions = { l2: 0.01, iterations: 150 };

/**
 * The number of signals (👍 + 👎, favourites, saves and 'not interested' included) from which the
 * classifier orders recommendations; Rocchio below it. Measured with `pnpm bench:quality` (a reader who
 * rates one paper a round): switched on from the first signal the classifier about ties Rocchio after one
 * rating and beats it from two on (docs/benchmarks.md, "Issue 23"); the simulated reader judges by broad
 * category without noise, so the switch waits one signal more than that.
 */
export const CLASSIFIER_MIN_SIGNALS = 3;

/** Each unrated paper sampled as a negative counts this much of a rated one. */
export const RANDOM_NEGATIVE_WEIGHT = 0.2;
/** Unrated papers sampled per fit: this many per signal, at least RANDOM_NEGATIVES_MIN. */
export const RANDOM_NEGATIVES_PER_SIGNAL = 2;
export const RANDOM_NEGATIVES_MIN = 20;
/** A signal this many days old counts half as much as one made today (the sliding window's slope). */
export const SIGNAL_HALF_LIFE_DAYS = 60;

/** The weight of a signal made `ageDays` ago. */
export function signalWeight(ageDays: number): number {
  return 0.5 ** (Math.max(0, ageDays) / SIGNAL_HALF_LIFE_DAYS);
}

/**
 * Fits w and b minimising (1/W) Σ weight_i · logloss(label_i, w·x_i + b) + (l2/2)·|w|², W = Σ weight_i,
 * by Nesterov-accelerated gradient descent with the step 1/L (L: the gradient's Lipschitz bound).
 * Examples of another dimension than the first or with non-finite values are skipped. Deterministic.
 */
export function fitReaderClassifier(
  examples: readonly TrainingExample[],
  options: ClassifierOptions = CLASSIFIER_OPTIONS,
): ReaderClassifier | null {
  const dimension = examples[0]?.vector.length ?? 0;
  const usable = examples.filter(
    (example) =>
      example.vector.length === dimension &&
      example.weight > 0 &&
      Number.isFinite(example.weight) &&
      example.vector.every(Number.isFinite),
  );
  if (dimension === 0 || !usable.some((e) => e.label === 1) || !usable.some((e) => e.label === 0)) return null;
  const totalWeight = usable.reduce((sum, e) => sum + e.weight, 0);
  // Lipschitz bound of the mean logistic loss's gradient: max |(x, 1)|² / 4, plus the penalty.
  const maxNormSquared = Math.max(...usable.map((e) => e.vector.reduce((sum, x) => sum + x * x, 0) + 1));
  const step = 1 / (maxNormSquared / 4 + options.l2);

  let w = new Float64Array(dimension);
  let b = 0;
  let previousW = new Float64Array(dimension);
  let previousB = 0;
  const gradient = new Float64Array(dimension);
  for (let iteration = 1; iteration <= options.iterations; iteration++) {
    const momentum = (iteration - 1) / (iteration + 2);
    const lookW = new Float64Array(dimension);
    for (let j = 0; j < dimension; j++)
      lookW[j] = (w[j] as number) + momentum * ((w[j] as number) - (previousW[j] as number));
    const lookB = b + momentum * (b - previousB);
    gradient.fill(0);
    let gradientB = 0;
    for (const example of usable) {
      const residual =
        (sigmoid(dotProduct(lookW, example.vector) + lookB) - example.label) * (example.weight / totalWeight);
      for (let j = 0; j < dimension; j++)
        gradient[j] = (gradient[j] as number) + residual * (example.vector[j] as number);
      gradientB += residual;
    }
    previousW = w;
    previousB = b;
    w = new Float64Array(dimension);
    for (let j = 0; j < dimension; j++)
      w[j] = (lookW[j] as number) - step * ((gradient[j] as number) + options.l2 * (lookW[j] as number));
    b = lookB - step * gradientB;
  }
  return { weights: Array.from(w), bias: b };
}

/** The classifier's probability that the reader wants the item, 0-1. */
export function classifierScore(classifier: ReaderClassifier, vector: readonly number[]): number {
  return sigmoid(dotProduct(classifier.weights, vector) + classifier.bias);
}

/** As classifierScore, from w·x already computed (the database's inner product). */
export function classifierScoreFromProduct(classifier: Pick<ReaderClassifier, 'bias'>, product: number): number {
  return sigmoid(product + classifier.bias);
}

function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

function dotProduct(x: ArrayLike<number>, y: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += (x[i] as number) * (y[i] as number);
  return sum;
}
