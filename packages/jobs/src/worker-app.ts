import {
  ArticleRepository,
  AsyncTaskRepository,
  AuthRecordRepository,
  createIngestRepositories,
  type DatabaseHandle,
  DeliveryRepository,
  FollowedAuthorRepository,
  type IngestRepositories,
  KeywordRepository,
  LearningRepository,
  NewsSearchRepository,
  OwnWorkRepository,
  PaperRepository,
  RecommendationDiagnosticsRepository,
  RecommendationRepository,
  SessionRepository,
  StoredSecrets,
  UserRepository,
} from '@radar/db';
import {
  contentAiProvidersFrom,
  defaultIngestSettings,
  type EnqueueJob,
  type IngestSettings,
  readerQueriesOff,
} from '@radar/ingest';
import type { QueueJobCounts } from '@radar/metrics';
import { ContentSources, createRecommendationPipelines } from '@radar/recommend';
import { QUEUE_NAMES, type QueueName } from '@radar/shared';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type {
  AnyJobDefinition,
  JobContext,
  JobDefinition,
  Producers,
  WorkerAppOptions,
  WorkerRepositories,
} from './job-definition';
import { JOBS } from './job-list';
import { requestProfileRelearn } from './jobs/profile-learning.job';
import {
  type AppQueue,
  type AppWorker,
  createQueue,
  createWorker,
  type JobQueue,
  type QueueConnection,
} from './queue-connection';
import { readSourceFlow } from './source-flow';
import { logSourcesSync, syncActiveSources } from './source-schedules';

export interface WorkerApp {
  workers: AppWorker<unknown>[];
  /**
   * Stops taking jobs, waits for those in flight to finish, and closes the connections. Once `stopWaiting`
   * aborts it waits no longer: a job still running keeps its lock until the process ends, then the next
   * worker's stalled-job check returns it to the queue and it runs again (the processors are idempotent).
   */
  close(stopWaiting?: AbortSignal): Promise<void>;
}

/** The repositories the processors use, built once here (this module is the worker's composition root). */
function createWorkerRepositories(db: DatabaseHandle['db'], serverSecret: string | undefined): WorkerRepositories {
  // Ingestion's (@radar/ingest takes its repositories from here); its stateless source states and
  // vectors serve the other processors too.
  const ingest = createIngestRepositories(db);
  return {
    ingest,
    authRecords: new AuthRecordRepository(db),
    users: new UserRepository(db),
    tasks: new AsyncTaskRepository(db),
    sessions: new SessionRepository(db),
    learning: new LearningRepository(db),
    ownWorks: new OwnWorkRepository(db),
    sourceStates: ingest.sourceStates,
    vectors: ingest.vectors,
    keywords: new KeywordRepository(db),
    followedAuthors: new FollowedAuthorRepository(db),
    deliveries: new DeliveryRepository(db, serverSecret ? new StoredSecrets(serverSecret) : undefined),
    articles: new ArticleRepository(db),
  };
}

/** A queue of any of the app's names, for what every queue has (counts, schedulers, close). */
type AnyJobQueue = AppQueue<unknown>;

/** JOBS by queue; throws when a queue has no job or two (a processor missing would leave its jobs waiting). */
function jobsByQueue(): Map<QueueName, AnyJobDefinition> {
  const byQueue = new Map<QueueName, AnyJobDefinition>();
  for (const job of JOBS) {
    if (byQueue.has(job.queue)) throw new Error(`two jobs for queue ${job.queue}`);
    byQueue.set(job.queue, job);
  }
  const missing = Object.values(QUEUE_NAMES).filter((name) => !byQueue.has(name));
  if (missing.length) throw new Error(`no processor for queue(s): ${missing.join(', ')}`);
  return byQueue;
}

export async function startWorkerApp(options: WorkerAppOptions): Promise<WorkerApp> {
  const { connection, logger } = options;
  const jobs = jobsByQueue();
  const queueNames = [...jobs.keys()];

  const ingest = options.ingest ?? defaultIngestSettings();
  const content = options.content ?? contentAiProvidersFrom(options.ai);
  const repositories = createWorkerRepositories(options.database.db, options.serverSecret);
  // Producers the processors use to hand work on (ingest -> content-embed, paper-summary).
  const producers = new Map<QueueName, AnyJobQueue>();
  const producer: Producers = <N extends QueueName>(name: N) => {
    let queue = producers.get(name);
    if (!queue) {
      queue = createQueue(connection, name) as unknown as AnyJobQueue;
      producers.set(name, queue);
    }
    return queue as unknown as JobQueue<N>;
  };
  const enqueue: EnqueueJob = (queue, name, data) => producer(queue).add(name, data);
  const { db } = options.database;
  const pipelines = createRecommendationPipelines({
    embeddings: options.ai.embeddings,
    recommendations: new RecommendationRepository(db),
    papers: new PaperRepository(db),
    news: new NewsSearchRepository(db),
    diagnostics: new RecommendationDiagnosticsRepository(db),
    contentSources: new ContentSources({
      settings: ingest,
      readerFields: repositories.ingest.readerFields,
      states: repositories.sourceStates,
    }),
    profile: {
      embeddings: options.ai.embeddings,
      users: repositories.users,
      error: (problem) => new Error(`no profile vector of the active model (${problem})`),
    },
    requestRelearn: async (userId) => {
      await requestProfileRelearn(producer(QUEUE_NAMES.profileLearning), userId).catch((error: Error) =>
        logger.error({ userId, err: error.message }, 'could not queue the learned profile'),
      );
    },
    logger,
  });
  const context: JobContext = { ...options, ingest, content, enqueue, queue: producer, repositories, pipelines };
  let isClosed = false;
  // Before the workers start taking jobs, so every scrape from then on has the gauges. A scrape after
  // close must not open queue connections again.
  if (options.metrics) {
    options.metrics.reportQueueJobs(async () => (isClosed ? {} : countQueueJobs(queueNames.map(producer))), logger);
    options.metrics.reportEmbeddingBacklog(() => repositories.vectors.countEmbeddingBacklog(), logger);
    options.metrics.reportSourceFlow(
      async () => (isClosed ? [] : readSourceFlow(repositories.sourceStates, producer(QUEUE_NAMES.ingest))),
      logger,
    );
  }
  const lock = options.lockDurationMs
    ? { lockDuration: options.lockDurationMs, stalledInterval: options.lockDurationMs }
    : {};
  const workers = [...jobs.values()].map((job) => {
    const name = job.queue;
    const worker = startJobWorker(connection, job, context, {
      concurrency: Math.min(options.concurrency, job.concurrency ?? options.concurrency),
      ...lock,
    });
    worker.on('failed', (failed, error) => {
      logger[job.failureLogLevel ?? 'warn'](
        { queue: name, jobId: failed?.id, attempt: failed?.attemptsMade, err: error.message },
        'job failed',
      );
      options.metrics?.observeJob(name, 'failed', failed && runSeconds(failed));
    });
    if (options.metrics) {
      const { metrics } = options;
      worker.on('completed', (completed) => metrics.observeJob(name, 'completed', runSeconds(completed)));
    }
    worker.on('error', (error) => logger.error({ queue: name, err: error.message }, 'worker error'));
    return worker;
  });

  if (options.recurringJobs !== false) {
    for (const job of jobs.values()) {
      for (const schedule of job.schedules ?? []) {
        await producer(job.queue).upsertJobScheduler(
          schedule.id,
          { pattern: schedule.pattern },
          { name: schedule.id, data: schedule.data },
        );
      }
    }
    for (const job of jobs.values()) await job.atStart?.(context);
  }

  await syncSources(producer(QUEUE_NAMES.ingest), repositories.ingest, ingest, logger);
  const readerQueriesOffBecause = readerQueriesOff(ingest);
  if (readerQueriesOffBecause) logger.info(`per-reader OpenAlex queries off: ${readerQueriesOffBecause}`);

  logger.info({ backend: connection.backend, queues: queueNames, concurrency: options.concurrency }, 'worker started');
  return {
    workers,
    async close(stopWaiting) {
      isClosed = true;
      const closing = Promise.all(workers.map((worker) => worker.close()));
      if (await settlesBefore(closing, stopWaiting)) await closing;
      else logger.warn('no longer waiting for jobs in flight: they go back to the queue when their locks lapse');
      await Promise.all([...producers.values()].map((queue) => queue.close()));
    },
  };
}

/** One queue's worker, its processor built from the job's definition. */
function startJobWorker<N extends QueueName>(
  connection: QueueConnection,
  job: JobDefinition<N>,
  context: JobContext,
  options: { concurrency: number; lockDuration?: number; stalledInterval?: number },
): AppWorker<unknown> {
  return createWorker(connection, job.queue, job.processor(context), options) as unknown as AppWorker<unknown>;
}

/** Whether `work` settles (either way) before `signal` aborts; the work goes on regardless. */
async function settlesBefore(work: Promise<unknown>, signal: AbortSignal | undefined): Promise<boolean> {
  const settled = work.then(
    () => true,
    () => true,
  );
  if (!signal) return settled;
  let onAbort = () => {};
  const aborted = new Promise<false>((resolve) => {
    onAbort = () => resolve(false);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([settled, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** How long an attempt ran, from BullMQ's timestamps; undefined when it never started (a stalled job's end). */
function runSeconds(job: Pick<Job, 'processedOn' | 'finishedOn'>): number | undefined {
  return job.processedOn && job.finishedOn ? Math.max(0, job.finishedOn - job.processedOn) / 1000 : undefined;
}

/** Jobs per state of each queue, for `radar_queue_jobs`; prioritized jobs are waiting too. */
async function countQueueJobs(queues: Pick<AnyJobQueue, 'name' | 'getJobCounts'>[]): Promise<QueueJobCounts> {
  const entries = await Promise.all(
    queues.map(async (queue) => {
      const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
      const count = (state: string) => counts[state] ?? 0;
      const states = {
        waiting: count('waiting') + count('prioritized'),
        active: count('active'),
        delayed: count('delayed'),
        failed: count('failed'),
      };
      return [queue.name, states] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/**
 * The content sources' schedules at start (syncActiveSources). A broken sources file (or a failure to
 * reach the queue) is logged and leaves the existing schedulers as they were: the server still starts.
 */
async function syncSources(
  queue: JobQueue<'ingest'>,
  repositories: Pick<IngestRepositories, 'readerFields' | 'sourceStates'>,
  settings: IngestSettings,
  logger: Logger,
): Promise<void> {
  try {
    const states = repositories.sourceStates;
    logSourcesSync(logger, await syncActiveSources({ repositories, states, settings, queue, logger }), true);
  } catch (error) {
    logger.error({ err: (error as Error).message }, 'content sources not scheduled');
  }
}
