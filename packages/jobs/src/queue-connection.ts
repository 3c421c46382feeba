import { ActionableError } from '@radar/shared/server';
import {
  createPostgresBackend,
  type IQueueBackend,
  type JobsOptions,
  type PostgresConnectionOptions,
  type PostgresQueueBackend,
  type Processor,
  Queue,
  type QueueOptions,
  type RedisOptions,
  Worker,
  type WorkerOptions,
} from 'bullmq';
import { Redis } from 'ioredis';
import type pg from 'pg';

/**
 * Where BullMQ keeps its jobs. Redis when REDIS_URL is set (the compose default); otherwise BullMQ's
 * own PostgreSQL backend in the app database (schema `bullmq`), so embedded installs get the same
 * retries, backoff, schedulers and durable jobs with no extra service. This module is the only one
 * that knows the difference.
 */
export type QueueConnection =
  | { backend: 'redis'; redis: RedisOptions; prefix: string }
  | { backend: 'postgres'; postgres: pg.PoolConfig; prefix: string };

export class QueueConnectionError extends ActionableError {
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
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

// BullMQ's generics differ per backend; the app only needs the common surface, typed by payload.
export type AppQueue<T> = Queue<T, unknown, string, T, unknown, string, IQueueBackend, unknown>;
export type AppWorker<T> = Worker<T, unknown, string, IQueueBackend, number | object, unknown>;

function postgresConnection(
  connection: Extract<QueueConnection, { backend: 'postgres' }>,
  poolMax: number,
): PostgresConnectionOptions {
  // Our settings only ever carry a plain-string password, which is what BullMQ's narrower type expects.
  return { ...connection.postgres, max: poolMax, schema: 'bullmq', migrate: true } as PostgresConnectionOptions;
}

export function createQueue<T>(
  connection: QueueConnection,
  name: string,
  options: Partial<Omit<QueueOptions, 'connection'>> = {},
): AppQueue<T> {
  const opts = { defaultJobOptions: DEFAULT_JOB_OPTIONS, ...options, prefix: connection.prefix };
  const queue =
    connection.backend === 'redis'
      ? new Queue<T>(name, { ...opts, connection: connection.redis })
      : new Queue<T, unknown, string, T, unknown, string, PostgresQueueBackend, PostgresConnectionOptions>(
          name,
          { ...opts, connection: postgresConnection(connection, 2) },
          createPostgresBackend,
        );
  return queue as unknown as AppQueue<T>;
}

export function createWorker<T>(
  connection: QueueConnection,
  name: string,
  processor: Processor<T>,
  options: Partial<Omit<WorkerOptions, 'connection'>> = {},
): AppWorker<T> {
  const opts = { ...options, prefix: connection.prefix };
  const worker =
    connection.backend === 'redis'
      ? new Worker<T>(name, processor, { ...opts, connection: connection.redis })
      : new Worker<T, unknown, string, PostgresQueueBackend, number | object, PostgresConnectionOptions>(
          name,
          processor,
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
