import type { AiServices } from '@radar/ai';
import type {
  ArticleRepository,
  AsyncTaskRepository,
  AuthRecordRepository,
  DatabaseHandle,
  DeliveryRepository,
  FollowedAuthorRepository,
  IngestRepositories,
  KeywordRepository,
  LearningRepository,
  OwnWorkRepository,
  SessionRepository,
  UserRepository,
} from '@radar/db';
import type { ContentAiProviders, EnqueueJob, IngestSettings } from '@radar/ingest';
import type { AppMetrics } from '@radar/metrics';
import type { PublishedPreprintsProvider, RecommendationPipeline } from '@radar/recommend';
import type { JobPayload, QueueName } from '@radar/shared';
import type { Logger } from 'pino';
import type { KeywordAlertMailSettings } from './jobs/keyword-alerts.job';
import type { JobProcessor, JobQueue, QueueConnection } from './queue-connection';

/*
 * How a job file (src/jobs/<queue>.job.ts) declares its wiring: its queue, the processor built from the
 * worker's parts, how many of its jobs run side by side, its recurring runs and its start-up work.
 * worker-app.ts builds the parts once and iterates JOBS (job-list.ts); a new queue is its job file plus
 * one line there.
 */

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

/** The repositories the processors use, built once by the worker's composition root (worker-app.ts). */
export interface WorkerRepositories {
  /** Ingestion's bundle (@radar/ingest takes its repositories from here). */
  ingest: IngestRepositories;
  authRecords: AuthRecordRepository;
  users: UserRepository;
  tasks: AsyncTaskRepository;
  sessions: SessionRepository;
  learning: LearningRepository;
  ownWorks: OwnWorkRepository;
  /** The ingest bundle's stateless source states and vectors, which serve the other processors too. */
  sourceStates: IngestRepositories['sourceStates'];
  vectors: IngestRepositories['vectors'];
  keywords: KeywordRepository;
  followedAuthors: FollowedAuthorRepository;
  deliveries: DeliveryRepository;
  articles: ArticleRepository;
}

/** A producer for any of the app's queues (opened once, closed with the worker app). */
export type Producers = <N extends QueueName>(name: N) => JobQueue<N>;

/** What every processor is built from: the worker app's options and the parts it builds once. */
export type JobContext = WorkerAppOptions & {
  ingest: IngestSettings;
  content: ContentAiProviders;
  enqueue: EnqueueJob;
  /** A producer for another queue (closed with the app). */
  queue: Producers;
  repositories: WorkerRepositories;
  /** The ranking pipeline per readers' time zone, built as the server builds it (createRecommendationPipelines). */
  pipelines: (timeZone: string) => RecommendationPipeline;
};

/** A recurring run of a queue, registered idempotently as a BullMQ job scheduler (on either backend). */
export interface JobSchedule<N extends QueueName> {
  id: string;
  pattern: string;
  /** Typed by the queue's payload, and parsed again when the scheduler is upserted. */
  data: JobPayload<N>;
}

export interface JobDefinition<N extends QueueName> {
  queue: N;
  processor: (context: JobContext) => JobProcessor<N>;
  /** At most this many of its jobs side by side in one worker; WORKER_CONCURRENCY when left out. */
  concurrency?: number;
  /** Registered at start with the recurring jobs (WorkerAppOptions.recurringJobs). */
  schedules?: readonly JobSchedule<N>[];
  /** Start-up work beside the schedules (also only with the recurring jobs), after every schedule is registered. */
  atStart?: (context: JobContext) => Promise<void>;
  /** The level of the "job failed" log line; 'warn' when left out. */
  failureLogLevel?: 'info' | 'warn';
}

/** A job file's one export: `export const xJob = defineJob({ queue, processor, ... })`. */
export function defineJob<N extends QueueName>(definition: JobDefinition<N>): JobDefinition<N> {
  return definition;
}

/** A job of any queue, as JOBS lists them. */
export type AnyJobDefinition = { [N in QueueName]: JobDefinition<N> }[QueueName];
