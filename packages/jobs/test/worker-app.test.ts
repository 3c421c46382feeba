import { createAiServices } from '@radar/ai';
import { createAiRepositories, sql, UserRepository } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { addUncheckedJob, testQueueConnection, waitForJobState } from '@radar/jobs/testing';
import { QUEUE_NAMES } from '@radar/shared';
import { loadConfig } from '@radar/shared/server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppQueue, createQueue, type QueueConnection, startWorkerApp, type WorkerApp } from '../src';

let database: TestDatabase;
let app: WorkerApp;
let queue: AppQueue<unknown>;
let connection: QueueConnection;

beforeAll(async () => {
  database = await createTestDatabase();
  connection = testQueueConnection(database);
  const logger = pino({ level: 'silent' });
  // The offline providers of an empty configuration: rules and the built-in embedder.
  const ai = createAiServices(loadConfig({}), createAiRepositories(database.db), logger);
  app = await startWorkerApp({ connection, database, concurrency: 2, logger, ai });
  queue = createQueue<unknown>(connection, QUEUE_NAMES.maintenance);
});

afterAll(async () => {
  await app?.close();
  await queue?.obliterate({ force: true }).catch(() => {});
  await queue?.close();
  await database?.close();
});

describe('worker app', () => {
  it('registers the daily maintenance scheduler', async () => {
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((scheduler) => scheduler.key)).toEqual(
      expect.arrayContaining([
        'purge-expired-auth-records',
        'purge-stale-unverified-accounts',
        'fail-interrupted-tasks',
      ]),
    );
  });

  it('registers no recurring job and asks for no embedding maintenance when recurringJobs is false', async () => {
    // A database of its own: on BullMQ's PostgreSQL backend the first app's schedulers would be seen here.
    const own = await createTestDatabase();
    const connection = testQueueConnection(own);
    const logger = pino({ level: 'silent' });
    const ai = createAiServices(loadConfig({}), createAiRepositories(own.db), logger);
    const quiet = await startWorkerApp({ connection, database: own, concurrency: 1, logger, ai, recurringJobs: false });
    const queues = [QUEUE_NAMES.maintenance, QUEUE_NAMES.embeddings].map((name) =>
      createQueue<unknown>(connection, name),
    );
    try {
      for (const each of queues) {
        expect(await each.getJobSchedulers()).toEqual([]);
        expect(await each.getJobCounts('waiting', 'active', 'completed', 'delayed')).toEqual({
          waiting: 0,
          active: 0,
          completed: 0,
          delayed: 0,
        });
      }
    } finally {
      await quiet.close();
      for (const each of queues) {
        await each.obliterate({ force: true }).catch(() => {});
        await each.close();
      }
      await own.close();
    }
  });

  it('purges expired auth records, and a second run purges nothing more', async () => {
    const user = await new UserRepository(database.db).create({ email: 'purge@example.org' });
    const longAgo = sql`now() - interval '3 days'`;
    await database.db.execute(sql`
      INSERT INTO radar.email_verification_codes (user_id, code_hash, expires_at, created_at) VALUES
        (${user.id}, 'old', ${longAgo}, ${longAgo}),
        (${user.id}, 'fresh', now() + interval '5 minutes', now())`);
    await database.db.execute(sql`
      INSERT INTO radar.password_reset_tokens (user_id, token_hash, expires_at, used_at) VALUES
        (${user.id}, 'expired', now() - interval '1 minute', NULL),
        (${user.id}, 'used', now() + interval '10 minutes', now()),
        (${user.id}, 'valid', now() + interval '10 minutes', NULL)`);
    // Sessions whose tokens expired go; a live one stays.
    await database.db.execute(sql`
      INSERT INTO radar.sessions (id, user_id, expires_at) VALUES
        (gen_random_uuid(), ${user.id}, now() - interval '1 minute'),
        (gen_random_uuid(), ${user.id}, now() + interval '7 days')`);

    const first = await queue.add('purge', { task: 'purge-expired-auth-records' });
    const done = await waitForJobState(queue, String(first.id), 'completed');
    expect(done.returnvalue).toEqual({ outcome: 'success', purged: { codes: 1, resetTokens: 2, sessions: 1 } });
    const left = await database.db.execute<{ codes: number; reset_tokens: number }>(
      sql`SELECT (SELECT count(*)::int FROM radar.email_verification_codes) AS codes,
                 (SELECT count(*)::int FROM radar.password_reset_tokens) AS reset_tokens`,
    );
    expect(left.rows[0]).toEqual({ codes: 1, reset_tokens: 1 });

    const second = await queue.add('purge', { task: 'purge-expired-auth-records' });
    const again = await waitForJobState(queue, String(second.id), 'completed');
    expect(again.returnvalue).toEqual({ outcome: 'success', purged: { codes: 0, resetTokens: 0, sessions: 0 } });
  });

  it('fails a job with an invalid payload at once, without retrying', async () => {
    const jobId = await addUncheckedJob(connection, QUEUE_NAMES.maintenance, 'bad', { task: 'drop-all-tables' });
    const failed = await waitForJobState(queue, jobId, 'failed');
    expect(failed.attemptsMade).toBe(1);
    expect(failed.failedReason).toContain('invalid maintenance payload');
  });
});
