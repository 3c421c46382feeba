import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeOpenAiServer, researchProfileAnswer, startFakeOpenAi } from '@radar/ai/testing';
import { AsyncTaskRepository, sql, UserRepository } from '@radar/db';
import { createTestDatabase, type TestDatabase, testDatabaseUrl } from '@radar/db/testing';
import { type AppQueue, createQueue, createQueueConnection, removeRedisQueueData } from '@radar/jobs';
import { waitForJobState } from '@radar/jobs/testing';
import { freePort, scrapeMetrics } from '@radar/metrics/testing';
import { QUEUE_NAMES, type ResearchProfileJob } from '@radar/shared';
import { radarProcessArgs } from '@radar/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The standalone worker (`node --import tsx worker/src/main.ts`) as operators run it, on PostgreSQL
 * and real Redis: killed in the middle of a job and restarted, the task still completes, exactly once;
 * stopped with SIGTERM, it lets the job in flight finish; its metrics listener serves /metrics and the
 * container health check /health. Without DATABASE_URL (any test mode) it refuses to start.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const redisUrl = process.env.REDIS_URL || undefined;

interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

describe.runIf(testDatabaseUrl() && redisUrl)('worker process on PostgreSQL and Redis', () => {
  let database: TestDatabase;
  let fake: FakeOpenAiServer;
  let queue: AppQueue<ResearchProfileJob>;
  let tasks: AsyncTaskRepository;
  let userId: string;
  const prefix = `test-${randomBytes(4).toString('hex')}`;

  /** Without a metrics port the listener is off: parallel test files must never share the default one. */
  const startWorker = (metricsPort = 0): WorkerProcess => {
    const { DATABASE_URL, TEST_DATABASE_URL, JWT_SECRET, ...rest } = process.env;
    const child = spawn(process.execPath, radarProcessArgs('worker'), {
      cwd: REPO_ROOT,
      env: {
        ...rest,
        DATABASE_URL: String(database.connectionConfig.connectionString),
        REDIS_URL: redisUrl,
        QUEUE_PREFIX: prefix,
        OPENAI_BASE_URL: fake.url,
        LLM_MODEL: 'fake-chat',
        LLM_TIMEOUT_MS: '60000',
        // A dead worker's job goes back to the queue within about twice this.
        JOB_LOCK_MS: '1500',
        WORKER_CONCURRENCY: '1',
        INGEST_ENABLED: 'false',
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
        METRICS_PORT: String(metricsPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    return { child, output: () => output, exited };
  };

  const waitFor = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    fake = await startFakeOpenAi();
    const connection = createQueueConnection({ redisUrl, postgres: database.connectionConfig, prefix });
    queue = createQueue<ResearchProfileJob>(connection, QUEUE_NAMES.researchProfile);
    tasks = new AsyncTaskRepository(database.db);
    userId = (await new UserRepository(database.db).create({ email: 'crash@example.org' })).id;
  });

  afterAll(async () => {
    await queue?.close();
    await fake?.close();
    if (redisUrl) await removeRedisQueueData(redisUrl, prefix);
    await database?.close();
  });

  it('completes a task exactly once after the worker is killed in the middle of it', async () => {
    // The first model call never answers: the worker is killed while waiting for it.
    let calls = 0;
    fake.defaultChat = () =>
      ++calls === 1 ? { hang: true } : { content: researchProfileAnswer({ name: 'After Restart' }) };
    const task = await tasks.create({
      userId,
      kind: 'research-direction',
      input: { research_description: 'Jane Okafor, Stanford. '.repeat(20) },
    });
    await queue.add('analyse', { taskId: task.id }, { jobId: task.id });

    const first = startWorker();
    await waitFor('the first model call', () => fake.chatRequests().length === 1);
    expect((await tasks.findById(task.id))?.status).toBe('processing');
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = startWorker();
    try {
      await waitFor(
        'the task to complete',
        async () => (await tasks.findById(task.id))?.status === 'completed',
        45_000,
      );
      const done = await tasks.findById(task.id);
      expect(done).toMatchObject({ status: 'completed', attempts: 2, progress: 100, errorMessage: null });
      expect(done?.resultData).toMatchObject({ name: 'After Restart', source: 'llm' });
      expect(fake.chatRequests()).toHaveLength(2);
      const job = await waitForJobState(queue as AppQueue<unknown>, task.id, 'completed');
      expect(job.returnvalue).toMatchObject({ outcome: 'completed' });

      // Exactly one result stored: one task row, completed once, no second completion later.
      const rows = await database.db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM radar.async_tasks WHERE user_id = ${userId} AND result_data IS NOT NULL`,
      );
      expect(rows.rows[0]?.n).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 3_500)); // two more stalled-job checks
      expect((await tasks.findById(task.id))?.finishedAt).toEqual(done?.finishedAt);
      expect(fake.chatRequests()).toHaveLength(2);
    } finally {
      second.child.kill('SIGTERM');
      const exit = await second.exited;
      expect(exit.code, second.output()).toBe(0);
    }
  }, 90_000);

  it('on SIGTERM lets the job in flight finish before exiting', async () => {
    fake.defaultChat = () => ({ content: researchProfileAnswer({ name: 'Finished On Shutdown' }), delayMs: 1_500 });
    const task = await tasks.create({
      userId,
      kind: 'research-direction',
      input: { research_description: 'Li Na, Institute of Physics. '.repeat(20) },
    });
    const worker = startWorker();
    await queue.add('analyse', { taskId: task.id }, { jobId: task.id });
    const before = fake.chatRequests().length;
    await waitFor('the model call', () => fake.chatRequests().length > before);
    worker.child.kill('SIGTERM');
    const exit = await worker.exited;
    expect(exit.code, worker.output()).toBe(0);
    expect(worker.output()).toContain('worker shutting down');
    const done = await tasks.findById(task.id);
    expect(done).toMatchObject({ status: 'completed', attempts: 1 });
    expect(done?.resultData).toMatchObject({ name: 'Finished On Shutdown' });
  }, 60_000);

  it('serves /metrics and /health on METRICS_PORT; /health answers 503 while it drains on SIGTERM', async () => {
    let calls = 0;
    // The second task's model call is slow: the worker is stopped while it runs.
    fake.defaultChat = () => ({
      content: researchProfileAnswer({ name: 'Measured' }),
      delayMs: ++calls === 1 ? 0 : 3_000,
    });
    const metricsPort = await freePort();
    const health = () =>
      fetch(`http://127.0.0.1:${metricsPort}/health`).then(
        (response) => response.status,
        () => undefined,
      );
    const worker = startWorker(metricsPort);
    await waitFor('the metrics listener', async () => (await health()) === 200);

    const quick = await tasks.create({
      userId,
      kind: 'research-direction',
      input: { research_description: 'Quick. '.repeat(30) },
    });
    await queue.add('analyse', { taskId: quick.id }, { jobId: quick.id });
    await waitForJobState(queue as AppQueue<unknown>, quick.id, 'completed');
    const metrics = await scrapeMetrics(metricsPort);
    expect(
      metrics.value('radar_job_duration_seconds_count', { queue: QUEUE_NAMES.researchProfile, outcome: 'completed' }),
    ).toBe(1);
    expect(metrics.value('radar_queue_jobs', { queue: QUEUE_NAMES.researchProfile, state: 'waiting' })).toBe(0);
    expect(metrics.value('radar_embedding_backlog', { kind: 'papers' })).toBe(0);
    expect(metrics.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);

    const slow = await tasks.create({
      userId,
      kind: 'research-direction',
      input: { research_description: 'Slow. '.repeat(30) },
    });
    const before = fake.chatRequests().length;
    await queue.add('analyse', { taskId: slow.id }, { jobId: slow.id });
    await waitFor('the slow model call', () => fake.chatRequests().length > before);
    worker.child.kill('SIGTERM');
    await waitFor('/health to say it is shutting down', async () => (await health()) === 503);
    const exit = await worker.exited;
    expect(exit.code, worker.output()).toBe(0);
    expect(await health()).toBeUndefined();
    expect((await tasks.findById(slow.id))?.status).toBe('completed');
  }, 60_000);
});

describe('worker process without DATABASE_URL', () => {
  it('refuses the embedded database with one line and exit code 1 (the server runs the worker then)', async () => {
    const { DATABASE_URL, TEST_DATABASE_URL, REDIS_URL, ...rest } = process.env;
    const dataDir = path.join(os.tmpdir(), `radar-worker-${randomBytes(4).toString('hex')}`);
    const child = spawn(process.execPath, radarProcessArgs('worker'), {
      cwd: REPO_ROOT,
      env: { ...rest, DATA_DIR: dataDir, METRICS_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^Research Radar worker could not start: .*the standalone worker needs DATABASE_URL/),
    ]);
    // Refused before anything was opened: no embedded database was created.
    expect(fs.existsSync(dataDir)).toBe(false);
  }, 30_000);
});
