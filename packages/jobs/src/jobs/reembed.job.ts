import type { EmbeddingModels, ReembedProgress } from '@radar/ai';
import { type DatabaseHandle, UserRepository } from '@radar/db';
import { type EmbeddingsJob, embeddingsJobSchema } from '@radar/shared';
import { type Job, UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';

/** Runs `maintain` at most once at a time per queue backend (BullMQ deduplication id). */
export const MAINTAIN_EMBEDDINGS_DEDUP_ID = 'maintain-embeddings';

/**
 * Keeps stored vectors on the active model (queue `embeddings`). Idempotent: re-embedding only
 * touches rows whose vector is missing or from another model, batch by batch, so a retried or
 * interrupted job continues where the last one stopped and never duplicates anything.
 */
export function createEmbeddingsProcessor(deps: {
  database: DatabaseHandle;
  embeddings: EmbeddingModels;
  logger?: Logger | undefined;
}) {
  const users = new UserRepository(deps.database.db);
  return async (job: Job) => {
    const parsed = embeddingsJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid embeddings payload: ${parsed.error.message}`);
    const payload: EmbeddingsJob = parsed.data;
    switch (payload.task) {
      case 'maintain': {
        const { switched } = await deps.embeddings.syncWithConfig();
        const refit = await deps.embeddings.refitIfDue({ force: payload.forceRefit ?? false });
        const { model, embedded } = await deps.embeddings.reembedStale({
          onProgress: async (progress: ReembedProgress) => {
            await job.updateProgress({ ...progress });
          },
        });
        const count = embedded.users + embedded.papers + embedded.news;
        if (count > 0)
          deps.logger?.info({ model: model.name, version: model.version, embedded }, 're-embedded vectors');
        return { outcome: 'success', switched, refitted: refit.refitted, refit: refit.reason, embedded };
      }
      case 'embed-profile': {
        const user = await users.findById(payload.userId);
        if (!user) return { outcome: 'skipped', reason: 'user not found' };
        const { hasVector } = await deps.embeddings.embedProfile(user.id, user.researchSummaryEn);
        return { outcome: 'success', hasVector };
      }
    }
  };
}
