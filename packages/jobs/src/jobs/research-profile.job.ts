import { type ResearchProfileExtractor, ResearchTaskFailedError, runResearchTask } from '@radar/ai';
import type { AsyncTaskRepository } from '@radar/db';
import type { ResearchProfileJob } from '@radar/shared';
import { type Job, UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { defineJob } from '../job-definition';

/** Queue `research-profile`: one attempt at a research-direction task (the rules are in @radar/ai's research-task). */
function createResearchProfileProcessor(deps: {
  tasks: AsyncTaskRepository;
  extractor: ResearchProfileExtractor;
  logger?: Logger | undefined;
}) {
  const { tasks } = deps;
  return async (job: Job<ResearchProfileJob>, _token?: string, signal?: AbortSignal) => {
    const payload = job.data;
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

export const researchProfileJob = defineJob({
  queue: 'research-profile',
  processor: ({ repositories, ai, logger }) =>
    createResearchProfileProcessor({ tasks: repositories.tasks, extractor: ai.researchExtractor, logger }),
});
