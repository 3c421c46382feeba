import { type ResearchProfileExtractor, ResearchTaskFailedError, runResearchTask } from '@radar/ai';
import { AsyncTaskRepository, type DatabaseHandle } from '@radar/db';
import { type ResearchProfileJob, researchProfileJobSchema } from '@radar/shared';
import { type Job, UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';

/** Queue `research-profile`: one attempt at a research-direction task (the rules are in @radar/ai's research-task). */
export function createResearchProfileProcessor(deps: {
  database: DatabaseHandle;
  extractor: ResearchProfileExtractor;
  logger?: Logger | undefined;
}) {
  const tasks = new AsyncTaskRepository(deps.database.db);
  return async (job: Job, _token?: string, signal?: AbortSignal) => {
    const parsed = researchProfileJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid research-profile payload: ${parsed.error.message}`);
    const payload: ResearchProfileJob = parsed.data;
    try {
      const outcome = await runResearchTask({ tasks, extractor: deps.extractor, logger: deps.logger }, payload.taskId, {
        isFinalAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
        ...(signal ? { signal } : {}),
        onProgress: async (progress) => {
          await job.updateProgress(progress);
        },
      });
      return outcome.outcome === 'completed'
        ? { outcome: 'completed', source: outcome.result.source, model: outcome.result.model }
        : outcome;
    } catch (error) {
      if (error instanceof ResearchTaskFailedError) throw new UnrecoverableError(error.message);
      throw error;
    }
  };
}
