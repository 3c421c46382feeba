import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type FakeOpenAiServer, researchProfileAnswer, startFakeOpenAi } from '@radar/ai/testing';
import { AsyncTaskRepository, type DatabaseHandle, openDatabase, sql, UserRepository } from '@radar/db';
import { createMigratedDataDir, createTestDatabase, type TestDatabase, testDatabaseUrl } from '@radar/db/testing';
import { type AppQueue, createQueue, createQueueConnection, removeRedisQueueData } from '@radar/jobs';
import { waitForJobState } from '@radar/jobs/testing';
import { QUEUE_NAMES } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '../src/security/password-hasher';
import { type ServerProcess, startServerProcess, waitFor } from './server-process';
import { TEST_PASSWORD_HASHING } from './test-runtime';

/**
 * SIGTERM to main.ts, as `docker compose stop` or Ctrl-C sends it, on PostgreSQL + Redis when
 * TEST_DATABASE_URL and REDIS_URL are set, else in embedded mode (PGlite in DATA_DIR, queues in it). Under
 * load, every request in flight is answered and the process exits 0 with nothing left connected; a job
 * the in-process worker is running either finishes first or goes back to the queue and is done after the
 * restart: never lost, never done twice.
 */

const redisUrl = process.env.REDIS_URL || undefined;
const mode = testDatabaseUrl() ? `PostgreSQL${redisUrl ? ' + Redis' : ''}` : 'embedded';
/** Marks the server's connections in pg_stat_activity. */
const APPLICATION_NAME = `radar-shutdown-${randomBytes(3).toString('hex')}`;
const EMAIL = 'stopping@example.org';
const PASSWORD = 'a long enough password 42';
const queuePrefix = `test-${randomBytes(4).toString('hex')}`;

let dataDir: string;
let testDatabase: TestDatabase | undefined;
let fake: FakeOpenAiServer;

interface Answer {
  status?: number;
  connection?: string | undefined;
  body?: string;
  /** The client's error when no complete answer came (a reset, a refused connection). */
  error?: string;
}

/** One request over `agent`; never rejects, so a reset is an outcome like any other. */
function send(agent: http.Agent, port: number, method: string, url: string, token: string, body?: unknown) {
  return new Promise<Answer>((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode, connection: response.headers.connection, body: text }),
        );
        response.on('error', (error) => resolve({ error: error.message }));
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.end(payload);
  });
}

/** Whether a new TCP connection to the port is refused (nothing listens there any more). */
function isRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** Killed in afterAll if a failed test left them running. */
const servers: ServerProcess[] = [];

async function startServer(): Promise<ServerProcess> {
  const common = {
    DATA_DIR: dataDir,
    QUEUE_PREFIX: queuePrefix,
    OPENAI_BASE_URL: fake.url,
    LLM_MODEL: 'fake-chat',
    // A job left running by a stopped process goes back to the queue within about twice this. Shorter
    // locks can lapse during the event-loop pauses of a start-up on a busy machine, and their jobs run again.
    JOB_LOCK_MS: '3000',
    WORKER_CONCURRENCY: '1',
    INGEST_ENABLED: 'false',
  };
  let external = {};
  if (testDatabase) {
    const databaseUrl = new URL(String(testDatabase.connectionConfig.connectionString));
    databaseUrl.searchParams.set('application_name', APPLICATION_NAME);
    external = {
      DATABASE_URL: databaseUrl.toString(),
      JWT_SECRET: randomBytes(48).toString('base64url'),
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    };
  }
  const server = await startServerProcess({ ...common, ...external });
  servers.push(server);
  return server;
}

async function login(server: ServerProcess): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** The database and queue as the running server has them (embedded: through its socket, as operator commands do). */
async function withServerData<T>(use: (database: DatabaseHandle, research: AppQueue<unknown>) => Promise<T>) {
  const database =
    testDatabase ??
    (await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 1, migrate: false, attachToRunningServer: true }));
  const connection = createQueueConnection({ redisUrl, postgres: database.connectionConfig, prefix: queuePrefix });
  const research = createQueue<unknown>(connection, QUEUE_NAMES.researchProfile);
  try {
    return await use(database, research);
  } finally {
    await research.close();
    if (database !== testDatabase) await database.close();
  }
}

/** Model answers held back until `release()`. */
function holdAnswers() {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { held, release };
}

async function stop(server: ServerProcess, ...signals: NodeJS.Signals[]) {
  for (const signal of signals) server.child.kill(signal);
  const exit = await server.exited;
  expect(exit, server.output()).toEqual({ code: 0, signal: null });
}

beforeAll(async () => {
  // Embedded: a DATA_DIR that already holds the migrated template (no initdb or migrations in the servers).
  // With TEST_DATABASE_URL the servers keep only their outbox there: an empty directory, no PGlite started.
  dataDir = testDatabaseUrl()
    ? await fs.mkdtemp(path.join(os.tmpdir(), 'radar-shutdown-data-'))
    : await createMigratedDataDir();
  fake = await startFakeOpenAi();
  // One verified account, made in the database the servers will use.
  if (testDatabaseUrl()) testDatabase = await createTestDatabase();
  const database = testDatabase ?? (await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 2, migrate: true }));
  try {
    const passwordHash = await new PasswordHasher(1, TEST_PASSWORD_HASHING.params).hash(PASSWORD);
    await new UserRepository(database.db).create({ email: EMAIL, passwordHash, isEmailVerified: true });
  } finally {
    if (!testDatabase) await database.close();
  }
}, 60_000);

afterAll(async () => {
  for (const server of servers) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }
  await fake?.close();
  if (redisUrl) await removeRedisQueueData(redisUrl, queuePrefix);
  await testDatabase?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe(`SIGTERM to the server process (${mode})`, () => {
  it('answers every request in flight, then refuses connections, closes the pool and exits 0', async () => {
    // The model answers the analyses only when the test says so: they are in flight through the signal.
    const answers = holdAnswers();
    fake.defaultChat = () => ({
      content: researchProfileAnswer({ name: 'Answered While Stopping' }),
      heldUntil: answers.held,
    });
    const server = await startServer();
    const token = await login(server);
    if (testDatabase) {
      const connected = await testDatabase.db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${APPLICATION_NAME}`,
      );
      expect(connected.rows[0]?.n).toBeGreaterThan(0);
    }

    // Synchronous research analyses, each waiting for the model, on keep-alive connections.
    const keepAlive = () => new http.Agent({ keepAlive: true, maxSockets: 1 });
    const slowAgents = Array.from({ length: 3 }, keepAlive);
    const loadAgents = Array.from({ length: 6 }, keepAlive);
    const chatsBefore = fake.chatRequests().length;
    const slow = slowAgents.map((agent) =>
      send(agent, server.port, 'POST', '/api/auth/research-direction/process/', token, {
        research_description: 'Wei Zhang, Tsinghua University, works on graph neural networks. '.repeat(5),
      }),
    );
    // A steady load of quick requests, each loop on its own keep-alive connection, until the signal.
    let isSignalled = false;
    const sentBeforeSignal: Promise<Answer>[] = [];
    const loops = loadAgents.map(async (agent, index) => {
      while (!isSignalled) {
        const answer = send(agent, server.port, 'GET', index % 2 ? '/api/health' : '/api/auth/user/', token);
        sentBeforeSignal.push(answer);
        await answer;
      }
    });
    await waitFor('the three analyses to reach the model', () => fake.chatRequests().length === chatsBefore + 3);
    await waitFor('some load', () => sentBeforeSignal.length >= 60);

    isSignalled = true;
    server.child.kill('SIGTERM');
    await waitFor('the listener to close', () => isRefused(server.port));
    // Still running: it cannot finish before the analyses are answered.
    expect(server.child.exitCode).toBeNull();
    answers.release();
    await loops;
    const exit = await server.exited;
    expect(exit, server.output()).toEqual({ code: 0, signal: null });

    // Every request sent before the signal has its whole answer: a quick one either ran (200) or came in
    // as the server closed (503); the analyses ran to the end and told their clients the connection closes.
    const quick = await Promise.all(sentBeforeSignal);
    expect(quick.filter((answer) => answer.status !== 200 && answer.status !== 503)).toEqual([]);
    expect(quick.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(50);
    for (const answer of await Promise.all(slow)) {
      expect(answer).toMatchObject({ status: 200, connection: 'close' });
      expect(JSON.parse(answer.body ?? '')).toMatchObject({
        status: 'completed',
        result_data: { name: 'Answered While Stopping' },
      });
    }
    expect(server.output()).toContain('shutting down');
    // Drained without being cut short.
    expect(server.output()).not.toContain('no longer waiting');
    for (const agent of [...slowAgents, ...loadAgents]) agent.destroy();

    if (testDatabase) {
      const database = testDatabase;
      await waitFor('no connection of the stopped server in pg_stat_activity', async () => {
        const left = await database.db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${APPLICATION_NAME}`,
        );
        return left.rows[0]?.n === 0;
      });
    }
  }, 90_000);

  it('lets a running job finish, or hands it back on a second signal; after the restart each is done once', async () => {
    const descriptionOf = (marker: string) => `${marker}, Peking University, studies protein folding. `.repeat(5);
    const chatsFor = (marker: string) =>
      fake.chatRequests().filter((request) => JSON.stringify(request.body).includes(marker)).length;
    const submit = async (server: ServerProcess, token: string, marker: string) => {
      const response = await fetch(`${server.baseUrl}/api/auth/research-direction/process-async/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ research_description: descriptionOf(marker) }),
      });
      expect(response.status).toBe(202);
      return ((await response.json()) as { task_id: string }).task_id;
    };
    const taskRow = (taskId: string) =>
      withServerData((database) => new AsyncTaskRepository(database.db).findById(taskId));

    // 1. SIGTERM while the job waits for the model, which answers once the shutdown has begun: the job
    // finishes before the process exits.
    const answer = holdAnswers();
    fake.defaultChat = () => ({
      content: researchProfileAnswer({ name: 'Finished Before Exit' }),
      heldUntil: answer.held,
    });
    const first = await startServer();
    const finishedTask = await submit(first, await login(first), 'Finished-Marker');
    await waitFor('the first job to reach the model', () => chatsFor('Finished-Marker') === 1);
    first.child.kill('SIGTERM');
    await waitFor('the shutdown to begin', () => first.output().includes('shutting down'));
    answer.release();
    await stop(first);
    expect(first.output()).not.toContain('no longer waiting');

    // 2. The model never answers this one; a second signal stops the wait, and the job goes back to the queue.
    fake.defaultChat = (body) =>
      JSON.stringify(body).includes('Handed-Back-Marker') && chatsFor('Handed-Back-Marker') === 1
        ? { hang: true }
        : { content: researchProfileAnswer({ name: 'Done After Restart' }) };
    const second = await startServer();
    expect(await taskRow(finishedTask)).toMatchObject({ status: 'completed', attempts: 1 });
    const handedBackTask = await submit(second, await login(second), 'Handed-Back-Marker');
    await waitFor('the second job to reach the model', () => chatsFor('Handed-Back-Marker') === 1);
    second.child.kill('SIGTERM');
    await waitFor('the shutdown to begin', () => second.output().includes('shutting down'));
    await stop(second, 'SIGINT');
    expect(second.output()).toContain('no longer waiting for jobs in flight');

    // 3. After the restart the handed-back job runs again and completes; neither runs a further time.
    const third = await startServer();
    try {
      await waitFor(
        'the handed-back task to complete',
        async () => (await taskRow(handedBackTask))?.status === 'completed',
      );
      const [finished, handedBack] = await withServerData(async (database, research) => {
        const tasks = new AsyncTaskRepository(database.db);
        const jobs = await Promise.all(
          [finishedTask, handedBackTask].map((taskId) => waitForJobState(research, taskId, 'completed')),
        );
        expect(jobs.map((job) => job.returnvalue)).toMatchObject([{ outcome: 'completed' }, { outcome: 'completed' }]);
        return Promise.all([tasks.findById(finishedTask), tasks.findById(handedBackTask)]);
      });
      expect(finished).toMatchObject({
        status: 'completed',
        attempts: 1,
        resultData: { name: 'Finished Before Exit' },
      });
      expect(handedBack).toMatchObject({
        status: 'completed',
        attempts: 2,
        resultData: { name: 'Done After Restart' },
      });
      // One model call per attempt: the finished job never ran again, the handed-back one ran once more.
      expect([chatsFor('Finished-Marker'), chatsFor('Handed-Back-Marker')]).toEqual([1, 2]);
    } finally {
      await stop(third, 'SIGTERM');
    }
  }, 120_000);
});
