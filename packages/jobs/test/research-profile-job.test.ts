import { createAiServices } from '@radar/ai';
import { apiError, type FakeOpenAiServer, researchProfileAnswer, startFakeOpenAi } from '@radar/ai/testing';
import { AsyncTaskRepository, createAiRepositories, UserRepository } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { addUncheckedJob, testQueueConnection, waitForJobState } from '@radar/jobs/testing';
import { QUEUE_NAMES, type ResearchProfileJob } from '@radar/shared';
import { loadConfig } from '@radar/shared/server';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AppQueue, createQueue, type QueueConnection, startWorkerApp, type WorkerApp } from '../src';

/**
 * Research-direction tasks through the real queue (Redis when REDIS_URL is set, else BullMQ's
 * PostgreSQL backend) and the real openai client against a local OpenAI-compatible server.
 */

let database: TestDatabase;
let fake: FakeOpenAiServer;
let app: WorkerApp;
let queue: AppQueue<ResearchProfileJob>;
let connection: QueueConnection;
let tasks: AsyncTaskRepository;
let userId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeOpenAi();
  connection = testQueueConnection(database);
  // No retries inside one call, so a 5xx fails the attempt and the queue's own retry is exercised.
  const config = loadConfig({ OPENAI_BASE_URL: fake.url, LLM_MODEL: 'fake-chat', LLM_MAX_RETRIES: '0' });
  const logger = pino({ level: 'silent' });
  app = await startWorkerApp({
    connection,
    database,
    concurrency: 2,
    logger,
    ai: createAiServices(config, createAiRepositories(database.db), logger),
  });
  queue = createQueue<ResearchProfileJob>(connection, QUEUE_NAMES.researchProfile);
  tasks = new AsyncTaskRepository(database.db);
  userId = (await new UserRepository(database.db).create({ email: 'tasks@example.org' })).id;
});

afterAll(async () => {
  await app?.close();
  await queue?.obliterate({ force: true }).catch(() => {});
  await queue?.close();
  await fake?.close();
  await database?.close();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.defaultChat = () => ({ content: researchProfileAnswer() });
});

async function submit(text = 'Jane Okafor, Associate Professor at Stanford. '.repeat(10)) {
  const task = await tasks.create({ userId, kind: 'research-direction', input: { research_description: text } });
  await queue.add('analyse', { taskId: task.id }, { jobId: task.id });
  return task;
}

async function waitForTask(id: string, wanted: (status: string) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await tasks.findById(id);
    if (task && wanted(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${task?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('research-profile jobs', () => {
  it('moves a task pending -> processing (with progress) -> completed, storing the normalised result', async () => {
    fake.queueChat({ content: researchProfileAnswer(), delayMs: 800 });
    const task = await submit();
    expect(task.status).toBe('pending');
    const processing = await waitForTask(task.id, (status) => status === 'processing');
    expect(processing.progress).toBeGreaterThanOrEqual(5);
    expect(processing.startedAt).not.toBeNull();
    const done = await waitForTask(task.id, (status) => status === 'completed');
    expect(done).toMatchObject({ progress: 100, errorMessage: null, attempts: 1 });
    expect(done.finishedAt).not.toBeNull();
    expect(done.resultData).toMatchObject({
      name: 'Jane Okafor',
      email: 'jokafor@cs.stanford.edu',
      research_fields: ['computer-science', 'medicine'],
      source: 'llm',
      model: 'fake-chat',
    });
    const job = await waitForJobState(queue as AppQueue<unknown>, task.id, 'completed');
    expect(job.returnvalue).toEqual({ outcome: 'completed', source: 'llm', model: 'fake-chat' });
    expect(job.progress).toBe(90);
  });

  it('fails the task with a readable message when the model answers malformed JSON twice, without retrying the job', async () => {
    fake.queueChat({ content: 'I think this person works on AI.' }, { content: '{"name": ' });
    const task = await submit();
    const failed = await waitForTask(task.id, (status) => status === 'failed');
    expect(failed.errorMessage).toBe('AI 返回的结果格式不正确，请重试');
    expect(failed.resultData).toBeNull();
    const job = await waitForJobState(queue as AppQueue<unknown>, task.id, 'failed');
    expect(job.attemptsMade).toBe(1);
    expect(fake.chatRequests()).toHaveLength(2);
  });

  it('retries the job with backoff on a transient failure, then completes (one attempt counted each)', async () => {
    fake.queueChat(apiError(503, 'overloaded'), { content: researchProfileAnswer({ name: 'Second Try' }) });
    const task = await submit();
    const done = await waitForTask(task.id, (status) => status === 'completed');
    expect(done.attempts).toBe(2);
    expect(done.resultData).toMatchObject({ name: 'Second Try' });
    expect(fake.chatRequests()).toHaveLength(2);
  });

  it('fails the task after the last attempt when the provider stays unavailable', async () => {
    fake.defaultChat = () => apiError(500, 'down');
    const task = await submit();
    const failed = await waitForTask(task.id, (status) => status === 'failed', 40_000);
    expect(failed.errorMessage).toBe('AI 服务暂时不可用，请稍后重试');
    expect(failed.attempts).toBe(3);
  }, 60_000);

  it('is idempotent: a duplicate job for a finished task changes nothing and calls no model', async () => {
    const task = await submit();
    const done = await waitForTask(task.id, (status) => status === 'completed');
    const calls = fake.chatRequests().length;
    const again = await queue.add('analyse', { taskId: task.id }, { jobId: `${task.id}-duplicate` });
    const job = await waitForJobState(queue as AppQueue<unknown>, String(again.id), 'completed');
    expect(job.returnvalue).toEqual({ outcome: 'skipped', reason: 'task is missing or already finished' });
    expect(fake.chatRequests().length).toBe(calls);
    const unchanged = await tasks.findById(task.id);
    expect(unchanged?.finishedAt).toEqual(done.finishedAt);
    expect(unchanged?.attempts).toBe(1);
  });

  it('rejects an invalid payload at once', async () => {
    const jobId = await addUncheckedJob(connection, QUEUE_NAMES.researchProfile, 'analyse', { taskId: 'not-a-uuid' });
    const failed = await waitForJobState(queue, jobId, 'failed');
    expect(failed.attemptsMade).toBe(1);
    expect(failed.failedReason).toContain('invalid research-profile payload');
  });
});
