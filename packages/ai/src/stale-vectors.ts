import type { EmbeddableRow, NewIngestReject, SourceStateRepository, VectorRepository, VectorTarget } from '@radar/db';
import type { Logger } from 'pino';
import { capEmbeddingText } from './embedding-text';
import type { EmbeddingProvider } from './providers';

/**
 * The one loop that puts vectors on a model: new items (queue `content-embed`) and the re-embedding of
 * everything after a model change (queue `embeddings`) both go through embedStaleRows, so both keep the
 * same rules:
 * - only rows whose vector is missing or of another model are selected (idempotent, resumable);
 * - every text is cut to MAX_EMBEDDING_TEXT_CHARS (embedding-text.ts);
 * - every vector is checked before it is stored: the model's dimension, finite numbers, not all zero
 *   (pgvector's cosine distance of a zero vector is NaN, and a NaN or a wrong length would poison
 *   every search that reads it);
 * - a batch the provider refuses, or that returns a vector failing the check, is retried one item at a
 *   time, so one bad item never keeps the others from their vectors; an item that still fails is left
 *   without a vector and recorded in radar.ingest_rejects under `rejectSource` ("embedding failed").
 */

/** Why `vector` cannot be stored as a vector of `dimension` dimensions, or undefined when it can. */
export function vectorProblem(vector: unknown, dimension: number): string | undefined {
  if (!Array.isArray(vector)) return 'no vector';
  if (vector.length !== dimension) return `${vector.length} dimensions instead of ${dimension}`;
  let nonZero = false;
  for (const value of vector) {
    if (typeof value !== 'number' || !Number.isFinite(value)) return 'a value that is not a finite number';
    if (value !== 0) nonZero = true;
  }
  return nonZero ? undefined : 'a zero vector';
}

export interface VectorFailure {
  id: string;
  message: string;
}

/**
 * Embeds `rows` with `provider`, checking each vector against `dimension`. A batch that throws (or
 * returns the wrong number of vectors) is retried one row at a time; a vector that fails the check is
 * retried alone once. Returns the usable vectors and the rows that failed, with why.
 */
async function embedChecked(
  provider: Pick<EmbeddingProvider, 'embed'>,
  dimension: number,
  rows: readonly { id: string }[],
  texts: readonly string[],
): Promise<{ vectors: { id: string; vector: number[] }[]; failures: VectorFailure[] }> {
  const vectors: { id: string; vector: number[] }[] = [];
  const failures: VectorFailure[] = [];
  const capped = texts.map(capEmbeddingText);
  const retry: number[] = [];
  try {
    const batch = await provider.embed(capped);
    if (batch.length !== rows.length) {
      throw new Error(`the provider returned ${batch.length} vectors for ${rows.length} texts`);
    }
    batch.forEach((vector, index) => {
      if (vectorProblem(vector, dimension) === undefined)
        vectors.push({ id: (rows[index] as { id: string }).id, vector });
      else retry.push(index);
    });
  } catch (error) {
    if (rows.length === 1) {
      failures.push({ id: (rows[0] as { id: string }).id, message: (error as Error).message });
      return { vectors, failures };
    }
    retry.push(...rows.map((_, index) => index));
  }
  for (const index of retry) {
    const id = (rows[index] as { id: string }).id;
    try {
      const [vector] = await provider.embed([capped[index] as string]);
      const problem = vectorProblem(vector, dimension);
      if (problem) throw new Error(`the provider returned ${problem}`);
      vectors.push({ id, vector: vector as number[] });
    } catch (error) {
      failures.push({ id, message: (error as Error).message });
    }
  }
  return { vectors, failures };
}

export interface StaleRowsPass {
  target: VectorTarget;
  /** The model the vectors are stored under. */
  modelId: number;
  dimension: number;
  provider: Pick<EmbeddingProvider, 'embed'>;
  /** The text each row is embedded from, in order (CrossLingualTexts). */
  textsOf: (rows: EmbeddableRow[]) => Promise<string[]> | string[];
  batchSize: number;
  /** Only these rows (new items); all stale rows when absent. */
  ids?: readonly string[] | undefined;
  /** Writes only while `modelId` is the active model (VectorRepository.setVectors). */
  whileActive?: boolean;
  /** radar.ingest_rejects source of the failures. */
  rejectSource: string;
  /** Asked before each batch: true ends the pass (another model became active). */
  shouldStop?: () => Promise<boolean>;
  /** After each batch, with the vectors written so far in this pass. */
  onBatch?: (embedded: number) => Promise<void> | void;
  signal?: AbortSignal | undefined;
  logger?: Logger | undefined;
}

export interface StaleRowsResult {
  embedded: number;
  failed: number;
  /** shouldStop ended the pass. */
  stopped: boolean;
  lastError?: string | undefined;
}

/** The repositories a pass uses (AiRepositories and IngestRepositories both have them). */
export interface StaleRowsRepositories {
  vectors: Pick<VectorRepository, 'listStale' | 'setVectors'>;
  sourceStates: Pick<SourceStateRepository, 'recordRejects'>;
}

/** Embeds the stale rows of one target, batch by batch (see the module comment). */
export async function embedStaleRows(
  repositories: StaleRowsRepositories,
  pass: StaleRowsPass,
): Promise<StaleRowsResult> {
  const repository = repositories.vectors;
  const failures: NewIngestReject[] = [];
  let embedded = 0;
  let beforeId: string | undefined;
  let lastError: string | undefined;
  let stopped = false;
  for (;;) {
    if (pass.signal?.aborted) throw new Error('re-embedding aborted');
    if (await pass.shouldStop?.()) {
      stopped = true;
      break;
    }
    const rows = await repository.listStale(pass.target, pass.modelId, {
      ids: pass.ids,
      beforeId,
      limit: pass.batchSize,
    });
    if (rows.length === 0) break;
    beforeId = rows.at(-1)?.id ?? beforeId;
    const result = await embedChecked(pass.provider, pass.dimension, rows, await pass.textsOf(rows));
    for (const failure of result.failures) {
      lastError = failure.message;
      failures.push({
        source: pass.rejectSource,
        severity: 'rejected',
        itemKey: `${pass.target} ${failure.id}`,
        reason: 'embedding failed',
        detail: failure.message.slice(0, 1_000),
      });
    }
    if (result.vectors.length) {
      embedded += await repository.setVectors(pass.target, pass.modelId, result.vectors, {
        whileActive: pass.whileActive ?? false,
      });
    }
    await pass.onBatch?.(embedded);
  }
  if (failures.length) {
    await repositories.sourceStates.recordRejects(failures).catch(() => {});
    pass.logger?.warn({ target: pass.target, failed: failures.length, err: lastError }, 'embedding failures');
  }
  return { embedded, failed: failures.length, stopped, lastError };
}
