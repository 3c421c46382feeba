import fs from 'node:fs';
import path from 'node:path';
import { syntheticPapers, topicWords } from '@radar/ai/testing';
import { sharedFixturesDir } from '@radar/db/testing';
import { describe, expect, it } from 'vitest';
import { HashingEmbeddingProvider, LsaEmbeddingProvider, lsaIdentity } from '../src/builtin/builtin-embedders';
import { fitLsaModel, fitLsaModelKeepingRows, LSA_MIN_DOCUMENTS, lsaDimensionFor } from '../src/builtin/lsa-model';
import { termCounts } from '../src/builtin/text-features';
import type { SparseVector } from '../src/builtin/tfidf';
import { symmetricEigen, truncatedSvd } from '../src/builtin/truncated-svd';
import { documentEmbeddingText } from '../src/embedding-text';
import { denseCosinePrecision, readLabelledCsv, tfidfBaselinePrecision } from '../src/testing/labelled-set';

const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);

describe('text features', () => {
  it('folds plurals, drops stop words, pairs adjacent words, and splits Chinese into character bigrams', () => {
    const counts = termCounts('Graph Neural Networks for the networks, of proteins. 图神经网络');
    expect(counts.get('network')).toBe(2);
    expect(counts.get('graph neural')).toBe(1);
    expect(counts.get('neural network')).toBe(1);
    expect(counts.has('network protein')).toBe(false); // a comma and a stop word lie between them
    expect(counts.has('the')).toBe(false);
    expect(counts.get('神经')).toBe(1);
  });
});

describe('symmetric eigen-decomposition', () => {
  it('recovers eigenvalues of a known matrix', async () => {
    // [[2,1],[1,2]] has eigenvalues 3 and 1.
    const { values, vectors } = await symmetricEigen(Float64Array.from([2, 1, 1, 2]), 2);
    expect(values[0]).toBeCloseTo(3, 10);
    expect(values[1]).toBeCloseTo(1, 10);
    expect(Math.abs(vectors[0] as number)).toBeCloseTo(Math.SQRT1_2, 10);
  });
});

/** A sparse row from a dense one. */
const sparseRow = (dense: number[]): SparseVector => {
  const indices = dense.flatMap((value, index) => (value === 0 ? [] : [index]));
  return { indices: Uint32Array.from(indices), values: Float64Array.from(indices, (index) => dense[index] as number) };
};

describe('randomized truncated SVD', () => {
  it('finds the singular values and right singular vectors of a matrix of known spectrum', async () => {
    // Rows e_i * s_i over 6 terms, rotated within terms 0-1: singular values 5, 4, 3, 2, 1 exactly.
    const c = Math.cos(0.3);
    const s = Math.sin(0.3);
    const rows = [
      sparseRow([5 * c, 5 * s, 0, 0, 0, 0]),
      sparseRow([-4 * s, 4 * c, 0, 0, 0, 0]),
      sparseRow([0, 0, 3, 0, 0, 0]),
      sparseRow([0, 0, 0, 2, 0, 0]),
      sparseRow([0, 0, 0, 0, 1, 0]),
    ];
    const svd = await truncatedSvd(rows, 6, { rank: 3, powerIterations: 3, seed: 7 });
    expect(Array.from(svd.singularValues)).toEqual([expect.closeTo(5, 6), expect.closeTo(4, 6), expect.closeTo(3, 6)]);
    // The first component is (cos, sin, 0, ...) up to sign.
    const first = Array.from(svd.components.subarray(0, 6));
    expect(Math.abs(first[0] as number)).toBeCloseTo(c, 6);
    expect(Math.abs(first[1] as number)).toBeCloseTo(s, 6);
  });

  it('copes with more directions than the matrix has (dependent columns: a tiny corpus)', async () => {
    // Rank 2: the third row repeats the first; the other directions must come out zero, not NaN.
    const rows = [sparseRow([1, 1, 0, 0]), sparseRow([0, 0, 2, 0]), sparseRow([1, 1, 0, 0])];
    const svd = await truncatedSvd(rows, 4, { rank: 3, powerIterations: 2, seed: 3 });
    expect(svd.components.every(Number.isFinite)).toBe(true);
    expect(svd.singularValues[0]).toBeCloseTo(2, 6);
    expect(svd.singularValues[1]).toBeCloseTo(2, 6);
    expect(svd.singularValues[2]).toBeCloseTo(0, 6);
  });
});

describe('built-in LSA model', () => {
  const papers = syntheticPapers(240);
  const texts = papers.map((p) => documentEmbeddingText(p.title, p.abstract));

  it('is deterministic: the same corpus gives the same version and the same vectors', async () => {
    const [a, b] = [await fitLsaModel(texts, { dimension: 32 }), await fitLsaModel(texts, { dimension: 32 })];
    expect(lsaIdentity(a)).toEqual(lsaIdentity(b));
    expect(lsaIdentity(a)).toMatchObject({ provider: 'builtin', name: 'tfidf-lsa', dimension: 32 });
    expect(lsaIdentity(a).version).toMatch(/^[0-9a-f]{12}$/);
    const [va] = await new LsaEmbeddingProvider(a).embed([texts[0] as string]);
    const [vb] = await new LsaEmbeddingProvider(b).embed([texts[0] as string]);
    expect(va).toEqual(vb);
  });

  it('embeds the texts it was fitted on from their kept tf-idf rows exactly as from the text', async () => {
    const { state, rows } = await fitLsaModelKeepingRows(texts, { dimension: 32 });
    expect(rows).toHaveLength(texts.length);
    const fitRows = new Map(texts.map((text, index) => [text, rows[index] as SparseVector]));
    const warm = new LsaEmbeddingProvider(state, lsaIdentity(state), fitRows);
    const cold = new LsaEmbeddingProvider(state);
    const sample = [...texts.slice(0, 20), 'A text the model was not fitted on about protein folding.'];
    expect(await warm.embed(sample)).toEqual(await cold.embed(sample));
    // Each kept row is used once and let go.
    expect(fitRows.has(texts[0] as string)).toBe(false);
    expect(fitRows.has(texts[30] as string)).toBe(true);
  });

  it('gives unit vectors that put same-topic texts closer than other topics', async () => {
    const embedder = new LsaEmbeddingProvider(await fitLsaModel(texts, { dimension: 32 }));
    const [profile, same, other] = await embedder.embed([
      `We work on ${topicWords('climate').slice(0, 5).join(', ')}.`,
      `A study of ${topicWords('climate').slice(5, 10).join(' and ')}.`,
      `A study of ${topicWords('economics').slice(0, 5).join(' and ')}.`,
    ]);
    for (const vector of [profile, same, other]) expect(Math.hypot(...(vector as number[]))).toBeCloseTo(1, 6);
    expect(dot(profile as number[], same as number[])).toBeGreaterThan(
      dot(profile as number[], other as number[]) + 0.3,
    );
  });

  it('gives a finite unit vector to a text with no known term (pgvector cannot compare zero vectors)', async () => {
    const embedder = new LsaEmbeddingProvider(await fitLsaModel(texts, { dimension: 16 }));
    const [vector] = await embedder.embed(['量子 zzzz qqqq']);
    expect(vector?.every(Number.isFinite)).toBe(true);
    expect(Math.hypot(...(vector as number[]))).toBeCloseTo(1, 6);
  });
});

describe('LSA size from the corpus size', () => {
  it('fits from 50 documents, with 32 dimensions below 800 documents, 64 below 5,000, then 128', () => {
    expect(LSA_MIN_DOCUMENTS).toBe(50);
    expect([50, 799, 800, 4_999, 5_000, 20_000].map(lsaDimensionFor)).toEqual([32, 32, 64, 64, 128, 128]);
  });
});

describe('hashing bootstrap embedder', () => {
  it('is deterministic and needs no corpus', async () => {
    const embedder = new HashingEmbeddingProvider();
    const [a, b] = await embedder.embed(['protein folding dynamics', 'protein folding dynamics']);
    expect(a).toEqual(b);
    expect(a).toHaveLength(512);
    expect(Math.hypot(...(a as number[]))).toBeCloseTo(1, 6);
  });
});

const DEV_SET = path.join(sharedFixturesDir(), 'eval/arxiv_cs_4class_balanced_800.csv');

describe.runIf(fs.existsSync(DEV_SET))('ranking quality on the labelled dev set (../shared/fixtures/eval)', () => {
  it('the built-in embedder ranks at least as well as plain tf-idf cosine (precision@20)', async () => {
    const documents = await readLabelledCsv(DEV_SET);
    const baseline = tfidfBaselinePrecision(documents);
    const texts = documents.map((d) => d.text);
    // The size production chooses for a corpus of this many documents.
    const embedder = new LsaEmbeddingProvider(await fitLsaModel(texts, { dimension: lsaDimensionFor(texts.length) }));
    const builtin = denseCosinePrecision(
      documents.map((d) => d.label),
      await embedder.embed(texts),
    );
    console.info(
      `precision@20 on the dev set: built-in tfidf-lsa ${builtin.toFixed(4)}, tf-idf baseline ${baseline.toFixed(4)}`,
    );
    expect(builtin).toBeGreaterThanOrEqual(baseline);
  });
});
