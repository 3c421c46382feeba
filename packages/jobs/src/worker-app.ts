import type { AiServices } from '@radar/ai';
import { type DatabaseHandle, VectorRepository } from '@radar/db';
import type { EnqueueJob } from '@radar/ingest';
import {
  type ContentAiProviders,
  contentAiProvidersFrom,
  defaultIngestSettings,
  type IngestSettings,
  loadSources,
} from '@radar/ingest';
import type { AppMetrics, QueueJobCounts } from '@radar/metrics';
import { type IngestJob, QUEUE_NAMES, type QueueName } from '@radar/shared';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { createContentEmbedProcessor } from './jobs/embed-content.job';
import { createIngestProcessor } from './jobs/ingest.job';
import { createKeywordAlertsProcessor, type KeywordAlertMailSettings } from './jobs/keyword-alerts.job';
import { createMaintenanceProcessor } from './jobs/maintenance.job';
import { createProfileLearningProcessor } from './jobs/profile-learning.job';
import { createEmbeddingsProcessor, requestEmbeddingsMaintenance, requestRefitIfDue } from './jobs/reembed.job';
import { createResearchProfileProcessor } from './jobs/research-profile.job';
import { createPaperSummaryProcessor } from './jobs/summarize-papers.job';
import { type AppQueue, type AppWorker, createQueue, createWorker, type QueueConnection } from './queue-connection';
import { syncSourceSchedulers } from './source-schedules';

export interface WorkerAppOptions {
  connection: QueueConnection;
  database: DatabaseHandle;
  concurrency: number;
  logger: Logger;
  /** LLM and embedding providers (createAiServices), built by the process's composition root. */
  ai: AiServices;
  /** BullMQ lockDuration and stalledInterval (JOB_LOCK_MS); BullMQ's 30 s when left out. */
  lockDurationMs?: number;
  /** Content sources and ingestion limits (ingestSettingsFromConfig); nothing scheduled when left out. */
  ingest?: IngestSettings;
  /** Providers of the content-embed and paper-summary jobs; taken from `ai` when left out. */
  content?: ContentAiProviders;
  /** Mailer, web address and link secret of the keyword-alert mails; without them that job sends nothing. */
  mail?: KeywordAlertMailSettings;
  /**
   * The process's metrics: job durations and failures, items ingested, and, read when scraped, the
   * queues' job counts and the embedding backlog. Nothing is recorded when left out.
   */
  metrics?: AppMetrics;
  /**
   * Whether to register the recurring jobs (maintenance, the embedding model's hourly refit, alerts) and
   * ask for the embedding maintenance once at start. True unless left false by tests whose results must
   * not change at a minute of the clock (a refit replaces every vector and similarity).
   */
  recurringJobs?: boolean;
}

export interface WorkerApp {
  workers: AppWorker<unknown>[];
  /**
   * Stops taking jobs, waits for those in flight to finish, and closes the connections. Once `stopWaiting`
   * aborts it waits no longer: a job still running keeps its lock until the process ends, then the next
   * worker's stalled-job check returns it to the queue and it runs again (the processors are idempotent).
   */
  close(stopWaiting?: AbortSignal): Promise<void>;
}

type ProcessorFactory = (
  options: WorkerAppOptions & {
    ingest: IngestSettings;
    content: ContentAiProviders;
    enqueue: EnqueueJob;
    /** A producer for another queue (closed with the app). */
    queue: (name: QueueName) => AppQueue<unknown>;
  },
) => (job: Job, token?: string, signal?: AbortSignal) => Promise<unknown>;

/** One processor per queue; start-up refuses a queue without one. */
const PROCESSORS: Record<QueueName, ProcessorFactory> = {
  [QUEUE_NAMES.maintenance]: ({ database, queue, logger }) =>
    createMaintenanceProcessor(database, { researchJobs: queue(QUEUE_NAMES.researchProfile), logger }),
  [QUEUE_NAMES.researchProfile]: ({ database, ai, logger }) =>
    createResearchProfileProcessor({ database, extractor: ai.researchExtractor, logger }),
  [QUEUE_NAMES.embeddings]: ({ database, ai, logger }) =>
    createEmbeddingsProcessor({ database, embeddings: ai.embeddings, logger }),
  [QUEUE_NAMES.ingest]: ({ database, ingest, enqueue, ai, queue, logger, metrics }) =>
    createIngestProcessor({
      db: database.db,
      settings: ingest,
      enqueue,
      metrics,
      // A run that stored content refits the built-in model right away when due (not at the next hour).
      requestRefit: () => requestRefitIfDue(ai.embeddings, queue(QUEUE_NAMES.embeddings)),
      logger,
    }),
  [QUEUE_NAMES.contentEmbed]: ({ database, content, logger }) =>
    createContentEmbedProcessor({ db: database.db, embedder: content.embedder, logger }),
  [QUEUE_NAMES.paperSummary]: ({ database, content, ingest, logger }) =>
    createPaperSummaryProcessor({ db: database.db, llm: content.llm, language: ingest.summaryLanguage, logger }),
  [QUEUE_NAMES.keywordAlerts]: ({ database, mail, ai, logger }) =>
    createKeywordAlertsProcessor({ database, mail, logger, embeddings: ai.embeddings }),
  [QUEUE_NAMES.profileLearning]: ({ database, ai, logger }) =>
    createProfileLearningProcessor({ database, embeddings: ai.embeddings, logger }),
};

/** Queues whose jobs must not run side by side in one worker (a model refit is CPU-heavy and exclusive). */
const CONCURRENCY_LIMITS: Partial<Record<QueueName, number>> = {
  [QUEUE_NAMES.embeddings]: 1,
  // One source at a time per process: politeness towards the hosts, and runs are I/O-bound anyway.
  [QUEUE_NAMES.ingest]: 1,
  // One run at a time per process; runs in other processes skip the users this one holds.
  [QUEUE_NAMES.keywordAlerts]: 1,
};

/** Recurring jobs, registered idempotently with BullMQ job schedulers (on either backend). */
const SCHEDULES = [
  {
    queue: QUEUE_NAMES.maintenance,
    id: 'purge-expired-auth-records',
    pattern: '17 3 * * *', // daily at 03:17
    data: { task: 'purge-expired-auth-records' },
  },
  {
    queue: QUEUE_NAMES.maintenance,
    id: 'purge-stale-unverified-accounts',
    pattern: '47 * * * *', // hourly: registrations nobody verified within the pending window, placeholders
    data: { task: 'purge-stale-unverified-accounts' },
  },
  {
    queue: QUEUE_NAMES.maintenance,
    id: 'fail-interrupted-tasks',
    pattern: '*/5 * * * *', // research tasks a dead process left unfinished
    data: { task: 'fail-interrupted-tasks' },
  },
  {
    queue: QUEUE_NAMES.embeddings,
    id: 'maintain-embeddings',
    pattern: '41 * * * *', // hourly: refit the built-in model when the corpus grew, re-embed stale vectors
    data: { task: 'maintain' },
  },
  {
    queue: QUEUE_NAMES.paperSummary,
    id: 'summarize-recent-papers',
    pattern: '23 * * * *', // hourly: summaries of recent papers that still lack one (LLM added later, failures)
    data: {},
  },
  {
    queue: QUEUE_NAMES.keywordAlerts,
    id: 'send-keyword-alerts',
    pattern: '7 * * * *', // hourly: digests of users whose daily or weekly keyword alerts are due
    data: {},
  },
] as const;

export async function startWorkerApp(options: WorkerAppOptions): Promise<WorkerApp> {
  const { connection, logger } = options;
  const queueNames = Object.values(QUEUE_NAMES);
  const missing = queueNames.filter((name) => !PROCESSORS[name]);
  if (missing.length) throw new Error(`no processor for queue(s): ${missing.join(', ')}`);

  const ingest = options.ingest ?? defaultIngestSettings();
  const content = options.content ?? contentAiProvidersFrom(options.ai);
  // Producers the processors use to hand work on (ingest -> content-embed, paper-summary).
  const producers = new Map<string, AppQueue<unknown>>();
  const producer = (name: string) => {
    let queue = producers.get(name);
    if (!queue) {
      queue = createQueue<unknown>(connection, name);
      producers.set(name, queue);
    }
    return queue;
  };
  const enqueue: EnqueueJob = (queue, name, data) => producer(queue).add(name, data);
  let isClosed = false;
  // Before the workers start taking jobs, so every scrape from then on has the gauges. A scrape after
  // close must not open queue connections again.
  if (options.metrics) {
    options.metrics.reportQueueJobs(async () => (isClosed ? {} : countQueueJobs(queueNames.map(producer))), logger);
    const vectors = new VectorRepository(options.database.db);
    options.metrics.reportEmbeddingBacklog(() => vectors.countEmbeddingBacklog(), logger);
  }
  const lock = options.lockDurationMs
    ? { lockDuration: options.lockDurationMs, stalledInterval: options.lockDurationMs }
    : {};
  const workers = queueNames.map((name) => {
    const worker = createWorker<unknown>(
      connection,
      name,
      PROCESSORS[name]({ ...options, ingest, content, enqueue, queue: producer }),
      {
        concurrency: Math.min(options.concurrency, CONCURRENCY_LIMITS[name] ?? options.concurrency),
        ...lock,
      },
    );
    worker.on('failed', (job, error) => {
      logger.warn({ queue: name, jobId: job?.id, attempt: job?.attemptsMade, err: error.message }, 'job failed');
      options.metrics?.observeJob(name, 'failed', job && runSeconds(job));
    });
    if (options.metrics) {
      const { metrics } = options;
      worker.on('completed', (job) => metrics.observeJob(name, 'completed', runSeconds(job)));
    }
    worker.on('error', (error) => logger.error({ queue: name, err: error.message }, 'worker error'));
    return worker;
  });

  const schedulerQueues = new Map<string, AppQueue<unknown>>();
  if (options.recurringJobs !== false) {
    for (const schedule of SCHEDULES) {
      const queue = schedulerQueues.get(schedule.queue) ?? createQueue<unknown>(connection, schedule.queue);
      schedulerQueues.set(schedule.queue, queue);
      await queue.upsertJobScheduler(
        schedule.id,
        { pattern: schedule.pattern },
        { name: schedule.id, data: schedule.data },
      );
    }
    // Also once at start, so a changed EMBEDDING_MODEL takes effect now rather than at the next hour.
    await requestEmbeddingsMaintenance(producer(QUEUE_NAMES.embeddings));
  }

  await syncSources(producer(QUEUE_NAMES.ingest) as AppQueue<IngestJob>, options.database, ingest, logger);

  logger.info({ backend: connection.backend, queues: queueNames, concurrency: options.concurrency }, 'worker started');
  return {
    workers,
    async close(stopWaiting) {
      isClosed = true;
      const closing = Promise.all(workers.map((worker) => worker.close()));
      if (await settlesBefore(closing, stopWaiting)) await closing;
      else logger.warn('no longer waiting for jobs in flight: they go back to the queue when their locks lapse');
      await Promise.all([...schedulerQueues.values()].map((queue) => queue.close()));
      await Promise.all([...producers.values()].map((queue) => queue.close()));
    },
  };
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
async function countQueueJobs(queues: AppQueue<unknown>[]): Promise<QueueJobCounts> {
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
 * One job scheduler per enabled source of the sources file (cron from the file). A broken file (or a
 * failure to reach the queue) is logged and leaves the existing schedulers as they were: the server
 * still starts.
 */
async function syncSources(
  queue: AppQueue<IngestJob>,
  database: DatabaseHandle,
  settings: IngestSettings,
  logger: Logger,
): Promise<void> {
  try {
    const { sources, origin } = await loadSources(settings);
    const sync = await syncSourceSchedulers(queue, sources, { db: database.db, settings, logger });
    if (sync.scheduled.length || sync.removed.length) {
      logger.info({ sources: origin, scheduled: sync.scheduled, removed: sync.removed }, 'content sources scheduled');
    }
  } catch (error) {
    logger.error({ err: (error as Error).message }, 'content sources not scheduled');
  }
}
