import { fileURLToPath } from 'node:url';
import { createIngestRepositories, ReaderQueryRepository, sql, UserRepository } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { defaultIngestSettings, type IngestSettings, READER_QUERY_SOURCE } from '@radar/ingest';
import { testQueueConnection, waitForJobState } from '@radar/jobs/testing';
import { QUEUE_NAMES } from '@radar/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type AppQueue,
  type AppWorker,
  createQueue,
  createReaderQueriesProcessor,
  createWorker,
  type QueueConnection,
  removeRedisQueueData,
} from '../src';
import { fileRoute, type LocalHttpServer, startLocalHttpServer } from './helpers/local-http';

/**
 * The per-reader OpenAlex query on a real database and queue backend, against a local HTTP server
 * serving a recorded real OpenAlex works page: a reader with a summary gets the papers (through the
 * ordinary source run, under one source name) and their embedding jobs, the request carries the
 * summary's terms and the key, the same day brings no second call, readers without a summary (or
 * disabled, or unverified) are never queried, the daily budget stops the run, and without a key
 * nothing is called at all.
 */

const OPENALEX_PAGE = fileURLToPath(
  new URL('../../ingest/test/fixtures/recorded/openalex_works_3results.json', import.meta.url),
);
const SUMMARY =
  'My research focuses on graph neural networks for molecular property prediction and drug discovery, ' +
  'combining geometric deep learning with quantum chemistry.';

let database: TestDatabase;
let connection: QueueConnection;
let http: LocalHttpServer;
let queue: AppQueue<unknown>;
let embedQueue: AppQueue<unknown>;
let workers: AppWorker<unknown>[] = [];
let users: UserRepository;
let jobCount = 0;

function settings(overrides: Partial<IngestSettings> = {}): IngestSettings {
  return defaultIngestSettings({
    openAlexApiKey: 'test-openalex-key',
    openAlexBaseUrl: `${http.url}/openalex`,
    openAlexReaderQueriesPerDay: 500,
    httpMaxAttempts: 1,
    ...overrides,
  });
}

/** Starts a worker for the queue with these settings (replacing the previous one). */
async function useWorker(ingest: IngestSettings) {
  await Promise.all(workers.map((worker) => worker.close()));
  const processor = createReaderQueriesProcessor({
    repositories: createIngestRepositories(database.db),
    settings: ingest,
    enqueue: (name, jobName, data) => (name === QUEUE_NAMES.contentEmbed ? embedQueue : queue).add(jobName, data),
  });
  workers = [createWorker(connection, QUEUE_NAMES.readerQueries, processor, { concurrency: 1 }) as AppWorker<unknown>];
}

async function runJob(): Promise<Record<string, unknown>> {
  jobCount++;
  const job = await queue.add('query-openalex-for-readers', {}, { jobId: `run-${jobCount}` });
  const done = await waitForJobState(queue, job.id as string, 'completed');
  return done.returnvalue as Record<string, unknown>;
}

const openAlexRequests = () => http.requests.filter((request) => request.path.startsWith('/openalex/works'));

async function makeReader(email: string, options: { summary?: string; verified?: boolean; disabled?: boolean }) {
  const user = await users.create({
    email,
    isEmailVerified: options.verified ?? true,
    passwordHash: 'argon2id-hash',
    researchSummaryEn: options.summary ?? '',
  });
  if (options.disabled)
    await database.db.execute(sql`UPDATE radar.users SET disabled_at = now() WHERE id = ${user.id}`);
  return user;
}

beforeAll(async () => {
  database = await createTestDatabase();
  users = new UserRepository(database.db);
  http = await startLocalHttpServer({ '/openalex/works': fileRoute('application/json', OPENALEX_PAGE) });
  // One connection (one queue prefix) for the producers and every worker.
  connection = testQueueConnection(database);
  queue = createQueue<unknown>(connection, QUEUE_NAMES.readerQueries);
  embedQueue = createQueue<unknown>(connection, QUEUE_NAMES.contentEmbed);
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.close()));
  for (const each of [queue, embedQueue]) {
    await each?.obliterate({ force: true }).catch(() => {});
    await each?.close();
  }
  if (process.env.REDIS_URL && connection) await removeRedisQueueData(process.env.REDIS_URL, connection.prefix);
  await http?.close();
  await database?.close();
});

beforeEach(async () => {
  http.requests.length = 0;
  await database.db.execute(sql`DELETE FROM radar.reader_queries`);
  await database.db.execute(sql`DELETE FROM radar.users`);
});

describe('per-reader OpenAlex query', () => {
  it('stores the papers a reader summary finds, once a day, and skips readers without a summary', async () => {
    await useWorker(settings());
    const reader = await makeReader('reader@example.org', { summary: SUMMARY });
    const silent = await makeReader('no-summary@example.org', {});
    await makeReader('disabled@example.org', { summary: SUMMARY, disabled: true });
    await makeReader('unverified@example.org', { summary: SUMMARY, verified: false });

    const first = await runJob();
    expect(first).toMatchObject({ outcome: 'success', queried: 1, withoutTerms: 0, failed: 0, calls: 1, added: 3 });

    // One call, for the one eligible reader, carrying the summary's terms OR-ed, the key, and the window.
    const [request] = openAlexRequests();
    expect(openAlexRequests()).toHaveLength(1);
    const url = new URL(request?.path ?? '', http.url);
    const search = url.searchParams.get('search') ?? '';
    expect(search).toContain('"graph neural networks"');
    expect(search).toContain('"molecular property prediction"');
    expect(search).toContain('"drug discovery"');
    expect(search.split(' OR ').length).toBeGreaterThanOrEqual(3);
    expect(url.searchParams.get('api_key')).toBe('test-openalex-key');
    expect(url.searchParams.get('sort')).toBe('relevance_score:desc');
    expect(url.searchParams.get('filter')).toMatch(/^from_publication_date:\d{4}-\d{2}-\d{2}$/);
    const from = url.searchParams.get('filter')?.split(':')[1] ?? '';
    const daysBack = (Date.now() - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
    expect(daysBack).toBeGreaterThan(2);
    expect(daysBack).toBeLessThan(4);

    // The papers are stored like any source's, under the shared source name, and get their vectors.
    const papers = await database.db.execute<{ title: string; source: string }>(
      sql`SELECT title, source FROM radar.papers ORDER BY title`,
    );
    expect(papers.rows).toHaveLength(3);
    expect(papers.rows.every((row) => row.source === READER_QUERY_SOURCE)).toBe(true);
    expect(papers.rows.map((row) => row.title)).toContain('A review on the attention mechanism of deep learning');
    const embedJobs = await embedQueue.getJobs(['waiting', 'prioritized', 'delayed']);
    expect(embedJobs.flatMap((job) => (job.data as { ids: number[] }).ids)).toHaveLength(3);

    // Recorded per reader: when, with which terms, calls and papers; nothing for the reader without a summary.
    const repository = new ReaderQueryRepository(database.db);
    const row = await repository.get(reader.id);
    expect(row?.terms).toContain('graph neural networks');
    expect(row).toMatchObject({ calls: 1, added: 3, lastError: null });
    expect(await repository.get(silent.id)).toBeUndefined();
    const state = await database.db.execute<{ status: string; total_added: number }>(
      sql`SELECT status, total_added FROM radar.ingest_sources WHERE name = ${READER_QUERY_SOURCE}`,
    );
    expect(state.rows[0]).toMatchObject({ status: 'succeeded', total_added: 3 });

    // The same day: no call.
    const second = await runJob();
    expect(second).toMatchObject({ outcome: 'success', queried: 0, calls: 0 });
    expect(openAlexRequests()).toHaveLength(1);

    // A day later the reader is due again (the papers are known by then: nothing new is added).
    await database.db.execute(
      sql`UPDATE radar.reader_queries SET last_run_at = now() - interval '25 hours' WHERE user_id = ${reader.id}`,
    );
    const later = await runJob();
    expect(later).toMatchObject({ outcome: 'success', queried: 1, calls: 1, added: 0 });
    expect(openAlexRequests()).toHaveLength(2);
  });

  it('stops at the daily budget of OpenAlex calls', async () => {
    await useWorker(settings({ openAlexReaderQueriesPerDay: 1 }));
    await makeReader('first@example.org', { summary: SUMMARY });
    await makeReader('second@example.org', { summary: 'I study perovskite solar cells and charge transport.' });

    expect(await runJob()).toMatchObject({ queried: 1, calls: 1, budgetLeft: 0 });
    expect(await runJob()).toMatchObject({ queried: 0, calls: 0, budgetLeft: 0 });
    expect(openAlexRequests()).toHaveLength(1);
  });

  it('makes no call without an OpenAlex key', async () => {
    await useWorker(settings({ openAlexApiKey: undefined }));
    const reader = await makeReader('reader@example.org', { summary: SUMMARY });

    expect(await runJob()).toEqual({ outcome: 'skipped', reason: 'OPENALEX_API_KEY is not set' });
    expect(openAlexRequests()).toHaveLength(0);
    expect(await new ReaderQueryRepository(database.db).get(reader.id)).toBeUndefined();
  });
});
