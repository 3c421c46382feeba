/** A sparse, L2-normalised tf-idf vector: parallel arrays of vocabulary indices and weights. */
export interface SparseVector {
  indices: Uint32Array;
  values: Float64Array;
}

export interface TfidfVocabulary {
  terms: string[];
  /** Smoothed inverse document frequency per term, ln((1 + n) / (1 + df)) + 1. */
  idf: Float32Array;
}

export interface TfidfFitOptions {
  /** Terms in fewer documents than this are dropped (typos, one-off tokens). */
  minDf: number;
  /** Terms in more than this share of documents are dropped (carry no topic). */
  maxDfRatio: number;
  /** Keep at most this many terms, the most frequent by document frequency. */
  maxFeatures: number;
}

export async function fitVocabulary(
  documents: Map<string, number>[],
  options: TfidfFitOptions,
  pause: () => Promise<void> = async () => {},
): Promise<TfidfVocabulary> {
  const df = new Map<string, number>();
  for (const counts of documents) {
    await pause();
    for (const term of counts.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const n = documents.length;
  const maxDf = Math.max(options.minDf, Math.floor(options.maxDfRatio * n));
  // The document frequency from which the most frequent maxFeatures terms are kept, from a histogram,
  // so only those (and the ties at that frequency) are sorted, not every term seen twice.
  const histogram = new Uint32Array(maxDf + 2);
  let seen = 0;
  for (const count of df.values()) {
    if (++seen % 50_000 === 0) await pause();
    if (count >= options.minDf && count <= maxDf) histogram[count] = (histogram[count] as number) + 1;
  }
  let threshold = options.minDf;
  for (let count = maxDf, total = 0; count >= options.minDf; count--) {
    total += histogram[count] as number;
    if (total >= options.maxFeatures) {
      threshold = count;
      break;
    }
  }
  const candidates: [string, number][] = [];
  for (const entry of df) {
    if (++seen % 50_000 === 0) await pause();
    if (entry[1] >= threshold && entry[1] <= maxDf) candidates.push(entry);
  }
  const kept = candidates
    // Most frequent first, ties by term, so the same corpus always gives the same vocabulary.
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, options.maxFeatures);
  kept.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    terms: kept.map(([term]) => term),
    idf: Float32Array.from(kept, ([, count]) => Math.log((1 + n) / (1 + count)) + 1),
  };
}

export function indexVocabulary(vocabulary: TfidfVocabulary): Map<string, number> {
  return new Map(vocabulary.terms.map((term, index) => [term, index]));
}

/** Counts up to this fit in the low bits of vectorizeCounts' packed keys (above it, the general path). */
const PACKED_COUNT_LIMIT = 2 ** 21;

/**
 * Sublinear tf (1 + ln tf) times idf, L2-normalised; terms outside the vocabulary are ignored. Each
 * term's vocabulary index and count are packed into one number (index x 2^21 + count: exact below
 * 2^53) and sorted as a Float64Array, which sorts numerically without a comparator or a pair per
 * term; distinct terms have distinct indices, so the order is the same as sorting the pairs by index.
 */
export function vectorizeCounts(
  counts: Map<string, number>,
  vocabulary: TfidfVocabulary,
  index: Map<string, number>,
): SparseVector {
  const packed = new Float64Array(counts.size);
  let size = 0;
  for (const [term, tf] of counts) {
    const i = index.get(term);
    if (i === undefined) continue;
    if (!(tf < PACKED_COUNT_LIMIT)) return vectorizePairs(counts, vocabulary, index);
    packed[size++] = i * PACKED_COUNT_LIMIT + tf;
  }
  const keys = packed.subarray(0, size).sort();
  const indices = new Uint32Array(size);
  const values = new Float64Array(size);
  let squares = 0;
  for (let k = 0; k < size; k++) {
    const key = keys[k] as number;
    const tf = key % PACKED_COUNT_LIMIT;
    const i = (key - tf) / PACKED_COUNT_LIMIT;
    const weight = (1 + Math.log(tf)) * (vocabulary.idf[i] ?? 1);
    indices[k] = i;
    values[k] = weight;
    squares += weight * weight;
  }
  const norm = Math.sqrt(squares) || 1;
  for (let k = 0; k < size; k++) values[k] = (values[k] as number) / norm;
  return { indices, values };
}

/** vectorizeCounts for a text with a term counted 2^21 times or more (no packed keys). */
function vectorizePairs(
  counts: Map<string, number>,
  vocabulary: TfidfVocabulary,
  index: Map<string, number>,
): SparseVector {
  const entries: [number, number][] = [];
  for (const [term, tf] of counts) {
    const i = index.get(term);
    if (i === undefined) continue;
    entries.push([i, (1 + Math.log(tf)) * (vocabulary.idf[i] ?? 1)]);
  }
  entries.sort((a, b) => a[0] - b[0]);
  const norm = Math.sqrt(entries.reduce((sum, [, w]) => sum + w * w, 0)) || 1;
  return {
    indices: Uint32Array.from(entries, ([i]) => i),
    values: Float64Array.from(entries, ([, w]) => w / norm),
  };
}

/** Cosine of two L2-normalised sparse vectors (indices ascending). */
export function sparseDot(a: SparseVector, b: SparseVector): number {
  let i = 0;
  let j = 0;
  let sum = 0;
  while (i < a.indices.length && j < b.indices.length) {
    const ai = a.indices[i] as number;
    const bj = b.indices[j] as number;
    if (ai === bj) sum += (a.values[i++] as number) * (b.values[j++] as number);
    else if (ai < bj) i++;
    else j++;
  }
  return sum;
}
