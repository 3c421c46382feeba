import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAiServices } from '@radar/ai';
import { createAiRepositories, createIngestRepositories, SourceStateRepository, sql, UserRepository } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { catalogueEntries, defaultIngestSettings, fieldsOf, type IngestSettings, resolveSources } from '@radar/ingest';
import { testQueueConnection, waitForJobState } from '@radar/jobs/testing';
import { type IngestJob, type MaintenanceJob, QUEUE_NAMES } from '@radar/shared';
import { loadConfig } from '@radar/shared/server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AppQueue,
  createQueue,
  type QueueConnection,
  removeRedisQueueData,
  SOURCE_SCHEDULER_PREFIX,
  startWorkerApp,
  syncActiveSources,
  type WorkerApp,
} from '../src';
import { type LocalHttpServer, startLocalHttpServer } from './helpers/local-http';

/**
 * The built-in catalogue following its readers, on a real database and real BullMQ (Redis or the
 * PostgreSQL backend): with no sources file, nothing runs until a verified reader names a field; then
 * the sync schedules that field's entries and queues their first run at once (once, however often it
 * runs), the worker fetches them from a local HTTP server standing in for every catalogue host (a
 * recorded arXiv API answer for arXiv's query path, 404 elsewhere), and when the last reader of the
 * field is disabled the schedules go and a queued run is skipped. Nothing here depends on which
 * entries the catalogue holds beyond "some entry serves materials-science".
 */

const ARXIV_ANSWER = fileURLToPath(new URL('../../ingest/test/fixtures/ingest/arxiv-api-2025-11.xml', import.meta.url));
const FIELD = 'materials-science';

let database: TestDatabase;
let connection: QueueConnection;
let http: LocalHttpServer;
let settings: IngestSettings;
let ingestQueue: AppQueue<IngestJob>;
let maintenanceQueue: AppQueue<MaintenanceJob>;
let app: WorkerApp | undefined;
let tmp: string;

const fieldEntries = () =>
  catalogueEntries().filter((entry) => fieldsOf(entry).includes(FIELD) && !entry.requires?.length);
const schedulerKeys = async () =>
  (await ingestQueue.getJobSchedulers(0, -1))
    .map((scheduler) => scheduler.key)
    .filter((key) => key.startsWith(SOURCE_SCHEDULER_PREFIX))
    .sort();

async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs the sync as the maintenance queue does (what a saved profile and the 10-minute schedule ask for). */
async function syncThroughMaintenance(): Promise<{ firstRuns: string[]; scheduled: string[]; removed: string[] }> {
  const job = await maintenanceQueue.add('sync-sources', { task: 'sync-sources' });
  const done = await waitForJobState(maintenanceQueue as AppQueue<unknown>, String(job.id), 'completed');
  return done.returnvalue as { firstRuns: string[]; scheduled: string[]; removed: string[] };
}

beforeAll(async () => {
  database = await createTestDatabase();
  connection = testQueueConnection(database);
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-catalogue-'));
  http = await startLocalHttpServer({
    '/api/query': async (_request, response, url) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml; charset=utf-8' });
      // One page: later pages of the same query are empty.
      if (Number(url.searchParams.get('start') ?? 0) > 0) {
        response.end(
          '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"><opensearch:totalResults>0</opensearch:totalResults></feed>',
        );
      } else response.end(await fs.readFile(ARXIV_ANSWER));
    },
  });
  settings = defaultIngestSettings({
    enabled: true,
    sourcesFile: path.join(tmp, 'absent.yaml'),
    catalogueOriginForTests: http.url,
    arxivMinIntervalMs: 50,
    httpTimeoutMs: 5_000,
    httpMaxAttempts: 1,
    jobAttempts: 1,
    jobBackoffMs: 100,
    leaseWaitMs: 5_000,
  });
  ingestQueue = createQueue<IngestJob>(connection, QUEUE_NAMES.ingest);
  maintenanceQueue = createQueue<MaintenanceJob>(connection, QUEUE_NAMES.maintenance);
});

afterAll(async () => {
  await app?.close();
  await ingestQueue?.close();
  await maintenanceQueue?.close();
  if (process.env.REDIS_URL && connection) await removeRedisQueueData(process.env.REDIS_URL, connection.prefix);
  await http?.close();
  await database?.close();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

describe('catalogue sources follow their readers', () => {
  it('schedules nothing without readers; a reader naming a field schedules its entries and queues each first run once', async () => {
    expect(fieldEntries().length).toBeGreaterThan(0);
    const none = await syncActiveSources({
      repositories: createIngestRepositories(database.db),
      states: new SourceStateRepository(database.db),
      settings,
      queue: ingestQueue,
    });
    expect(none).toMatchObject({ origin: 'built-in catalogue', scheduled: [], firstRuns: [] });
    expect(await schedulerKeys()).toEqual([]);

    const users = new UserRepository(database.db);
    // Not readers: an unverified account, and a verified one naming no field.
    await users.create({ email: 'unverified@example.org', isEmailVerified: false, researchFields: [FIELD] });
    await users.create({ email: 'nofield@example.org', isEmailVerified: true });
    expect(
      (
        await syncActiveSources({
          repositories: createIngestRepositories(database.db),
          states: new SourceStateRepository(database.db),
          settings,
          queue: ingestQueue,
        })
      ).scheduled,
    ).toEqual([]);

    await users.create({ email: 'reader@example.org', isEmailVerified: true, researchFields: [FIELD] });
    const resolved = await resolveSources({ repositories: createIngestRepositories(database.db), settings });
    const expected = resolved.active.map((source) => source.name).sort();
    expect(expected).toEqual(
      fieldEntries()
        .map((entry) => entry.name)
        .sort(),
    );
    for (const entry of resolved.entries) {
      expect(entry.active).toBe(expected.includes(entry.source.name));
      if (entry.active) expect(entry).toMatchObject({ readers: 1, readerFields: [FIELD] });
    }

    const first = await syncActiveSources({
      repositories: createIngestRepositories(database.db),
      states: new SourceStateRepository(database.db),
      settings,
      queue: ingestQueue,
    });
    expect([...first.firstRuns].sort()).toEqual(expected);
    expect(await schedulerKeys()).toEqual(expected.map((name) => `${SOURCE_SCHEDULER_PREFIX}${name}`).sort());
    const again = await syncActiveSources({
      repositories: createIngestRepositories(database.db),
      states: new SourceStateRepository(database.db),
      settings,
      queue: ingestQueue,
    });
    expect(again.firstRuns).toEqual([]);
    const queued = (await ingestQueue.getJobs(['waiting', 'prioritized'])).map((job) => job.data.source);
    expect(queued.sort()).toEqual(expected);
    const states = new SourceStateRepository(database.db);
    for (const name of expected) {
      expect((await states.get(name))?.firstFetchRequestedAt).toBeInstanceOf(Date);
    }
  });

  it('the worker runs the queued first runs against the catalogue hosts; a later sync queues none again', async () => {
    const logger = pino({ level: 'silent' });
    app = await startWorkerApp({
      connection,
      database,
      concurrency: 1,
      logger,
      ai: createAiServices(loadConfig({}), createAiRepositories(database.db), logger),
      ingest: settings,
      recurringJobs: false,
    });
    const states = new SourceStateRepository(database.db);
    const names = fieldEntries().map((entry) => entry.name);
    await waitFor('every first run to finish', async () => {
      const rows = await Promise.all(names.map((name) => states.get(name)));
      return rows.every((row) => row?.lastFinishedAt);
    });
    const arxiv = fieldEntries().filter((entry) => entry.kind === 'arxiv');
    for (const entry of arxiv) {
      expect(await states.get(entry.name)).toMatchObject({ status: 'succeeded' });
    }
    if (arxiv.length) {
      const papers = await database.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM radar.papers`);
      expect(Number(papers.rows[0]?.n)).toBeGreaterThan(0);
      expect(
        http.requests.some((request) => request.path.includes('cond-mat') || request.path.startsWith('/api/query')),
      ).toBe(true);
    }
    expect((await syncThroughMaintenance()).firstRuns).toEqual([]);
  }, 60_000);

  it('when the last reader of the field is disabled, its schedules go and a queued run is skipped', async () => {
    await database.db.execute(sql`UPDATE radar.users SET disabled_at = now() WHERE email = 'reader@example.org'`);
    const sync = await syncThroughMaintenance();
    expect(sync.scheduled).toEqual([]);
    expect([...sync.removed].sort()).toEqual(
      fieldEntries()
        .map((entry) => entry.name)
        .sort(),
    );
    expect(await schedulerKeys()).toEqual([]);

    const [entry] = fieldEntries();
    if (!entry) throw new Error('no catalogue entry serves materials-science');
    const { name } = entry;
    const job = await ingestQueue.add(`ingest:${name}`, { source: name });
    const done = await waitForJobState(ingestQueue as AppQueue<unknown>, String(job.id), 'completed');
    expect(done.returnvalue).toEqual({
      outcome: 'skipped',
      reason: `source "${name}" is off: no reader names ${fieldsOf(entry).join(', ')}`,
    });
  });
});
