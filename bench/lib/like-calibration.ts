import {
  CLASSIFIER_MIN_SIGNALS,
  classifierScore,
  fitReaderClassifier,
  RANDOM_NEGATIVE_WEIGHT,
  RANDOM_NEGATIVES_MIN,
  RANDOM_NEGATIVES_PER_SIGNAL,
  signalWeight,
} from '../../packages/ai/src/learning/reader-classifier';
import {
  classifierMethod,
  type SimulatedReader,
  simulateMultiInterestReaders,
} from '../../packages/ai/src/testing/simulated-readers';

/*
 * Does a calibrated score predict a 👍 better than the raw cosine the card shows (issue 23)? The
 * simulated readers of `pnpm bench:quality` (2-3 interests, the classifier ordering, every shown paper
 * rated) are scored on each page before they rate it, from their ratings of the earlier pages only
 * (held out: the page's ratings are never in the fit). Predictors of P(👍):
 * - cosine: the similarity to the research summary shown on the card, read as a probability (clamped);
 * - Platt: sigmoid(a·cosine + b) fitted on the reader's own earlier ratings (Platt's smoothed targets);
 * - classifier: the reader's classifier's sigmoid(w·x + b), as the product fits it (from
 *   CLASSIFIER_MIN_SIGNALS ratings; before that, pages are left out of every predictor's count);
 * - base rate: the reader's share of 👍 so far, the same for every paper (a floor).
 * Reported: log-loss and Brier score over every held-out rating, and AUC (does it order 👍 above 👎).
 */

export interface CalibrationRow {
  predictor: string;
  logLoss: number;
  brier: number;
  /** Over all held-out ratings pooled (readers differ in their share of 👍). */
  auc: number;
  /** Mean over pages with both a 👍 and a 👎: does it order one reader's page. */
  aucWithinPage: number;
}

export interface CalibrationResult {
  readers: number;
  /** Held-out ratings scored (pages from the round after CLASSIFIER_MIN_SIGNALS ratings on). */
  ratings: number;
  rows: CalibrationRow[];
}

const EPSILON = 0.01;
const clamp = (p: number) => Math.min(1 - EPSILON, Math.max(EPSILON, p));

export function measureLikeCalibration(
  labels: readonly string[],
  vectors: readonly (readonly number[])[],
  options: { readers?: number; rounds?: number; shown?: number } = {},
): CalibrationResult {
  const predictors = ['cosine (as shown)', 'Platt on cosine (per reader)', 'classifier probability', 'base rate'];
  const predictions: number[][] = predictors.map(() => []);
  const truths: number[] = [];
  const pageAucs: number[][] = predictors.map(() => []);
  const result = simulateMultiInterestReaders(labels, vectors, {
    readers: options.readers,
    rounds: options.rounds,
    shown: options.shown,
    methods: [classifierMethod('classifier')],
    observePage: (reader, page) => {
      if (reader.ratings.length < CLASSIFIER_MIN_SIGNALS) return;
      const cosine = (paper: number) => dot(reader.profile, reader.vectors[paper] as number[]);
      const platt = fitPlatt(reader.ratings.map((r) => ({ x: cosine(r.paper), y: r.value === 1 ? 1 : 0 })));
      const classifier = fitReaderClassifier(trainingSet(reader));
      const liked = reader.ratings.filter((r) => r.value === 1).length / reader.ratings.length;
      const wanted = new Set(reader.interests.map((interest) => interest.label));
      const first = truths.length;
      for (const paper of page) {
        const x = cosine(paper);
        predictions[0]?.push(clamp(x));
        predictions[1]?.push(clamp(sigmoid(platt.a * x + platt.b)));
        predictions[2]?.push(
          clamp(classifier ? classifierScore(classifier, reader.vectors[paper] as number[]) : liked),
        );
        predictions[3]?.push(clamp(liked));
        truths.push(wanted.has(labels[paper] as string) ? 1 : 0);
      }
      const pageTruths = truths.slice(first);
      if (pageTruths.includes(1) && pageTruths.includes(0))
        for (const [index, p] of predictions.entries()) pageAucs[index]?.push(auc(p.slice(first), pageTruths));
    },
  });
  return {
    readers: result.readers,
    ratings: truths.length,
    rows: predictors.map((predictor, index) => {
      const p = predictions[index] as number[];
      const within = pageAucs[index] as number[];
      return {
        predictor,
        logLoss: logLoss(p, truths),
        brier: brier(p, truths),
        auc: auc(p, truths),
        aucWithinPage: within.reduce((sum, x) => sum + x, 0) / Math.max(1, within.length),
      };
    }),
  };
}

/** The product's training set (simulated-readers' simulatedTrainingSet), one round a week. */
function trainingSet(reader: SimulatedReader) {
  const examples = [{ vector: reader.profile, label: 1 as 0 | 1, weight: 1 }];
  for (const rating of reader.ratings)
    examples.push({
      vector: reader.vectors[rating.paper] as number[],
      label: rating.value === 1 ? 1 : 0,
      weight: signalWeight((reader.round - rating.round) * 7),
    });
  const wanted = Math.max(RANDOM_NEGATIVES_MIN, RANDOM_NEGATIVES_PER_SIGNAL * reader.ratings.length);
  const n = reader.vectors.length;
  const seed = reader.interests.reduce((sum, interest) => sum * 31 + interest.seed, 7);
  for (let i = 0, taken = 0; i < n && taken < wanted; i++) {
    const paper = (seed * 7919 + i * 104_729) % n;
    if (reader.excluded.has(paper)) continue;
    examples.push({ vector: reader.vectors[paper] as number[], label: 0, weight: RANDOM_NEGATIVE_WEIGHT });
    taken++;
  }
  return examples;
}

/**
 * Platt scaling: a, b of sigmoid(a·x + b) by Newton's method on the log-loss, with Platt's targets
 * (N+ + 1)/(N+ + 2) and 1/(N- + 2) so that a reader with only 👍 so far gets no certainty.
 */
function fitPlatt(points: readonly { x: number; y: 0 | 1 }[]): { a: number; b: number } {
  const positives = points.filter((p) => p.y === 1).length;
  const negatives = points.length - positives;
  const high = (positives + 1) / (positives + 2);
  const low = 1 / (negatives + 2);
  let a = 0;
  let b = Math.log((positives + 1) / (negatives + 1));
  for (let iteration = 0; iteration < 50; iteration++) {
    let ga = 0;
    let gb = 0;
    let haa = 1e-6;
    let hab = 0;
    let hbb = 1e-6;
    for (const { x, y } of points) {
      const p = sigmoid(a * x + b);
      const t = y === 1 ? high : low;
      const w = p * (1 - p);
      ga += (p - t) * x;
      gb += p - t;
      haa += w * x * x;
      hab += w * x;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (!(det > 0)) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) + Math.abs(db) < 1e-9) break;
  }
  return { a, b };
}

function logLoss(p: readonly number[], y: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < p.length; i++) sum -= y[i] === 1 ? Math.log(p[i] as number) : Math.log(1 - (p[i] as number));
  return sum / Math.max(1, p.length);
}

function brier(p: readonly number[], y: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < p.length; i++) sum += ((p[i] as number) - (y[i] as number)) ** 2;
  return sum / Math.max(1, p.length);
}

/** Probability that a random 👍 scores above a random 👎 (ties count half). */
function auc(p: readonly number[], y: readonly number[]): number {
  const order = p.map((score, index) => ({ score, label: y[index] as number })).sort((a, b) => a.score - b.score);
  let rankSum = 0;
  let positives = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j < order.length && (order[j] as { score: number }).score === (order[i] as { score: number }).score) j++;
    const midRank = (i + j + 1) / 2;
    for (let k = i; k < j; k++)
      if ((order[k] as { label: number }).label === 1) {
        rankSum += midRank;
        positives++;
      }
    i = j;
  }
  const negatives = order.length - positives;
  if (positives === 0 || negatives === 0) return Number.NaN;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

function dot(x: readonly number[], y: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += (x[i] as number) * (y[i] as number);
  return sum;
}
