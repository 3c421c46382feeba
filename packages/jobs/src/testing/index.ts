import { randomBytes } from 'node:crypto';
import type { TestDatabase } from '@radar/db/testing';
import type { JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { type AppQueue, createQueueConnection, createUncheckedQueue, type QueueConnection } from '../queue-connection';

/**
 * Puts a job into a queue past the producers' payload check (createQueue refuses a payload its queue's
 * schema does not accept), as a job from an older version or written by hand would be. Returns its id.
 */
export async function addUncheckedJob(
  connection: QueueConnection,
  queueName: string,
  jobName: string,
  data: unknown,
  opts?: JobsOptions,
): Promise<string> {
  const queue = createUncheckedQueue(connection, queueName);
  try {
    return String((await queue.add(jobName, data, opts)).id);
  } finally {
    await queue.close();
  }
}

/**
 * Runs `use` with a Redis client of a Redis queue connection (tests that put or look for keys beside
 * the queues, such as the rate-limit counters under the same prefix).
 */
export async function withQueueRedis<T>(
  connection: Extract<QueueConnection, { backend: 'redis' }>,
  use: (redis: Redis) => Promise<T>,
): Promise<T> {
  const redis = new Redis({ ...connection.redis, maxRetriesPerRequest: 1 });
  try {
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

export * from './arxiv-atom';

/** Real Redis when REDIS_URL is set (CI), otherwise BullMQ's PostgreSQL backend in the test database. */
export function testQueueConnection(database: TestDatabase): QueueConnection {
  return createQueueConnection({
    redisUrl: process.env.REDIS_URL || undefined,
    postgres: database.connectionConfig,
    prefix: `test-${randomBytes(4).toString('hex')}`,
  });
}

export async function waitForJobState<T>(
  queue: AppQueue<T>,
  jobId: string,
  wanted: 'completed' | 'failed',
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // State first, then the job: read the other way round, a job finishing in between would look
    // finished but still carry its in-flight fields (no return value yet).
    const state = await queue.getJobState(jobId);
    if (state === 'completed' || state === 'failed') {
      const job = await queue.getJob(jobId);
      if (state === wanted && job) return job;
      throw new Error(`job ${jobId} ended ${state}, expected ${wanted}: ${job?.failedReason ?? ''}`);
    }
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
