import { RESEARCH_TASK_KIND } from '@radar/ai';
import { AsyncTaskRepository, AuthRecordRepository, SessionRepository, sql, UserRepository } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { OWN_WORKS_TASK_KIND } from '@radar/ingest';
import { testQueueConnection } from '@radar/jobs/testing';
import { type MaintenanceJob, QUEUE_NAMES } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppQueue, createMaintenanceProcessor, createQueue } from '../src';

/**
 * The maintenance jobs that purge stale unverified accounts and fail research and own-works tasks nobody
 * can finish, on a real database and real research-profile and own-works queues with no worker taking
 * their jobs.
 */

let database: TestDatabase;
let researchQueue: AppQueue<unknown>;
let ownWorksQueue: AppQueue<unknown>;
let run: (task: MaintenanceJob['task']) => Promise<unknown>;

beforeAll(async () => {
  database = await createTestDatabase();
  researchQueue = createQueue<unknown>(testQueueConnection(database), QUEUE_NAMES.researchProfile);
  ownWorksQueue = createQueue<unknown>(testQueueConnection(database), QUEUE_NAMES.ownWorks);
  // The sources sync has its own test (source-activation.test.ts).
  const repositories = {
    authRecords: new AuthRecordRepository(database.db),
    users: new UserRepository(database.db),
    tasks: new AsyncTaskRepository(database.db),
    sessions: new SessionRepository(database.db),
  };
  const processor = createMaintenanceProcessor(repositories, {
    taskJobs: { research: researchQueue, ownWorks: ownWorksQueue },
    syncSources: () => Promise.reject(new Error('not part of this test')),
  });
  run = (task) => processor({ data: { task } });
});

afterAll(async () => {
  await researchQueue?.obliterate({ force: true }).catch(() => {});
  await researchQueue?.close();
  await ownWorksQueue?.obliterate({ force: true }).catch(() => {});
  await ownWorksQueue?.close();
  await database?.close();
});

const ago = (interval: string) => sql`now() - ${interval}::interval`;

describe('purge-stale-unverified-accounts', () => {
  it('deletes unverified accounts past the pending window unless a code or link is still valid', async () => {
    const users = new UserRepository(database.db);
    const make = async (email: string, values: { verified?: boolean; passwordHash?: string }, createdAgo: string) => {
      const user = await users.create({
        email,
        isEmailVerified: values.verified ?? false,
        passwordHash: values.passwordHash ?? null,
      });
      await database.db.execute(sql`UPDATE radar.users SET created_at = ${ago(createdAgo)} WHERE id = ${user.id}`);
      return user;
    };
    await make('stale@example.org', { passwordHash: 'x' }, '25 hours');
    await make('placeholder@example.org', {}, '25 hours');
    await make('verified@example.org', { verified: true, passwordHash: 'x' }, '30 days');
    await make('fresh@example.org', { passwordHash: 'x' }, '23 hours');
    const verifying = await make('verifying@example.org', { passwordHash: 'x' }, '25 hours');
    await database.db.execute(sql`
      INSERT INTO radar.email_verification_codes (user_id, code_hash, expires_at, created_at)
      VALUES (${verifying.id}, 'live', now() + interval '4 minutes', now() - interval '1 minute')`);
    const resetting = await make('resetting@example.org', { passwordHash: 'x' }, '25 hours');
    await database.db.execute(sql`
      INSERT INTO radar.password_reset_tokens (user_id, token_hash, expires_at)
      VALUES (${resetting.id}, 'live-link', now() + interval '20 minutes')`);

    expect(await run('purge-stale-unverified-accounts')).toEqual({ outcome: 'success', purged: { accounts: 2 } });
    const left = await database.db.execute<{ email: string }>(sql`SELECT email FROM radar.users ORDER BY email`);
    expect(left.rows.map((row) => row.email)).toEqual([
      'fresh@example.org',
      'resetting@example.org',
      'verified@example.org',
      'verifying@example.org',
    ]);
    expect(await run('purge-stale-unverified-accounts')).toEqual({ outcome: 'success', purged: { accounts: 0 } });
  });
});

describe('fail-interrupted-tasks', () => {
  it('fails only the research tasks that nothing can finish any more', async () => {
    const user = await new UserRepository(database.db).create({ email: 'researcher@example.org' });
    const tasks = new AsyncTaskRepository(database.db);
    const task = async (status: 'pending' | 'processing' | 'completed', createdAgo: string) => {
      const row = await tasks.create({ userId: user.id, kind: RESEARCH_TASK_KIND, input: {} });
      if (status !== 'pending') await tasks.startAttempt(row.id);
      if (status === 'completed') await tasks.complete(row.id, {});
      await database.db.execute(sql`UPDATE radar.async_tasks SET created_at = ${ago(createdAgo)} WHERE id = ${row.id}`);
      return row.id;
    };
    // Synchronous requests (no queue job): one cut off long ago, one that may still be running elsewhere.
    const cutOff = await task('processing', '20 minutes');
    const maybeRunning = await task('processing', '1 minute');
    // Async tasks: one still queued, one queued for longer than any task may take, one whose job is gone.
    const queued = await task('pending', '20 minutes');
    const queuedTooLong = await task('pending', '3 hours');
    const jobLost = await task('processing', '20 minutes');
    for (const id of [queued, queuedTooLong, jobLost])
      await researchQueue.add('analyse', { taskId: id }, { jobId: id });
    await researchQueue.remove(jobLost);
    const done = await task('completed', '20 minutes');

    expect(await run('fail-interrupted-tasks')).toEqual({ outcome: 'success', failed: 3 });
    const state = async (id: string) => {
      const row = await tasks.findById(id);
      return [row?.status, row?.errorMessage];
    };
    for (const id of [cutOff, queuedTooLong, jobLost])
      expect(await state(id)).toEqual(['failed', '研究方向处理中断，请重试']);
    expect(await state(maybeRunning)).toEqual(['processing', null]);
    expect(await state(queued)).toEqual(['pending', null]);
    expect(await state(done)).toEqual(['completed', null]);

    expect(await run('fail-interrupted-tasks')).toEqual({ outcome: 'success', failed: 0 });
  });

  it('fails own-works tasks whose job is gone after a minute, keeping those still queued', async () => {
    const user = await new UserRepository(database.db).create({ email: 'author@example.org' });
    const tasks = new AsyncTaskRepository(database.db);
    const task = async (status: 'pending' | 'processing', createdAgo: string) => {
      const row = await tasks.create({ userId: user.id, kind: OWN_WORKS_TASK_KIND, input: { source: 'library' } });
      if (status === 'processing') await tasks.startAttempt(row.id);
      await database.db.execute(sql`UPDATE radar.async_tasks SET created_at = ${ago(createdAgo)} WHERE id = ${row.id}`);
      return row.id;
    };
    // A seeding whose worker died mid-run and whose job the queue dropped: running forever without the sweep.
    const orphaned = await task('processing', '2 minutes');
    // Just created: its job may be being added this very moment.
    const justCreated = await task('pending', '10 seconds');
    // Still queued behind other seedings.
    const queued = await task('pending', '20 minutes');
    await ownWorksQueue.add('seed', { taskId: queued }, { jobId: queued });

    expect(await run('fail-interrupted-tasks')).toEqual({ outcome: 'success', failed: 1 });
    expect(await tasks.findById(orphaned)).toMatchObject({
      status: 'failed',
      errorMessage: '导入作品中断，请重新提交 ORCID iD、OpenAlex 作者编号或文献库文件',
    });
    expect((await tasks.findById(justCreated))?.status).toBe('pending');
    expect((await tasks.findById(queued))?.status).toBe('pending');
  });
});
