import type { EmbeddingProvider } from '@radar/ai';
import { documentEmbeddingText } from '@radar/ai';
import {
  type Database,
  type EmbeddableRow,
  EmbeddingRepository,
  type NewIngestReject,
  SourceStateRepository,
  VectorRepository,
} from '@radar/db';
import type { ContentEmbedJob } from '@radar/shared';
import type { Logger } from 'pino';
import { truncateText } from './text';

/**
 * Embeds newly stored papers and news items (queue `content-embed`) with the active embedding provider,
 * in batches. A batch the provider refuses is retried item by item, so one bad item (too long, odd
 * characters) never keeps the others from their vectors; its failure is recorded in
 * radar.ingest_rejects (source "content-embed"). Idempotent: rows that already have a vector of this
 * model are not selected again. Selection and writes are VectorRepository's, shared with the
 * re-embedding of everything after a model change (reembed.job.ts).
 *
 * A refit can activate a new model while this job runs (ingestion asks for one right after a run):
 * when the model it started with was the active one and no longer is, it stops, and writes only while
 * its model is active, so it never overwrites vectors the re-embedding already moved to the new model
 * (that re-embedding embeds the rest).
 */

export const EMBED_BATCH_SIZE = 32;
/** Characters of title + body sent to the provider (long abstracts are cut, not rejected). */
const MAX_EMBEDDING_TEXT = 8_000;
const REJECT_SOURCE = 'content-embed';

export interface EmbedContentResult {
  outcome: 'success' | 'skipped';
  reason?: string;
  embedded: number;
  failed: number;
}

function isUsableVector(vector: unknown, dimension: number): vector is number[] {
  return Array.isArray(vector) && vector.length === dimension && vector.every((value) => Number.isFinite(value));
}

export async function embedContent(
  db: Database,
  embedder: EmbeddingProvider | undefined,
  request: ContentEmbedJob,
  options: { batchSize?: number; logger?: Logger | undefined } = {},
): Promise<EmbedContentResult> {
  if (!embedder) return { outcome: 'skipped', reason: 'no embedding provider configured', embedded: 0, failed: 0 };
  const models = new EmbeddingRepository(db);
  const model = await models.registerModel(embedder.model);
  const startedActive = (await models.getActiveModel())?.id === model.id;
  const superseded = async () => startedActive && (await models.getActiveModel())?.id !== model.id;
  // The same queries that keep every vector on the active model (reembed), restricted to the new ids.
  const vectors = new VectorRepository(db);
  const failures: NewIngestReject[] = [];
  let embedded = 0;
  let beforeId: string | undefined;
  let lastError: Error | undefined;

  const embedOne = async (rows: EmbeddableRow[]): Promise<{ id: string; vector: number[] }[]> => {
    const texts = rows.map((row) => truncateText(documentEmbeddingText(row.title, row.body), MAX_EMBEDDING_TEXT));
    const vectors = await embedder.embed(texts);
    if (vectors.length !== rows.length) {
      throw new Error(`the provider returned ${vectors.length} vectors for ${rows.length} texts`);
    }
    return rows.map((row, index) => {
      const vector = vectors[index];
      if (!isUsableVector(vector, model.dimension)) {
        throw new Error(`vector for ${request.target} ${row.id} is not ${model.dimension} finite numbers`);
      }
      return { id: row.id, vector };
    });
  };

  let stopped = false;
  for (;;) {
    if (await superseded()) {
      stopped = true;
      break;
    }
    const rows = await vectors.listStale(request.target, model.id, {
      ids: request.ids?.map(String),
      beforeId,
      limit: options.batchSize ?? EMBED_BATCH_SIZE,
    });
    if (rows.length === 0) break;
    beforeId = rows.at(-1)?.id ?? beforeId;
    let results: { id: string; vector: number[] }[] = [];
    try {
      results = await embedOne(rows);
    } catch (batchError) {
      lastError = batchError as Error;
      if (rows.length === 1) {
        failures.push({
          source: REJECT_SOURCE,
          severity: 'rejected',
          itemKey: `${request.target} ${rows[0]?.id}`,
          reason: 'embedding failed',
          detail: lastError.message.slice(0, 1_000),
        });
      } else {
        for (const row of rows) {
          try {
            results.push(...(await embedOne([row])));
          } catch (itemError) {
            lastError = itemError as Error;
            failures.push({
              source: REJECT_SOURCE,
              severity: 'rejected',
              itemKey: `${request.target} ${row.id}`,
              reason: 'embedding failed',
              detail: lastError.message.slice(0, 1_000),
            });
          }
        }
      }
    }
    if (results.length) {
      embedded += await vectors.setVectors(request.target, model.id, results, { whileActive: startedActive });
    }
  }

  if (failures.length) {
    await new SourceStateRepository(db).recordRejects(failures).catch(() => {});
    options.logger?.warn(
      { target: request.target, failed: failures.length, err: lastError?.message },
      'embedding failures',
    );
  }
  // Nothing at all worked: the provider is down, not the items. Let the job retry later.
  if (embedded === 0 && failures.length > 0) {
    throw new Error(`embedding failed for all ${failures.length} items: ${lastError?.message ?? 'unknown error'}`);
  }
  if (stopped) {
    options.logger?.info({ target: request.target, embedded }, 'active embedding model changed; left to re-embedding');
    return {
      outcome: 'skipped',
      reason: 'the active embedding model changed; the re-embedding job embeds the rest',
      embedded,
      failed: failures.length,
    };
  }
  return { outcome: 'success', embedded, failed: failures.length };
}
