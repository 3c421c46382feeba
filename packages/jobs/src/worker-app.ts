import type { AiServices } from '@radar/ai';
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
import type { EnqueueJob } from '@radar/ingest';
import {
  type ContentAiProviders,
  contentAiProvidersFrom,
  defaultIngestSettings,
  type IngestSettings,
  readerQueriesOff,
  summarizePapers,
} from '@radar/ingest';
import type { AppMetrics, QueueJobCounts } from '@radar/metrics';
import {
  ContentSources,
  createRecommendationPipelines,
  type PublishedPreprintsProvider,
  type RecommendationPipeline,
} from '@radar/recommend';
import { type JobPayload, QUEUE_NAMES, type QueueName } from '@radar/shared';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { createContentEmbedProcessor } from './jobs/content-embed.job';
import { createDeliveryProcessor, publishedPreprintsOf } from './jobs/delivery.job';
import { createEmbeddingsProcessor, requestEmbeddingsMaintenance, requestRefitIfDue } from './jobs/embeddings.job';
import { createIngestProcessor } from './jobs/ingest.job';
import { createJournalTiersProcessor } from './jobs/journal-tiers.job';
import { createKeywordAlertsProcessor, type KeywordAlertMailSettings } from './jobs/keyword-alerts.job';
import { createMaintenanceProcessor } from './jobs/maintenance.job';
import { createOwnWorksProcessor } from './jobs/own-works.job';
import { createPaperSummaryProcessor } from './jobs/paper-summary.job';
import { createProfileLearningProcessor, requestProfileRelearn } from './jobs/profile-learning.job';
import { createReaderQueriesProcessor } from './jobs/reader-queries.job';
import { createResearchProfileProcessor } from './jobs/research-profile.job';
import {
  type AppQueue,
  type AppWorker,
  createQueue,
  createWorker,
  type JobProcessor,
  type JobQueue,
  type QueueConnection,
} from './queue-connection';
import { readSourceFlow } from './source-flow';
import { type ActiveSourcesSync, syncActiveSources } from './source-schedules';

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
  /**
   * Mailer, web address and link secret of the keyword-alert and digest mails; without them neither is
   * mailed (robot webhook pushes still go out).
   */
  mail?: KeywordAlertMailSettings;
  /**
   * The server's secret (JWT_SECRET; generated into DATA_DIR in embedded mode), from which the key of
   * the stored robot webhooks is derived (StoredSecrets). Without it webhooks saved by the server cannot
   * be read, and the digest goes out by mail only (logged per reader).
   */
  serverSecret?: string | undefined;
  /**
   * The reader's favourited or saved preprints whose journal version arrived since a time, for the
   * digest's "已正式发表" notices; none when left out.
   */
  publishedPreprints?: PublishedPreprintsProvider;
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

type ProcessorFactory<N extends QueueName> = (
  options: WorkerAppOptions & {
    ingest: IngestSettings;
    content: ContentAiProviders;
    enqueue: EnqueueJob;
    /** A producer for another queue (closed with the app). */
    queue: Producers;
    repositories: WorkerRepositories;
    /** The ranking pipeline per readers' time zone, built as the server builds it (createRecommendationPipelines). */
    pipelines: (timeZone: string) => RecommendationPipeline;
  },
) => JobProcessor<N>;

/** The repositories the processors use, built once here (this module is the worker's composition root). */
type WorkerRepositories = ReturnType<typeof createWorkerRepositories>;

function createWorkerRepositories(db: DatabaseHandle['db'], serverSecret: string | undefined) {
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
    recommendations: new RecommendationRepository(db),
    papers: new PaperRepository(db),
    news: new NewsSearchRepository(db),
    diagnostics: new RecommendationDiagnosticsRepository(db),
  };
}

type Producers = <N extends QueueName>(name: N) => JobQueue<N>;
/** A queue of any of the app's names, for what every queue has (counts, schedulers, close). */
type AnyJobQueue = AppQueue<unknown>;

/**
 * One processor per queue, each typed by its queue's parsed payload; start-up refuses a queue without
 * one. createWorker parses every job's data before its processor runs.
 */
const PROCESSORS: { [N in QueueName]: ProcessorFactory<N> } = {
  [QUEUE_NAMES.maintenance]: ({ repositories, queue, ingest, logger }) =>
    createMaintenanceProcessor(repositories, {
      taskJobs: { research: queue(QUEUE_NAMES.researchProfile), ownWorks: queue(QUEUE_NAMES.ownWorks) },
      syncSources: async () => {
        const sync = await syncActiveSources({
          repositories: repositories.ingest,
          states: repositories.sourceStates,
          settings: ingest,
          queue: queue(QUEUE_NAMES.ingest),
          logger,
        });
        logSync(logger, sync);
        return sync;
      },
      logger,
    }),
  [QUEUE_NAMES.researchProfile]: ({ repositories, ai, logger }) =>
    createResearchProfileProcessor({ tasks: repositories.tasks, extractor: ai.researchExtractor, logger }),
  [QUEUE_NAMES.embeddings]: ({ repositories, ai, logger }) =>
    createEmbeddingsProcessor({ users: repositories.users, embeddings: ai.embeddings, logger }),
  [QUEUE_NAMES.ingest]: ({ repositories, ingest, enqueue, ai, queue, logger, metrics }) =>
    createIngestProcessor({
      repositories: repositories.ingest,
      states: repositories.sourceStates,
      settings: ingest,
      enqueue,
      metrics,
      // A run that stored content refits the built-in model right away when due (not at the next hour).
      requestRefit: () => requestRefitIfDue(ai.embeddings, queue(QUEUE_NAMES.embeddings)),
      logger,
    }),
  [QUEUE_NAMES.contentEmbed]: ({ repositories, content, logger }) =>
    createContentEmbedProcessor({
      repositories: repositories.ingest,
      embedder: content.embedder,
      texts: content.texts,
      logger,
    }),
  [QUEUE_NAMES.paperSummary]: ({ repositories, content, ingest, logger }) =>
    createPaperSummaryProcessor({
      repositories: repositories.ingest,
      llm: content.llm,
      language: ingest.summaryLanguage,
      logger,
    }),
  [QUEUE_NAMES.keywordAlerts]: ({ repositories, mail, ai, pipelines, logger }) => {
    // The alert's order uses no publication window, so no zone matters.
    const pipeline = pipelines('UTC');
    return createKeywordAlertsProcessor({
      keywords: repositories.keywords,
      followedAuthors: repositories.followedAuthors,
      mail,
      logger,
      embeddings: ai.embeddings,
      users: repositories.users,
      ranking: (user) => pipeline.alertRanking(user),
    });
  },
  [QUEUE_NAMES.profileLearning]: ({ repositories, ai, logger }) =>
    createProfileLearningProcessor({
      learning: repositories.learning,
      users: repositories.users,
      embeddings: ai.embeddings,
      logger,
    }),
  [QUEUE_NAMES.delivery]: ({ repositories, content, ingest, mail, publishedPreprints, pipelines, logger }) => {
    const { llm } = content;
    return createDeliveryProcessor({
      deliveries: repositories.deliveries,
      users: repositories.users,
      pipelineFor: pipelines,
      mail,
      summarizePapers: llm
        ? async (ids) => {
            await summarizePapers(repositories.ingest, llm, { ids }, { language: ingest.summaryLanguage, logger });
          }
        : undefined,
      publishedPreprints: publishedPreprints ?? publishedPreprintsOf(repositories.articles),
      logger,
    });
  },
  [QUEUE_NAMES.journalTiers]: ({ repositories, ingest, logger }) =>
    createJournalTiersProcessor({ repositories: repositories.ingest, settings: ingest, logger }),
  [QUEUE_NAMES.readerQueries]: ({ repositories, ingest, enqueue, ai, metrics, logger }) =>
    createReaderQueriesProcessor({
      repositories: repositories.ingest,
      settings: ingest,
      enqueue,
      embeddings: ai.embeddings,
      metrics,
      logger,
    }),
  [QUEUE_NAMES.ownWorks]: ({ repositories, ingest, enqueue, ai, queue, logger }) =>
    createOwnWorksProcessor({
      repositories: repositories.ingest,
      tasks: repositories.tasks,
      ownWorks: repositories.ownWorks,
      extractor: ai.researchExtractor,
      settings: ingest,
      enqueue,
      afterMarked: async (userId) => {
        await requestProfileRelearn(queue(QUEUE_NAMES.profileLearning), userId);
      },
      logger,
    }),
};

/** Queues whose jobs must not run side by side in one worker (a model refit is CPU-heavy and exclusive). */
const CONCURRENCY_LIMITS: Partial<Record<QueueName, number>> = {
  [QUEUE_NAMES.embeddings]: 1,
  // One source at a time per process: politeness towards the hosts, and runs are I/O-bound anyway.
  [QUEUE_NAMES.ingest]: 1,
  // One run at a time per process; runs in other processes skip the users this one holds.
  [QUEUE_NAMES.keywordAlerts]: 1,
  // One tier refresh at a time: SCImago's import and the OpenAlex quartiles write the same journals.
  [QUEUE_NAMES.journalTiers]: 1,
  [QUEUE_NAMES.readerQueries]: 1,
  // One run at a time per process; runs in other processes skip the readers this one took.
  [QUEUE_NAMES.delivery]: 1,
};

/** A recurring job: its payload typed by its queue (and parsed again when the scheduler is upserted). */
type Schedule = { [N in QueueName]: { queue: N; id: string; pattern: string; data: JobPayload<N> } }[QueueName];

/**
 * The automatic journal tier sources (scheduled runs, so only with INGEST_ENABLED). Each run checks what is
 * stored and skips when nothing is due, so a weekly SCImago check fetches the export about once a year,
 * and the daily OpenAlex run looks up only journals new since the last one.
 */
const TIER_SCHEDULES = [
  {
    queue: QUEUE_NAMES.journalTiers,
    id: 'refresh-scimago-tiers',
    pattern: '13 4 * * 1', // Mondays at 04:13
    data: { system: 'scimago' },
  },
  {
    queue: QUEUE_NAMES.journalTiers,
    id: 'refresh-openalex-tiers',
    pattern: '43 4 * * *', // daily at 04:43, after the night's ingest runs
    data: { system: 'openalex' },
  },
] as const satisfies Schedule[];

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
    pattern: '*/5 * * * *', // research and own-works tasks a dead process left unfinished
    data: { task: 'fail-interrupted-tasks' },
  },
  {
    queue: QUEUE_NAMES.maintenance,
    id: 'sync-sources',
    // Content sources follow their readers: a field a profile no longer names (an account disabled or
    // deleted) switches its catalogue sources off here; saving a profile asks for this sync at once.
    pattern: '*/10 * * * *',
    data: { task: 'sync-sources' },
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
  {
    queue: QUEUE_NAMES.readerQueries,
    id: 'query-openalex-for-readers',
    pattern: '13 * * * *', // hourly: readers whose daily OpenAlex query is due (only with OPENALEX_API_KEY)
    data: {},
  },
  {
    queue: QUEUE_NAMES.delivery,
    id: 'deliver-digests',
    // Hourly, a few minutes past the hour: the readers whose chosen hour (in their zone) has come.
    pattern: '3 * * * *',
    data: {},
  },
] as const satisfies Schedule[];

export async function startWorkerApp(options: WorkerAppOptions): Promise<WorkerApp> {
  const { connection, logger } = options;
  const queueNames = Object.values(QUEUE_NAMES);
  const missing = queueNames.filter((name) => !PROCESSORS[name]);
  if (missing.length) throw new Error(`no processor for queue(s): ${missing.join(', ')}`);

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
  const pipelines = createRecommendationPipelines({
    embeddings: options.ai.embeddings,
    recommendations: repositories.recommendations,
    papers: repositories.papers,
    news: repositories.news,
    diagnostics: repositories.diagnostics,
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
  const startWorker = <N extends QueueName>(name: N) =>
    createWorker(
      connection,
      name,
      PROCESSORS[name]({ ...options, ingest, content, enqueue, queue: producer, repositories, pipelines }),
      {
        concurrency: Math.min(options.concurrency, CONCURRENCY_LIMITS[name] ?? options.concurrency),
        ...lock,
      },
    ) as unknown as AppWorker<unknown>;
  const workers = queueNames.map((name) => {
    const worker = startWorker(name);
    worker.on('failed', (job, error) => {
      // A failing source is logged by its ingest job (warn once a day of failures), not at every attempt.
      const level = name === QUEUE_NAMES.ingest ? 'info' : 'warn';
      logger[level]({ queue: name, jobId: job?.id, attempt: job?.attemptsMade, err: error.message }, 'job failed');
      options.metrics?.observeJob(name, 'failed', job && runSeconds(job));
    });
    if (options.metrics) {
      const { metrics } = options;
      worker.on('completed', (job) => metrics.observeJob(name, 'completed', runSeconds(job)));
    }
    worker.on('error', (error) => logger.error({ queue: name, err: error.message }, 'worker error'));
    return worker;
  });

  if (options.recurringJobs !== false) {
    for (const schedule of SCHEDULES) {
      await producer(schedule.queue).upsertJobScheduler(
        schedule.id,
        { pattern: schedule.pattern },
        { name: schedule.id, data: schedule.data },
      );
    }
    // Also once at start, so a changed EMBEDDING_MODEL takes effect now rather than at the next hour.
    await requestEmbeddingsMaintenance(producer(QUEUE_NAMES.embeddings));
    if (ingest.enabled && ingest.tiers.auto) {
      const tierQueue = producer(QUEUE_NAMES.journalTiers);
      for (const schedule of TIER_SCHEDULES) {
        await tierQueue.upsertJobScheduler(
          schedule.id,
          { pattern: schedule.pattern },
          { name: schedule.id, data: schedule.data },
        );
        // Once soon after start too (SCImago first: OpenAlex fills only what it lacks); a run with nothing
        // due skips at once, so restarts cost a database query each.
        await tierQueue.add(`${schedule.id}-at-start`, schedule.data, { delay: ingest.tiers.startDelayMs });
      }
    } else {
      // Switched off: the schedules an earlier start registered go too (their queued runs skip).
      const tierQueue = producer(QUEUE_NAMES.journalTiers);
      for (const schedule of TIER_SCHEDULES) await tierQueue.removeJobScheduler(schedule.id);
    }
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
    logSync(logger, await syncActiveSources({ repositories, states, settings, queue, logger }), true);
  } catch (error) {
    logger.error({ err: (error as Error).message }, 'content sources not scheduled');
  }
}

/** Logs a sync that changed something (the periodic one upserts the same schedules every time: no news). */
function logSync(logger: Logger, sync: ActiveSourcesSync, atStart = false): void {
  if ((atStart && sync.scheduled.length) || sync.removed.length || sync.firstRuns.length) {
    logger.info(
      { sources: sync.origin, scheduled: sync.scheduled, removed: sync.removed, firstRuns: sync.firstRuns },
      'content sources scheduled',
    );
  }
}
