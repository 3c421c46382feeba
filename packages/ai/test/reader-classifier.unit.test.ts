import { describe, expect, it } from 'vitest';
import {
  classifierScore,
  fitReaderClassifier,
  SIGNAL_HALF_LIFE_DAYS,
  signalWeight,
} from '../src/learning/reader-classifier';
import { READER_METHODS, simulateMultiInterestReaders } from '../src/testing/simulated-readers';

const unit = (v: number[]) => v.map((x) => x / Math.hypot(...v));

describe('fitReaderClassifier', () => {
  it('separates what the reader rated up from what they rated down, beyond the cosine to either', () => {
    const liked = [unit([1, 0.2, 0]), unit([1, -0.2, 0.1])];
    const disliked = [unit([0, 1, 0.1]), unit([0.1, 1, -0.1])];
    const classifier = fitReaderClassifier([
      ...liked.map((vector) => ({ vector, label: 1 as const, weight: 1 })),
      ...disliked.map((vector) => ({ vector, label: 0 as const, weight: 1 })),
    ]);
    expect(classifier).not.toBeNull();
    if (!classifier) return;
    expect(classifier.weights).toHaveLength(3);
    expect(classifierScore(classifier, unit([1, 0, 0]))).toBeGreaterThan(0.5);
    expect(classifierScore(classifier, unit([0, 1, 0]))).toBeLessThan(0.5);
  });

  it('weighs examples: a heavier negative pulls the score of its neighbourhood down', () => {
    const x = unit([1, 1, 0]);
    const light = fitReaderClassifier([
      { vector: x, label: 1, weight: 1 },
      { vector: x, label: 0, weight: 0.2 },
    ]);
    const heavy = fitReaderClassifier([
      { vector: x, label: 1, weight: 1 },
      { vector: x, label: 0, weight: 5 },
    ]);
    expect(classifierScore(light as NonNullable<typeof light>, x)).toBeGreaterThan(0.5);
    expect(classifierScore(heavy as NonNullable<typeof heavy>, x)).toBeLessThan(0.5);
  });

  it('needs both classes and skips vectors of another dimension or with non-finite values', () => {
    expect(fitReaderClassifier([{ vector: [1, 0], label: 1, weight: 1 }])).toBeNull();
    expect(fitReaderClassifier([])).toBeNull();
    const fitted = fitReaderClassifier([
      { vector: [1, 0], label: 1, weight: 1 },
      { vector: [0, 1], label: 0, weight: 1 },
      { vector: [1, 0, 0], label: 0, weight: 1 },
      { vector: [Number.NaN, 0], label: 1, weight: 1 },
    ]);
    expect(fitted?.weights.every(Number.isFinite)).toBe(true);
    expect(fitted?.weights).toHaveLength(2);
  });

  it('halves a signal each half-life', () => {
    expect(signalWeight(0)).toBe(1);
    expect(signalWeight(SIGNAL_HALF_LIFE_DAYS)).toBeCloseTo(0.5, 12);
    expect(signalWeight(-3)).toBe(1);
  });
});

describe('simulated readers with several interests', () => {
  // Three labels on a circle in the first two dimensions, and three dimensions of pseudo-random noise as
  // large: the summary (the mean of two seeds) carries its seeds' noise, so the plain ranking is far from
  // perfect; the ratings teach the classifier which directions matter.
  const labels: string[] = [];
  const vectors: number[][] = [];
  let state = 1;
  const noise = () => {
    state = (state * 48_271) % 2_147_483_647;
    return (state / 2_147_483_647) * 2 - 1;
  };
  for (const [label, angle] of [
    ['A', 0],
    ['B', 2.1],
    ['C', 4.2],
  ] as const)
    for (let i = 0; i < 40; i++) {
      labels.push(label);
      vectors.push(unit([Math.cos(angle), Math.sin(angle), noise(), noise(), noise()]));
    }

  it('reports precision per round for every method of the table, equal at round 0', () => {
    const result = simulateMultiInterestReaders(labels, vectors, { readers: 10, rounds: 3, shown: 10 });
    expect(Object.keys(result.methods)).toEqual(READER_METHODS.map((m) => m.name));
    for (const { precision, smallestInterestShare } of Object.values(result.methods)) {
      expect(precision).toHaveLength(4);
      expect(smallestInterestShare).toHaveLength(4);
      for (const p of precision) expect(p).toBeLessThanOrEqual(1);
    }
    const { plain, classifier } = result.methods as Record<string, { precision: number[] }>;
    expect(classifier?.precision[0]).toBeCloseTo(plain?.precision[0] as number, 12);
    // Every reader follows 2 of the 3 labels: whatever the method, most of each page is relevant.
    for (const { precision } of Object.values(result.methods))
      for (const p of precision) expect(p).toBeGreaterThan(0.6);
  });
});
