import fs from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { type SparseVector, sparseDot } from '../builtin/tfidf';
import { LEARNING_WEIGHTS, type LearningWeights, learnedProfileVector } from '../learning/profile-learning';

/**
 * Recommendation quality on a labelled set (../shared/fixtures/eval): each document in turn is the
 * research profile, every other document is ranked by similarity, and precision@k is the share of the
 * top k with the profile's label. Shared by `pnpm bench:quality` and the quality test.
 */

export interface LabelledDocument {
  /** Title and abstract as one text (`title. abstract`): the profile of a query, the document ranked. */
  text: string;
  label: string;
  title: string;
  abstract: string;
}

export async function readLabelledCsv(file: string): Promise<LabelledDocument[]> {
  const rows = parse(await fs.readFile(file, 'utf8'), { columns: true, skip_empty_lines: true }) as Record<
    string,
    string
  >[];
  return rows.map((row) => {
    const title = (row.title ?? '').trim();
    const abstract = row.summary ?? row.abstract ?? '';
    return {
      text: `${title}. ${abstract.replace(/\s+/g, ' ')}`.trim(),
      label: row.category ?? row.label ?? '',
      title,
      abstract,
    };
  });
}

function labelSets(labels: readonly (string | readonly string[])[]): (readonly string[])[] {
  return labels.map((label) => (typeof label === 'string' ? [label] : label));
}

/**
 * Mean precision@k over all queries, given a similarity function over document indices. A document
 * may carry several labels (a paper cross-listed in several categories); a result is relevant when it
 * shares one with the query.
 */
export function precisionAtK(
  labels: readonly (string | readonly string[])[],
  similarity: (a: number, b: number) => number,
  k = 20,
): number {
  const sets = labelSets(labels);
  const relevant = (q: number, d: number) => (sets[d] as readonly string[]).some((l) => sets[q]?.includes(l));
  let total = 0;
  const n = labels.length;
  const scores = new Float64Array(n);
  for (let q = 0; q < n; q++) {
    for (let d = 0; d < n; d++) scores[d] = d === q ? Number.NEGATIVE_INFINITY : similarity(q, d);
    const top = Array.from({ length: n }, (_, i) => i)
      .sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b)
      .slice(0, k);
    total += top.filter((d) => relevant(q, d)).length / k;
  }
  return total / n;
}

export function denseCosinePrecision(
  labels: readonly (string | readonly string[])[],
  vectors: number[][],
  k = 20,
): number {
  return precisionAtK(labels, (a, b) => dot(vectors[a] as number[], vectors[b] as number[]), k);
}

const BASELINE_TOKEN = /\b\w\w+\b/gu;

/**
 * The reference baseline: plain tf-idf cosine as a standard vectoriser computes it (scikit-learn's
 * TfidfVectorizer defaults: tokens of 2+ word characters, lower-cased, no stop words, no stemming;
 * with sublinear tf, unigrams and bigrams, and document frequency between 2 and 10%).
 */
function tfidfBaselineVectors(texts: string[]): SparseVector[] {
  const docs = texts.map((text) => {
    const tokens = text.toLowerCase().match(BASELINE_TOKEN) ?? [];
    const counts = new Map<string, number>();
    const add = (term: string) => counts.set(term, (counts.get(term) ?? 0) + 1);
    tokens.forEach((token, i) => {
      add(token);
      if (i > 0) add(`${tokens[i - 1]} ${token}`);
    });
    return counts;
  });
  const n = docs.length;
  const df = new Map<string, number>();
  for (const counts of docs) for (const term of counts.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const maxDf = Math.floor(0.1 * n);
  const index = new Map<string, number>();
  const idf: number[] = [];
  for (const [term, count] of df) {
    if (count < 2 || count > maxDf) continue;
    index.set(term, idf.length);
    idf.push(Math.log((1 + n) / (1 + count)) + 1);
  }
  return docs.map((counts) => {
    const entries: [number, number][] = [];
    for (const [term, tf] of counts) {
      const i = index.get(term);
      if (i !== undefined) entries.push([i, (1 + Math.log(tf)) * (idf[i] as number)]);
    }
    entries.sort((a, b) => a[0] - b[0]);
    const norm = Math.sqrt(entries.reduce((sum, [, w]) => sum + w * w, 0)) || 1;
    return {
      indices: Uint32Array.from(entries, ([i]) => i),
      values: Float64Array.from(entries, ([, w]) => w / norm),
    };
  });
}

export function tfidfBaselinePrecision(
  documents: readonly { text: string; label: string | readonly string[] }[],
  k = 20,
): number {
  const vectors = tfidfBaselineVectors(documents.map((d) => d.text));
  return precisionAtK(
    documents.map((d) => d.label),
    (a, b) => sparseDot(vectors[a] as SparseVector, vectors[b] as SparseVector),
    k,
  );
}

export interface ReaderSimulationOptions {
  /** Rounds of feedback after the first page (default 3). */
  rounds?: number;
  /** How many papers the reader looks at per round, and the k of precision@k (default 20). */
  shown?: number;
  /** Irrelevant papers dismissed per round, the highest ranked first (default 5). */
  dismissPerRound?: number;
  /** Relevant papers favourited per round, the highest ranked first (default all shown). */
  likesPerRound?: number;
  weights?: LearningWeights;
  /** Query documents (default all). The rows of a labelled set are often sorted by label: sample evenly. */
  queries?: readonly number[];
}

export interface ReaderSimulationResult {
  /** Mean precision@shown per round 0..rounds of the ranking by the query's own vector (the same every round). */
  plain: number[];
  /** The same for the ranking by the learned profile, with the dismissed papers removed. */
  learning: number[];
  /**
   * Issue 31: of the learning page, the papers not on an earlier page (mean count) and the relevant ones
   * among them (out of `shown`). Favourited papers stay in the product's list (rule 3 of
   * packages/db/src/repositories/reader-eligibility.ts keeps out 👎, 👍 and 不感兴趣, not favourites), so
   * `learning` counts them again on every page they stay on.
   */
  learningUnseen: number[];
  learningUnseenPrecision: number[];
  queries: number;
}

/**
 * A simulated reader on a labelled set. Each query document's vector is the profile; round 0 shows the
 * top `shown` of the plain ranking (the query itself excluded). In each round the reader favourites the
 * relevant papers shown (same label) and dismisses up to `dismissPerRound` irrelevant ones, the highest
 * ranked first; the ranking is then recomputed from `learnedProfileVector(base, allLiked, allDismissed)`
 * with the dismissed papers removed for good, while favourited ones stay in it, as in the product.
 * Vectors are L2-normalised, so the dot product is the cosine.
 */
export function simulateReader(
  labels: readonly (string | readonly string[])[],
  vectors: readonly number[][],
  options: ReaderSimulationOptions = {},
): ReaderSimulationResult {
  const { rounds = 3, shown = 20, dismissPerRound = 5, likesPerRound = shown, weights = LEARNING_WEIGHTS } = options;
  const queries = options.queries ?? labels.map((_, i) => i);
  const sets = labelSets(labels);
  const n = labels.length;
  const scores = new Float64Array(n);
  const plain = new Array<number>(rounds + 1).fill(0);
  const learning = new Array<number>(rounds + 1).fill(0);
  const learningUnseen = new Array<number>(rounds + 1).fill(0);
  const learningUnseenPrecision = new Array<number>(rounds + 1).fill(0);

  const topShown = (query: number, profile: readonly number[], removed: ReadonlySet<number>): number[] => {
    const candidates: number[] = [];
    for (let d = 0; d < n; d++) {
      if (d === query || removed.has(d)) continue;
      scores[d] = dot(profile, vectors[d] as number[]);
      candidates.push(d);
    }
    return candidates.sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b).slice(0, shown);
  };

  for (const query of queries) {
    const querySet = sets[query] as readonly string[];
    const isRelevant = (d: number) => (sets[d] as readonly string[]).some((label) => querySet.includes(label));
    const precision = (page: number[]) => page.filter(isRelevant).length / shown;
    const base = vectors[query] as number[];
    const liked = new Set<number>();
    const dismissed = new Set<number>();
    let page = topShown(query, base, dismissed);
    const plainPrecision = precision(page);
    for (let round = 0; round <= rounds; round++) plain[round] = (plain[round] as number) + plainPrecision;
    learning[0] = (learning[0] as number) + plainPrecision;
    const seen = new Set<number>();
    const countUnseen = (round: number) => {
      const fresh = page.filter((d) => !seen.has(d));
      learningUnseen[round] = (learningUnseen[round] as number) + fresh.length;
      learningUnseenPrecision[round] = (learningUnseenPrecision[round] as number) + precision(fresh);
      for (const d of fresh) seen.add(d);
    };
    countUnseen(0);
    for (let round = 1; round <= rounds; round++) {
      for (const d of page.filter((d) => isRelevant(d) && !liked.has(d)).slice(0, likesPerRound)) liked.add(d);
      for (const d of page.filter((d) => !isRelevant(d)).slice(0, dismissPerRound)) dismissed.add(d);
      const profile = learnedProfileVector(
        base,
        [...liked].map((d) => vectors[d] as number[]),
        [...dismissed].map((d) => vectors[d] as number[]),
        weights,
      );
      page = topShown(query, profile, dismissed);
      learning[round] = (learning[round] as number) + precision(page);
      countUnseen(round);
    }
  }
  const mean = (values: number[]) => values.map((value) => value / Math.max(queries.length, 1));
  return {
    plain: mean(plain),
    learning: mean(learning),
    learningUnseen: mean(learningUnseen),
    learningUnseenPrecision: mean(learningUnseenPrecision),
    queries: queries.length,
  };
}

function dot(x: readonly number[], y: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += (x[i] as number) * (y[i] as number);
  return sum;
}
