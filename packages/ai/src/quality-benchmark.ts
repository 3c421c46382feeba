import fs from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { type SparseVector, sparseDot } from './builtin/tfidf';

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
  const sets = labels.map((label) => (typeof label === 'string' ? [label] : label));
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
  return precisionAtK(
    labels,
    (a, b) => {
      const x = vectors[a] as number[];
      const y = vectors[b] as number[];
      let dot = 0;
      for (let i = 0; i < x.length; i++) dot += (x[i] as number) * (y[i] as number);
      return dot;
    },
    k,
  );
}

const BASELINE_TOKEN = /\b\w\w+\b/gu;

/**
 * The reference baseline: plain tf-idf cosine as a standard vectoriser computes it (scikit-learn's
 * TfidfVectorizer defaults: tokens of 2+ word characters, lower-cased, no stop words, no stemming;
 * with sublinear tf, unigrams and bigrams, and document frequency between 2 and 10%).
 */
export function tfidfBaselineVectors(texts: string[]): SparseVector[] {
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
