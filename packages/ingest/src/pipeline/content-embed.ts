import { CrossLingualTexts, type EmbeddingProvider, embedStaleRows } from '@radar/ai';
import type { IngestRepositories } from '@radar/db';
import type { ContentEmbedJob } from '@radar/shared';
import type { Logger } from 'pino';

/**
 * Embeds newly stored papers and news items (queue `content-embed`) with the active embedding provider,
 * in batches, through embedStaleRows (@radar/ai), the loop the re-embedding after a model change uses
 * too: texts cut to one length, every vector checked, a failed batch retried item by item so one bad
 * item (too long, odd characters, a broken vector) never keeps the others from their vectors, and its
 * failure recorded in radar.ingest_rejects (source "content-embed"). Idempotent: rows that already have
 * a vector of this model are not selected again.
 *
 * A refit can activate a new model while this job runs (ingestion asks for one right after a run):
 * when the model it started with was the active one and no longer is, it stops, and writes only while
 * its model is active, so it never overwrites vectors the re-embedding already moved to the new model
 * (that re-embedding embeds the rest).
 *
 * The text of each item is CrossLingualTexts' (an English gist or the glosses of a Chinese item, with
 * the gist asked of the LLM here, once per item), the same as the re-embedding uses.
 */

const EMBED_BATCH_SIZE = 32;
const REJECT_SOURCE = 'content-embed';

export interface EmbedContentResult {
  outcome: 'success' | 'skipped';
  reason?: string;
  embedded: number;
  failed: number;
}

export async function embedContent(
  repositories: Pick<IngestRepositories, 'embeddingModels' | 'vectors' | 'sourceStates' | 'gists'>,
  embedder: EmbeddingProvider | undefined,
  request: ContentEmbedJob,
  options: { batchSize?: number; logger?: Logger | undefined; texts?: CrossLingualTexts | undefined } = {},
): Promise<EmbedContentResult> {
  if (!embedder) return { outcome: 'skipped', reason: 'no embedding provider configured', embedded: 0, failed: 0 };
  // Without the process's (tests): Chinese items are glossed offline, as with no LLM configured.
  const crossLingual = options.texts ?? new CrossLingualTexts({ multilingual: false, gists: repositories.gists });
  const models = repositories.embeddingModels;
  const model = await models.registerModel(embedder.model);
  const startedActive = (await models.getActiveModel())?.id === model.id;

  const pass = await embedStaleRows(repositories, {
    target: request.target,
    modelId: model.id,
    dimension: model.dimension,
    provider: embedder,
    textsOf: (rows) => crossLingual.documents(request.target, rows, { makeGists: true }),
    batchSize: options.batchSize ?? EMBED_BATCH_SIZE,
    ids: request.ids?.map(String),
    whileActive: startedActive,
    rejectSource: REJECT_SOURCE,
    shouldStop: async () => startedActive && (await models.getActiveModel())?.id !== model.id,
    logger: options.logger,
  });
  const { embedded, failed } = pass;

  // Nothing at all worked: the provider is down, not the items. Let the job retry later.
  if (embedded === 0 && failed > 0) {
    throw new Error(`embedding failed for all ${failed} items: ${pass.lastError ?? 'unknown error'}`);
  }
  if (pass.stopped) {
    options.logger?.info({ target: request.target, embedded }, 'active embedding model changed; left to re-embedding');
    return {
      outcome: 'skipped',
      reason: 'the active embedding model changed; the re-embedding job embeds the rest',
      embedded,
      failed,
    };
  }
  return { outcome: 'success', embedded, failed };
}
