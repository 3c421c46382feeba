import { createHash } from 'node:crypto';
import { createYielder } from '@radar/shared';
import { normalizeVector } from '../embedding-text';
import { termCounts } from './text-features';
import { fitVocabulary, indexVocabulary, type SparseVector, type TfidfVocabulary, vectorizeCounts } from './tfidf';
import { truncatedSvd } from './truncated-svd';

/**
 * The built-in embedder's corpus-fitted model: tf-idf over the corpus vocabulary, projected onto the
 * top singular vectors of the corpus (latent semantic analysis). Related terms ("neural network",
 * "deep learning") land in the same directions, so texts that share topics but not exact words still
 * match, which plain tf-idf misses. It needs no downloaded weights and no network; it is refitted as
 * the corpus grows and each fit is a new model version.
 */

export interface LsaFitOptions {
  dimension: number;
  minDf?: number;
  maxDfRatio?: number;
  maxFeatures?: number;
  powerIterations?: number;
  seed?: number;
}

export interface LsaModelState {
  vocabulary: TfidfVocabulary;
  /** terms x dimension, term-major (term t's coefficients at [t * dimension, (t + 1) * dimension)). */
  projection: Float32Array;
  dimension: number;
  /** Documents the model was fitted on. */
  documentCount: number;
}

export const LSA_DEFAULTS = {
  minDf: 2,
  maxDfRatio: 0.5,
  maxFeatures: 40_000,
  powerIterations: 3,
  seed: 20_261_121,
} as const;

/**
 * The smallest corpus the model is fitted on; below it the hashing embedder is used. Measured on the
 * dev set (docs/benchmarks.md), a fit on 50 documents already ranks better than hashing (0.29 vs 0.28
 * precision@20, and more at every larger size); at 30 documents both are at chance.
 */
export const LSA_MIN_DOCUMENTS = 50;

/**
 * LSA dimension for a fit on `documents` documents (when EMBEDDING_DIM does not set one):
 * 32 below 800 documents, 64 from 800, 128 from 5,000. A small corpus supports fewer latent topics:
 * on the dev set 32 dimensions beat 64 and 128 by 1-4 points of precision@20 from 150 to 800
 * documents, and held-out arXiv sets showed 64 beating 128 by about a point at 800-2,000. 32 is the
 * floor because the dev set has only four classes, which favours fewer dimensions than a corpus of
 * many fields needs; 128 from 5,000 keeps the size measured before for large corpora (no labelled
 * set that large was measured).
 */
export function lsaDimensionFor(documents: number): number {
  if (documents >= 5_000) return 128;
  if (documents >= 800) return 64;
  return 32;
}

export async function fitLsaModel(texts: string[], options: LsaFitOptions): Promise<LsaModelState> {
  return (await fitLsaModelKeepingRows(texts, options)).state;
}

/**
 * fitLsaModel, also giving each text's tf-idf vector over the fitted vocabulary (`rows[i]` of
 * `texts[i]`): the re-embedding that follows a fit embeds these texts again, and with them
 * (LsaEmbedder.embedSparse) it skips tokenising each a second time.
 */
export async function fitLsaModelKeepingRows(
  texts: string[],
  options: LsaFitOptions,
): Promise<{ state: LsaModelState; rows: SparseVector[] }> {
  // Every loop gives the event loop a turn now and then (every ~20 ms): in embedded mode the HTTP server
  // shares the process, and a fit takes seconds to a minute on a large corpus.
  const pause = createYielder();
  const counts: Map<string, number>[] = [];
  for (const text of texts) {
    await pause();
    counts.push(termCounts(text));
  }
  const vocabulary = await fitVocabulary(
    counts,
    {
      minDf: options.minDf ?? LSA_DEFAULTS.minDf,
      maxDfRatio: options.maxDfRatio ?? LSA_DEFAULTS.maxDfRatio,
      maxFeatures: options.maxFeatures ?? LSA_DEFAULTS.maxFeatures,
    },
    pause,
  );
  const index = indexVocabulary(vocabulary);
  const all: SparseVector[] = [];
  for (const documentCounts of counts) {
    await pause();
    all.push(vectorizeCounts(documentCounts, vocabulary, index));
  }
  const rows = all.filter((row) => row.indices.length > 0);
  // Millions of map entries: let them go before the long SVD, so garbage collection pauses stay short.
  counts.length = 0;
  const terms = vocabulary.terms.length;
  const svd = await truncatedSvd(rows, terms, {
    rank: options.dimension,
    powerIterations: options.powerIterations ?? LSA_DEFAULTS.powerIterations,
    seed: options.seed ?? LSA_DEFAULTS.seed,
  });
  // Stored dimension is fixed even when the corpus supports fewer components (the rest stay zero).
  const dimension = options.dimension;
  const projection = new Float32Array(terms * dimension);
  for (let c = 0; c < svd.rank; c++) {
    await pause();
    for (let t = 0; t < terms; t++) projection[t * dimension + c] = svd.components[c * terms + t] as number;
  }
  return { state: { vocabulary, projection, dimension, documentCount: rows.length }, rows: all };
}

export class LsaEmbedder {
  private readonly index: Map<string, number>;

  constructor(readonly state: LsaModelState) {
    this.index = indexVocabulary(state.vocabulary);
  }

  /** A unit vector (a text-seeded direction when the text shares no term with the vocabulary). */
  embedOne(text: string): number[] {
    return this.embedSparse(vectorizeCounts(termCounts(text), this.state.vocabulary, this.index), text);
  }

  /** embedOne of a text whose tf-idf vector over this model's vocabulary is known (fitLsaModelKeepingRows). */
  embedSparse(sparse: SparseVector, text: string): number[] {
    const { dimension, projection } = this.state;
    const out = new Float64Array(dimension);
    for (let k = 0; k < sparse.indices.length; k++) {
      const offset = (sparse.indices[k] as number) * dimension;
      const weight = sparse.values[k] as number;
      for (let c = 0; c < dimension; c++) out[c] = (out[c] as number) + weight * (projection[offset + c] as number);
    }
    return normalizeVector(out, text);
  }
}

/** A short content hash of a fitted model: the same corpus and settings give the same version. */
export function lsaModelFingerprint(state: LsaModelState): string {
  const hash = createHash('sha256');
  hash.update(state.vocabulary.terms.join('\n'));
  hash.update(
    Buffer.from(state.vocabulary.idf.buffer, state.vocabulary.idf.byteOffset, state.vocabulary.idf.byteLength),
  );
  hash.update(Buffer.from(state.projection.buffer, state.projection.byteOffset, state.projection.byteLength));
  return hash.digest('hex').slice(0, 12);
}
