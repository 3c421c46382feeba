import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { addUncheckedJob, testQueueConnection, waitForJobState } from '@radar/jobs/testing';
import { type MaintenanceJob, QUEUE_NAMES } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AppWorker,
  createQueue,
  createWorker,
  InvalidJobPayloadError,
  type JobQueue,
  type QueueConnection,
  removeRedisQueueData,
} from '../src';

/**
 * Queue payloads are parsed with JOB_PAYLOAD_SCHEMAS at both ends, on a real queue (Redis with REDIS_URL,
 * else BullMQ's PostgreSQL backend): a producer cannot add a payload its queue refuses, and a worker
 * fails such a job (put there past the producers' check) without running its processor.
 */

let database: TestDatabase;
let connection: QueueConnection;
let queue: JobQueue<'maintenance'>;
let worker: AppWorker<unknown> | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  connection = testQueueConnection(database);
  queue = createQueue(connection, QUEUE_NAMES.maintenance);
});

afterAll(async () => {
  await worker?.close();
  await queue?.obliterate({ force: true }).catch(() => {});
  await queue?.close();
  if (process.env.REDIS_URL && connection) await removeRedisQueueData(process.env.REDIS_URL, connection.prefix);
  await database?.close();
});

describe('at the producer', () => {
  it('refuses a bad payload in add, addBulk and a job scheduler, and queues nothing', async () => {
    // The casts stand for a producer whose types were bypassed (data from JSON, an `as`).
    const bad = { task: 'drop-all-tables' } as unknown as MaintenanceJob;
    await expect(queue.add('bad', bad)).rejects.toThrow(InvalidJobPayloadError);
    await expect(queue.add('bad', bad)).rejects.toThrow(/invalid maintenance payload/);
    await expect(
      queue.addBulk([
        { name: 'good', data: { task: 'sync-sources' } },
        { name: 'bad', data: bad },
      ]),
    ).rejects.toThrow(InvalidJobPayloadError);
    await expect(queue.upsertJobScheduler('bad-schedule', { every: 60_000 }, { data: bad })).rejects.toThrow(
      InvalidJobPayloadError,
    );
    // A scheduler without data would run with {}, which the maintenance schema refuses too.
    await expect(queue.upsertJobScheduler('no-data', { every: 60_000 })).rejects.toThrow(InvalidJobPayloadError);

    expect(await queue.getJobCounts('waiting', 'delayed', 'prioritized')).toEqual({
      waiting: 0,
      delayed: 0,
      prioritized: 0,
    });
    expect(await queue.getJobSchedulers()).toEqual([]);
  });

  it('stores what the schema parsed: keys it does not know are dropped', async () => {
    const job = await queue.add('sync', { task: 'sync-sources', secret: 'x' } as MaintenanceJob);
    expect((await queue.getJob(String(job.id)))?.data).toEqual({ task: 'sync-sources' });
    await job.remove();
  });
});

describe('at the processor', () => {
  it('fails a bad payload already in the queue at once, without running the processor; runs a good one', async () => {
    const seen: unknown[] = [];
    worker = createWorker(connection, QUEUE_NAMES.maintenance, async (job) => {
      seen.push(job.data);
      return { outcome: 'success' };
    }) as AppWorker<unknown>;

    const badId = await addUncheckedJob(connection, QUEUE_NAMES.maintenance, 'bad', { task: 'drop-all-tables' });
    const failed = await waitForJobState(queue, badId, 'failed');
    // UnrecoverableError: one attempt although the queue's default is 3.
    expect(failed.attemptsMade).toBe(1);
    expect(failed.failedReason).toMatch(/^invalid maintenance payload: /);

    const goodId = await addUncheckedJob(connection, QUEUE_NAMES.maintenance, 'good', {
      task: 'fail-interrupted-tasks',
      extra: true,
    });
    await waitForJobState(queue, goodId, 'completed');
    // Only the good job reached the processor, as its schema parsed it.
    expect(seen).toEqual([{ task: 'fail-interrupted-tasks' }]);
  });
});
