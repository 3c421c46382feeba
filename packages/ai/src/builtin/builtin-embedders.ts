import type { EmbedderStateRow, NewEmbedderStateRow } from '@radar/db';
import { createYielder } from '@radar/shared';
import { normalizeVector } from '../embedding-text';
import type { EmbeddingModelIdentity, EmbeddingProvider } from '../providers';
import { LSA_DEFAULTS, LsaEmbedder, type LsaModelState, lsaModelFingerprint } from './lsa-model';
import { termCounts } from './text-features';
import type { SparseVector } from './tfidf';

/**
 * The built-in embedders, which need no downloaded weights and no network:
 * - `tfidf-lsa`: fitted on the corpus (lsa-model.ts); one model version per fit.
 * - `hashing-512`: the bootstrap before there is a corpus to fit on (fewer than LSA_MIN_DOCUMENTS
 *   documents). Signed feature hashing of the same terms, no idf: weaker (collisions, no idf), but
 *   deterministic and usable from the first paper.
 */

export const BUILTIN_PROVIDER = 'builtin';
export const LSA_KIND = 'tfidf-lsa';
export const HASHING_IDENTITY: EmbeddingModelIdentity = {
  provider: BUILTIN_PROVIDER,
  name: 'hashing-512',
  version: '1',
  dimension: 512,
};

/**
 * Embedding a large batch gives the event loop a turn every 5 ms: the HTTP server shares the process in
 * embedded mode, and during a bulk import the database's answer to the chunk being stored waits for
 * this thread to read it before the next statement goes (with a turn every 200 texts, about 80 ms, the
 * insert of one chunk started only after the next chunk was embedded, instead of beside it).
 */
const EMBED_TURN_MS = 5;

function fnv1a(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

export class HashingEmbeddingProvider implements EmbeddingProvider {
  readonly model = HASHING_IDENTITY;

  embedOne(text: string): number[] {
    const dimension = this.model.dimension;
    const vector = new Float64Array(dimension);
    for (const [term, count] of termCounts(text)) {
      const hash = fnv1a(term);
      const sign = hash & 0x80000000 ? -1 : 1;
      const index = hash % dimension;
      vector[index] = (vector[index] as number) + sign * (1 + Math.log(count));
    }
    return normalizeVector(vector, text);
  }

  async embed(texts: string[]): Promise<number[][]> {
    const pause = createYielder(EMBED_TURN_MS);
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i++) {
      await pause();
      out.push(this.embedOne(texts[i] as string));
    }
    return out;
  }
}

export function lsaIdentity(state: LsaModelState): EmbeddingModelIdentity {
  return {
    provider: BUILTIN_PROVIDER,
    name: LSA_KIND,
    version: lsaModelFingerprint(state),
    dimension: state.dimension,
  };
}

export class LsaEmbeddingProvider implements EmbeddingProvider {
  readonly model: EmbeddingModelIdentity;
  private readonly embedder: LsaEmbedder;
  /**
   * The tf-idf vectors of the texts the model was just fitted on, by text: each is used once (the
   * re-embedding after the fit), then let go; forgetFitRows lets go of the rest. The vector is the
   * same as embedOne's, without tokenising the text again.
   */
  private fitRows: Map<string, SparseVector> | undefined;

  constructor(
    state: LsaModelState,
    identity: EmbeddingModelIdentity = lsaIdentity(state),
    fitRows?: Map<string, SparseVector>,
  ) {
    this.embedder = new LsaEmbedder(state);
    this.model = identity;
    this.fitRows = fitRows;
  }

  async embed(texts: string[]): Promise<number[][]> {
    const pause = createYielder(EMBED_TURN_MS);
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i++) {
      await pause();
      const text = texts[i] as string;
      const known = this.fitRows?.get(text);
      if (known) {
        this.fitRows?.delete(text);
        out.push(this.embedder.embedSparse(known, text));
      } else out.push(this.embedder.embedOne(text));
    }
    return out;
  }

  forgetFitRows(): void {
    this.fitRows = undefined;
  }
}

const toBytes = (array: Float32Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

function toFloat32(buffer: Buffer): Float32Array {
  // Copy: a Buffer from the driver may sit at an offset that is not 4-byte aligned.
  const copy = new Uint8Array(buffer.byteLength);
  copy.set(buffer);
  return new Float32Array(copy.buffer);
}

export function serializeLsaState(
  state: LsaModelState,
  embeddingModelId: number,
  corpusSize: number,
): NewEmbedderStateRow {
  return {
    embeddingModelId,
    kind: LSA_KIND,
    corpusSize,
    sampleSize: state.documentCount,
    vocabulary: state.vocabulary.terms,
    idf: toBytes(state.vocabulary.idf),
    projection: toBytes(state.projection),
    params: { ...LSA_DEFAULTS, dimension: state.dimension },
  };
}

export function deserializeLsaState(row: EmbedderStateRow, dimension: number): LsaModelState {
  const idf = toFloat32(row.idf);
  const projection = toFloat32(row.projection);
  if (idf.length !== row.vocabulary.length || projection.length !== row.vocabulary.length * dimension) {
    throw new Error(`embedder state of model ${row.embeddingModelId} is inconsistent with its vocabulary`);
  }
  return {
    vocabulary: { terms: row.vocabulary, idf },
    projection,
    dimension,
    documentCount: row.sampleSize,
  };
}
