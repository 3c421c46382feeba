import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { testQueueConnection, waitForJobState } from '@radar/jobs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppQueue, type AppWorker, createQueue, createWorker, type QueueConnection } from '../src';

let database: TestDatabase;
let connection: QueueConnection;
let queue: AppQueue<{ n: number }>;
let worker: AppWorker<{ n: number }>;
const attemptsSeen = new Map<number, number>();

beforeAll(async () => {
  database = await createTestDatabase();
  connection = testQueueConnection(database);
  queue = createQueue<{ n: number }>(connection, 'flaky', {
    defaultJobOptions: { attempts: 3, backoff: { type: 'exponential', delay: 20 } },
  });
  // Fails the first two attempts of every job, then succeeds: exercises retries and backoff.
  worker = createWorker<{ n: number }>(
    connection,
    'flaky',
    async (job) => {
      const seen = (attemptsSeen.get(job.data.n) ?? 0) + 1;
      attemptsSeen.set(job.data.n, seen);
      if (seen < 3) throw new Error(`transient failure ${seen}`);
      return { doubled: job.data.n * 2 };
    },
    { concurrency: 4 },
  );
});

afterAll(async () => {
  await worker?.close();
  await queue?.obliterate({ force: true }).catch(() => {});
  await queue?.close();
  await database?.close();
});

describe(`BullMQ on ${process.env.REDIS_URL ? 'Redis' : 'PostgreSQL'}`, () => {
  it('completes every job after retries with backoff', async () => {
    const jobs = await queue.addBulk(Array.from({ length: 30 }, (_, n) => ({ name: 'double', data: { n } })));
    for (const job of jobs) {
      const finished = await waitForJobState(queue as AppQueue<unknown>, String(job.id), 'completed');
      expect(finished.returnvalue).toEqual({ doubled: (job.data as { n: number }).n * 2 });
      expect(finished.attemptsMade).toBe(3);
    }
    expect([...attemptsSeen.values()].every((count) => count === 3)).toBe(true);
    expect(attemptsSeen.size).toBe(30);
  });

  it('keeps a job that exhausted its attempts as failed, with the reason', async () => {
    const failing = createQueue<{ n: number }>(connection, 'always-fails', {
      defaultJobOptions: { attempts: 2, backoff: { type: 'fixed', delay: 10 } },
    });
    const failingWorker = createWorker<{ n: number }>(connection, 'always-fails', async () => {
      throw new Error('permanent trouble');
    });
    try {
      const job = await failing.add('x', { n: 1 });
      const failed = await waitForJobState(failing as AppQueue<unknown>, String(job.id), 'failed');
      expect(failed.failedReason).toBe('permanent trouble');
      expect(failed.attemptsMade).toBe(2);
    } finally {
      await failingWorker.close();
      await failing.obliterate({ force: true }).catch(() => {});
      await failing.close();
    }
  });
});
