import type { ResearchProfileExtractor } from '@radar/ai';
import type { AsyncTaskRepository, IngestRepositories, OwnWorkRepository } from '@radar/db';
import { type EnqueueJob, type IngestSettings, OwnWorksTaskFailedError, runOwnWorksTask } from '@radar/ingest';
import type { OwnWorksJob } from '@radar/shared';
import { type Job, UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { defineJob } from '../job-definition';
import { requestProfileRelearn } from './profile-learning.job';

/** Queue `own-works`: one attempt at seeding a reader's profile from their works (rules in @radar/ingest's own-works). */
function createOwnWorksProcessor(deps: {
  /** Where the works are stored as papers. */
  repositories: Pick<IngestRepositories, 'ingestPapers' | 'news' | 'journals'>;
  tasks: AsyncTaskRepository;
  ownWorks: OwnWorkRepository;
  extractor: ResearchProfileExtractor;
  settings: IngestSettings;
  enqueue: EnqueueJob;
  afterMarked: (userId: string) => Promise<void>;
  logger?: Logger | undefined;
}) {
  return async (job: Job<OwnWorksJob>, _token?: string, signal?: AbortSignal) => {
    try {
      return await runOwnWorksTask(deps, job.data.taskId, {
        isFinalAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (error instanceof OwnWorksTaskFailedError) throw new UnrecoverableError(error.message);
      throw error;
    }
  };
}

export const ownWorksJob = defineJob({
  queue: 'own-works',
  processor: ({ repositories, ingest, enqueue, ai, queue, logger }) =>
    createOwnWorksProcessor({
      repositories: repositories.ingest,
      tasks: repositories.tasks,
      ownWorks: repositories.ownWorks,
      extractor: ai.researchExtractor,
      settings: ingest,
      enqueue,
      afterMarked: async (userId) => {
        await requestProfileRelearn(queue('profile-learning'), userId);
      },
      logger,
    }),
});
