import type { EmbeddingModels, ReembedProgress } from '@radar/ai';
import type { UserRepository } from '@radar/db';
import type { EmbeddingsJob } from '@radar/shared';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { defineJob } from '../job-definition';
import type { JobQueue } from '../queue-connection';

/** Runs `maintain` at most once at a time per queue backend (BullMQ deduplication id). */
const MAINTAIN_EMBEDDINGS_DEDUP_ID = 'maintain-embeddings';

/** Refits one maintain job makes at most, when the corpus keeps growing while it runs. */
const MAX_REFITS_PER_JOB = 3;

/**
 * Queues a `maintain` job on the `embeddings` queue. Deduplicated: while one is waiting or running,
 * another request adds nothing (that job refits when due and re-embeds everything stale anyway).
 */
export async function requestEmbeddingsMaintenance(queue: JobQueue<'embeddings'>): Promise<void> {
  await queue.add('maintain-embeddings', { task: 'maintain' }, { deduplication: { id: MAINTAIN_EMBEDDINGS_DEDUP_ID } });
}

/**
 * After an ingestion run stored content: when a fit of the built-in model is due (none yet, or the
 * corpus grew by the refit rule), queue the maintain job now rather than leave the corpus on the
 * previous model until the hourly one. Returns the decision, for the caller's summary.
 */
export async function requestRefitIfDue(
  embeddings: EmbeddingModels,
  queue: JobQueue<'embeddings'>,
): Promise<{ due: boolean; reason: string }> {
  const { due, reason } = await embeddings.refitDue();
  if (due) await requestEmbeddingsMaintenance(queue);
  return { due, reason };
}

/**
 * Keeps stored vectors on the active model (queue `embeddings`). Idempotent: re-embedding only
 * touches rows whose vector is missing or from another model, batch by batch, so a retried or
 * interrupted job continues where the last one stopped and never duplicates anything.
 */
function createEmbeddingsProcessor(deps: {
  users: UserRepository;
  embeddings: EmbeddingModels;
  logger?: Logger | undefined;
}) {
  const { users } = deps;
  return async (job: Job<EmbeddingsJob>) => {
    const payload = job.data;
    switch (payload.task) {
      case 'maintain': {
        const { switched } = await deps.embeddings.syncWithConfig();
        let refit = await deps.embeddings.refitIfDue({ force: payload.forceRefit ?? false });
        let refits = refit.refitted ? 1 : 0;
        const embedded = { users: 0, papers: 0, news: 0 };
        const failed = { users: 0, papers: 0, news: 0 };
        for (;;) {
          // Users first: after a refit every profile gets a vector of the new model before the papers.
          const pass = await deps.embeddings.reembedStale({
            onProgress: async (progress: ReembedProgress) => {
              await job.updateProgress({ ...progress });
            },
          });
          for (const target of ['users', 'papers', 'news'] as const) {
            embedded[target] += pass.embedded[target];
            failed[target] += pass.failed[target];
          }
          const count = pass.embedded.users + pass.embedded.papers + pass.embedded.news;
          if (count > 0)
            deps.logger?.info(
              { model: pass.model.name, version: pass.model.version, embedded: pass.embedded },
              're-embedded vectors',
            );
          // Content stored while this job ran (its own request to refit was deduplicated into this job).
          if (refits >= MAX_REFITS_PER_JOB) break;
          const again = await deps.embeddings.refitIfDue();
          if (!again.refitted) break;
          refit = again;
          refits++;
        }
        // The readers' other interests follow their profiles onto the active model.
        const interests = await deps.embeddings.reembedInterests();
        if (interests.embedded + interests.failed > 0) deps.logger?.info({ interests }, 're-embedded interests');
        return {
          outcome: 'success',
          switched,
          refitted: refits > 0,
          refits,
          refit: refit.reason,
          embedded,
          failed,
          interests,
        };
      }
      case 'embed-profile': {
        const user = await users.findById(payload.userId);
        if (!user) return { outcome: 'skipped', reason: 'user not found' };
        const { hasVector } = await deps.embeddings.embedProfile(user);
        return { outcome: 'success', hasVector };
      }
    }
  };
}

export const embeddingsJob = defineJob({
  queue: 'embeddings',
  processor: ({ repositories, ai, logger }) =>
    createEmbeddingsProcessor({ users: repositories.users, embeddings: ai.embeddings, logger }),
  // A model refit is CPU-heavy and exclusive: never two side by side in one worker.
  concurrency: 1,
  // Hourly: refit the built-in model when the corpus grew, re-embed stale vectors.
  schedules: [{ id: 'maintain-embeddings', pattern: '41 * * * *', data: { task: 'maintain' } }],
  // Also once at start, so a changed EMBEDDING_MODEL takes effect now rather than at the next hour.
  atStart: ({ queue }) => requestEmbeddingsMaintenance(queue('embeddings')),
});
