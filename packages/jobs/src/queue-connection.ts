import { type JobPayload, type ParsedJobPayload, QUEUE_NAMES, type QueueName } from '@radar/shared';
import { ActionableError } from '@radar/shared/server';
import {
  type BackendFactory,
  type BulkJobOptions,
  createPostgresBackend,
  type IQueueBackend,
  type Job,
  type JobSchedulerTemplateOptions,
  type JobsOptions,
  type PostgresConnectionOptions,
  type PostgresQueueBackend,
  type Processor,
  Queue,
  type QueueOptions,
  type RedisOptions,
  type RepeatOptions,
  UnrecoverableError,
  Worker,
  type WorkerOptions,
} from 'bullmq';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { checkJobPayload, parseJobPayload } from './job-payloads';

/**
 * Where BullMQ keeps its jobs. Redis when REDIS_URL is set (the compose default); otherwise BullMQ's
 * own PostgreSQL backend in the app database (schema `bullmq`), so embedded installs get the same
 * retries, backoff, schedulers and durable jobs with no extra service. This module is the only one
 * that knows the difference.
 */
export type QueueConnection =
  | { backend: 'redis'; redis: RedisOptions; prefix: string }
  | { backend: 'postgres'; postgres: pg.PoolConfig; prefix: string };

class QueueConnectionError extends ActionableError {
  override name = 'QueueConnectionError';
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

export function createQueueConnection(options: {
  redisUrl: string | undefined;
  postgres: pg.PoolConfig;
  /** Namespaces the queues (tests use a unique one per file on a shared Redis). */
  prefix?: string;
}): QueueConnection {
  const prefix = options.prefix ?? 'radar';
  return options.redisUrl
    ? // BullMQ workers block on Redis; they must retry forever rather than fail commands.
      { backend: 'redis', redis: { url: options.redisUrl, maxRetriesPerRequest: null }, prefix }
    : { backend: 'postgres', postgres: options.postgres, prefix };
}

/** Fails fast with one line naming REDIS_URL when Redis cannot be reached. */
export async function assertRedisReachable(url: string, timeoutMs = 5_000): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
  });
  // The socket error (ECONNREFUSED, ENOTFOUND, ...) says more than the "Connection is closed" that follows it.
  let socketError: Error | undefined;
  client.on('error', (error: Error) => {
    socketError ??= error;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    const reason = (socketError ?? (error as Error)).message.replace(/\.$/, '');
    throw new QueueConnectionError(
      `Cannot connect to REDIS_URL (${redactUrl(url)}): ${reason}. Start Redis, fix REDIS_URL, or unset it to keep jobs in PostgreSQL.`,
    );
  } finally {
    client.disconnect();
  }
}

/** Sensible defaults for every job: retried with exponential backoff, cleaned up after a while. */
const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

// BullMQ's generics differ per backend; the app only needs the common surface, typed by payload.
export type AppQueue<T> = Queue<T, unknown, string, T, unknown, string, IQueueBackend, unknown>;
export type AppWorker<T> = Worker<T, unknown, string, IQueueBackend, number | object, unknown>;

/** A producer for one of the app's queues: payloads typed from JOB_PAYLOAD_SCHEMAS, and parsed before they are added. */
export type JobQueue<N extends QueueName> = AppQueue<JobPayload<N>>;

/**
 * A processor of one of the app's queues. It receives the payload its queue's schema parsed
 * (createWorker parses before it runs), so it checks nothing itself.
 */
export type JobProcessor<N extends QueueName> = (
  job: Job<ParsedJobPayload<N>>,
  token?: string,
  signal?: AbortSignal,
) => Promise<unknown>;

function postgresConnection(
  connection: Extract<QueueConnection, { backend: 'postgres' }>,
  poolMax: number,
): PostgresConnectionOptions {
  // Our settings only ever carry a plain-string password, which is what BullMQ's narrower type expects.
  return { ...connection.postgres, max: poolMax, schema: 'bullmq', migrate: true } as PostgresConnectionOptions;
}

/**
 * BullMQ's Queue with every payload parsed by its queue's schema before it is stored (`add`, `addBulk`
 * and job schedulers' templates): a bad payload throws InvalidJobPayloadError in the producer that
 * made it, instead of failing a job later in a worker.
 */
class PayloadCheckedQueue extends Queue<unknown, unknown, string, unknown, unknown, string, IQueueBackend, unknown> {
  // Async, so a refused payload is a rejected promise like any other failure to add.
  protected override async addJob(name: string, data: unknown, opts?: JobsOptions) {
    return super.addJob(name, parseJobPayload(this.name, data), opts);
  }

  override async addBulk(jobs: { name: string; data: unknown; opts?: BulkJobOptions }[]) {
    return super.addBulk(jobs.map((job) => ({ ...job, data: parseJobPayload(this.name, job.data) })));
  }

  override async upsertJobScheduler(
    jobSchedulerId: string,
    repeatOpts: Omit<RepeatOptions, 'key'>,
    jobTemplate?: { name?: string; data?: unknown; opts?: JobSchedulerTemplateOptions },
  ) {
    // BullMQ's template data defaults to {}: that default is checked too.
    const data = parseJobPayload(this.name, jobTemplate?.data ?? {});
    return super.upsertJobScheduler(jobSchedulerId, repeatOpts, { ...jobTemplate, data });
  }
}

function openQueue<T>(
  connection: QueueConnection,
  name: string,
  options: Partial<Omit<QueueOptions, 'connection'>>,
  QueueClass: typeof PayloadCheckedQueue | typeof Queue,
): AppQueue<T> {
  const opts = { defaultJobOptions: DEFAULT_JOB_OPTIONS, ...options, prefix: connection.prefix };
  const Class = QueueClass as typeof PayloadCheckedQueue;
  const queue =
    connection.backend === 'redis'
      ? new Class(name, { ...opts, connection: connection.redis })
      : new Class(
          name,
          { ...opts, connection: postgresConnection(connection, 2) },
          createPostgresBackend as unknown as BackendFactory<IQueueBackend, unknown>,
        );
  return queue as unknown as AppQueue<T>;
}

/**
 * A queue of this installation. One of the app's (QUEUE_NAMES) is typed by its payload and parses every
 * payload before adding it; other names (tests' own queues) take any data.
 */
export function createQueue<N extends QueueName>(
  connection: QueueConnection,
  name: N,
  options?: Partial<Omit<QueueOptions, 'connection'>>,
): JobQueue<N>;
export function createQueue<T>(
  connection: QueueConnection,
  name: string,
  options?: Partial<Omit<QueueOptions, 'connection'>>,
): AppQueue<T>;
export function createQueue<T>(
  connection: QueueConnection,
  name: string,
  options: Partial<Omit<QueueOptions, 'connection'>> = {},
): AppQueue<T> {
  return openQueue<T>(connection, name, options, PayloadCheckedQueue);
}

/**
 * A queue that adds whatever it is given, for tests that must put a payload no producer would make
 * into a queue (the worker's own check); exported only from @radar/jobs/testing.
 */
export function createUncheckedQueue(connection: QueueConnection, name: string): AppQueue<unknown> {
  return openQueue<unknown>(connection, name, {}, Queue);
}

/**
 * A worker of this installation. Before the processor runs, the job's data is parsed with its queue's
 * schema and replaced by the result: a payload the schema refuses (written by an older version, or by
 * hand) fails the job with UnrecoverableError, not retried, and the processor never sees it.
 */
export function createWorker<N extends QueueName>(
  connection: QueueConnection,
  name: N,
  processor: JobProcessor<N>,
  options?: Partial<Omit<WorkerOptions, 'connection'>>,
): AppWorker<ParsedJobPayload<N>>;
export function createWorker<T>(
  connection: QueueConnection,
  name: string,
  processor: Processor<T>,
  options?: Partial<Omit<WorkerOptions, 'connection'>>,
): AppWorker<T>;
export function createWorker<T>(
  connection: QueueConnection,
  name: string,
  processor: Processor<T>,
  options: Partial<Omit<WorkerOptions, 'connection'>> = {},
): AppWorker<T> {
  const checked: Processor<T> = async (job, token, signal) => {
    const payload = checkJobPayload(name, job.data);
    if (!payload.success) throw new UnrecoverableError(payload.message);
    job.data = payload.data as T;
    return processor(job, token, signal);
  };
  const opts = { ...options, prefix: connection.prefix };
  const worker =
    connection.backend === 'redis'
      ? new Worker<T>(name, checked, { ...opts, connection: connection.redis })
      : new Worker<T, unknown, string, PostgresQueueBackend, number | object, PostgresConnectionOptions>(
          name,
          checked,
          { ...opts, connection: postgresConnection(connection, (options.concurrency ?? 1) + 2) },
          createPostgresBackend,
        );
  return worker as unknown as AppWorker<T>;
}

/**
 * Deletes every Redis key under a queue prefix. For tests, whose prefixes are unique per run: the
 * server's worker registers a job scheduler that nothing else would remove. (On the PostgreSQL backend
 * queue data goes with the test database.)
 */
export async function removeRedisQueueData(redisUrl: string, prefix: string): Promise<number> {
  if (!/^[\w-]+$/.test(prefix) || prefix === 'radar') throw new Error(`refusing to remove queue data of "${prefix}"`);
  const client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let deleted = 0;
    for await (const keys of client.scanStream({ match: `${prefix}:*`, count: 500 })) {
      if ((keys as string[]).length) deleted += await client.del(...(keys as string[]));
    }
    return deleted;
  } finally {
    client.disconnect();
  }
}

/**
 * Removes a deleted account's id from the job queue's history in Redis (with PostgreSQL, the account's
 * deletion does it in its own transaction: UserAdminRepository). The queues whose payloads name a
 * user (profile learning, profile embedding): their waiting, delayed and finished jobs for that user
 * and their deduplication keys (`<task>:<userId>`), and the queues' event streams, which repeat job and
 * deduplication ids (nothing reads them: the app has no QueueEvents listener). A job running at this
 * moment is left to finish; its account is gone.
 */
export async function forgetUserInQueues(
  backend: QueueConnection['backend'],
  queues: { embeddings: JobQueue<'embeddings'>; profileLearning: JobQueue<'profile-learning'> },
  userId: string,
): Promise<void> {
  if (backend !== 'redis') return;
  const named: [AppQueue<unknown>, string][] = [
    [queues.embeddings as AppQueue<unknown>, `embed-profile:${userId}`],
    [queues.profileLearning as AppQueue<unknown>, `learn-profile:${userId}`],
  ];
  for (const [queue, deduplicationId] of named) {
    const jobs = await queue.getJobs(['completed', 'failed', 'delayed', 'wait', 'prioritized']);
    for (const job of jobs) {
      if ((job?.data as { userId?: unknown } | undefined)?.userId !== userId) continue;
      // A job that started meanwhile is locked: it finishes, and is trimmed with the finished ones.
      await job.remove().catch(() => undefined);
    }
    await queue.removeDeduplicationKey(deduplicationId);
    await queue.trimEvents(0);
  }
}

/** Where the rate-limit counters are kept in Redis: under the installation's queue prefix. */
export const rateLimitNamespace = (queuePrefix: string): string => `${queuePrefix}:rate-limit:`;

/** Characters SCAN's MATCH treats as a pattern. */
const escapeGlob = (text: string) => text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);

/**
 * forgetUserInQueues and the account's rate-limit counters (keys holding its id), for a process that
 * holds neither the queues nor the counters: the CLI's account deletion. Nothing without Redis (the
 * delete's transaction did it).
 */
export async function forgetUserInRedis(connection: QueueConnection, userId: string): Promise<void> {
  if (connection.backend !== 'redis') return;
  const queues = {
    embeddings: createQueue(connection, QUEUE_NAMES.embeddings),
    profileLearning: createQueue(connection, QUEUE_NAMES.profileLearning),
  };
  try {
    await forgetUserInQueues(connection.backend, queues, userId);
  } finally {
    await Promise.all([queues.embeddings.close(), queues.profileLearning.close()]);
  }
  const client = new Redis({ ...connection.redis, maxRetriesPerRequest: 1 });
  try {
    const match = `${escapeGlob(rateLimitNamespace(connection.prefix))}*${escapeGlob(userId)}*`;
    for await (const keys of client.scanStream({ match, count: 500 })) {
      if ((keys as string[]).length) await client.del(...(keys as string[]));
    }
  } finally {
    client.disconnect();
  }
}
