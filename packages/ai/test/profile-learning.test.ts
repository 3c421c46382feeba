import fs from 'node:fs';
import path from 'node:path';
import { sharedFixturesDir } from '@radar/db/testing';
import { describe, expect, it } from 'vitest';
import { fitLsaModel, LsaEmbedder, lsaDimensionFor } from '../src/builtin/lsa-model';
import { signalsOfSummary } from '../src/learning/interest-attribution';
import { LEARNING_WEIGHTS, learnedProfileVector } from '../src/learning/profile-learning';
import { readLabelledCsv, simulateReader } from '../src/testing/labelled-set';

const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);
const unit = (v: number[]) => v.map((x) => x / Math.hypot(...v));
const expectVectorCloseTo = (actual: number[], expected: number[]) => {
  expect(actual).toHaveLength(expected.length);
  for (const [i, x] of actual.entries()) expect(x).toBeCloseTo(expected[i] as number, 10);
};

describe('learnedProfileVector', () => {
  const base = [1, 0, 0];
  const liked = [0, 1, 0];
  const dismissed = [0, 0, 1];

  it('returns the normalised base when there are no signals', () => {
    expectVectorCloseTo(learnedProfileVector([3, 4], [], []), [0.6, 0.8]);
  });

  it('moves toward the favourites and away from the dismissed, by the Rocchio weights', () => {
    const learned = learnedProfileVector(base, [liked], [dismissed]);
    expect(dot(learned, liked)).toBeGreaterThan(dot(base, liked));
    expect(dot(learned, dismissed)).toBeLessThan(0);
    expectVectorCloseTo(learned, unit([LEARNING_WEIGHTS.profile, LEARNING_WEIGHTS.liked, -LEARNING_WEIGHTS.dismissed]));
    expect(Math.hypot(...learned)).toBeCloseTo(1, 12);
  });

  it('uses the mean of each list, so many signals do not outweigh the profile by their number', () => {
    const weights = { profile: 2, liked: 1, dismissed: 0.5 };
    expectVectorCloseTo(learnedProfileVector(base, [liked, liked, liked], [], weights), unit([2, 1, 0]));
    expectVectorCloseTo(
      learnedProfileVector(base, [liked, [0, 0, 1]], [dismissed, dismissed], weights),
      unit([2, 0.5, 0.5 - 0.5]),
    );
  });

  it('skips vectors of another dimension or with non-finite values', () => {
    const bad = [[0, 1], [Number.NaN, 1, 0], [0, Number.POSITIVE_INFINITY, 0], []];
    expectVectorCloseTo(learnedProfileVector(base, [liked, ...bad], [...bad]), learnedProfileVector(base, [liked], []));
    expectVectorCloseTo(learnedProfileVector([0, 2, 0], bad, bad), [0, 1, 0]);
  });

  it('returns the base when the signals cancel it out', () => {
    const cancelled = learnedProfileVector([0, 2, 0], [], [[0, 1, 0]], { profile: 1, liked: 0, dismissed: 2 });
    expectVectorCloseTo(cancelled, [0, 1, 0]);
  });
});

describe('simulated reader', () => {
  // Query 0 (label A) lies on the x axis. A papers lean toward +y and B papers toward -y, and their x
  // components alternate B, A, B, A... down the plain ranking, so the plain top 4 is half relevant. After
  // one round of feedback the learned profile leans to +y and ranks every A paper above every B paper.
  const xs = [2, 1.9, 1.8, 1.7, 1.6, 1.5, 1.4, 1.3, 1.2, 1.1, 1.0, 0.9];
  const papers = xs.map((x, i) =>
    i % 2 === 0 ? { label: 'B', vector: unit([x, -0.6, 0]) } : { label: 'A', vector: unit([x, 0.6, 0]) },
  );
  const labels = ['A', ...papers.map((p) => p.label)];
  const vectors = [[1, 0, 0], ...papers.map((p) => p.vector)];
  const options = { rounds: 2, shown: 4, dismissPerRound: 2, queries: [0] };

  it('learning puts all relevant papers first after one round; plain stays at half', () => {
    const result = simulateReader(labels, vectors, options);
    expect(result.queries).toBe(1);
    expect(result.plain).toEqual([0.5, 0.5, 0.5]);
    expect(result.learning).toEqual([0.5, 1, 1]);
  });

  it('without learning, removing the dismissed papers alone lets the next irrelevant ones in', () => {
    // Round 1 dismisses the B papers at x 2.0 and 1.8; the page becomes A 1.9, A 1.7, B 1.6, A 1.5.
    // Round 2 dismisses B 1.6 only (one irrelevant paper shown); B 1.4 takes its place.
    const result = simulateReader(labels, vectors, { ...options, weights: { profile: 1, liked: 0, dismissed: 0 } });
    expect(result.learning).toEqual([0.5, 0.75, 0.75]);
  });
});

const DEV_SET = path.join(sharedFixturesDir(), 'eval/arxiv_cs_4class_balanced_800.csv');
const hasDevSet = fs.existsSync(DEV_SET);
if (!hasDevSet) console.info(`simulated reader on the dev set skipped: ${DEV_SET} not found`);

describe.skipIf(!hasDevSet)('simulated reader on the labelled dev set (../shared/fixtures/eval)', () => {
  it('learning beats the plain ranking after round 1, by more after round 3, and beats removal alone', async () => {
    const documents = await readLabelledCsv(DEV_SET);
    const texts = documents.map((d) => d.text);
    const lsa = new LsaEmbedder(await fitLsaModel(texts, { dimension: lsaDimensionFor(texts.length) }));
    const vectors = texts.map((text) => lsa.embedOne(text));
    const labels = documents.map((d) => d.label);
    // Every 4th paper as a query (the rows are sorted by category), ranked against all 800.
    const queries = texts.map((_, i) => i).filter((i) => i % 4 === 0);
    const { plain, learning } = simulateReader(labels, vectors, { queries });
    const removalOnly = simulateReader(labels, vectors, { queries, weights: { profile: 1, liked: 0, dismissed: 0 } });
    console.info(
      `simulated reader, ${queries.length} queries: plain ${plain[0]?.toFixed(4)}, learning by round ${learning.map((p) => p.toFixed(4)).join(' ')}`,
    );
    const gain = (round: number) => (learning[round] as number) - (plain[round] as number);
    expect(learning[0]).toBe(plain[0]);
    expect(gain(1)).toBeGreaterThan(0.05);
    expect(gain(3)).toBeGreaterThan(gain(1));
    expect(learning[3]).toBeGreaterThan(removalOnly.learning[3] as number);
  });
});

describe('signalsOfSummary', () => {
  it('keeps the signals nearer to the summary than to every other interest (a tie is the summary’s)', () => {
    const signals = [
      [1, 0.2, 0],
      [0.2, 1, 0],
      [0, 0.1, 1],
      [1, 1, 0],
    ];
    const kept = signalsOfSummary(
      [1, 0, 0],
      [
        [0, 1, 0],
        [0, 0, 1],
      ],
      signals,
      (v) => v,
    );
    expect(kept).toEqual([
      [1, 0.2, 0],
      [1, 1, 0],
    ]);
    // No other interest (or none of this dimension): every signal is the summary's.
    expect(signalsOfSummary([1, 0, 0], [], signals, (v) => v)).toEqual(signals);
    expect(signalsOfSummary([1, 0, 0], [[0, 1]], signals, (v) => v)).toEqual(signals);
  });
});
