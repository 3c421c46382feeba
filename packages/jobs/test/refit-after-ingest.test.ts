import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createAiServices } from '@radar/ai';
import { syntheticPapers, topicWords } from '@radar/ai/testing';
import { createAiRepositories, EmbeddingRepository, UserRepository, VectorRepository } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { defaultIngestSettings } from '@radar/ingest';
import { arxivAtomFeed, testQueueConnection } from '@radar/jobs/testing';
import { QUEUE_NAMES } from '@radar/shared';
import { loadConfig } from '@radar/shared/server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AppQueue,
  createQueue,
  type JobQueue,
  type QueueConnection,
  removeRedisQueueData,
  requestEmbeddingsMaintenance,
  startWorkerApp,
  type WorkerApp,
} from '../src';
import { type LocalHttpServer, startLocalHttpServer } from './helpers/local-http';

/**
 * Issue 10: the first fit of the built-in embedding model follows the ingestion run that makes the
 * corpus large enough, as a deduplicated `maintain` job of the worker, instead of waiting for the
 * hourly schedule; and the refit leaves every profile on the new model.
 */

const PAPERS = 60; // above the 50 documents the built-in model is first fitted from
let database: TestDatabase;
let connection: QueueConnection;
let http: LocalHttpServer;
let app: WorkerApp | undefined;
let tmp: string;
const queues: AppQueue<unknown>[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  connection = testQueueConnection(database);
  const feed = arxivAtomFeed(
    syntheticPapers(PAPERS).map((paper, i) => ({
      id: `2611.${String(10_001 + i)}`,
      title: paper.title,
      abstract: paper.abstract,
      categories: ['cs.LG'],
      published: new Date(Date.now() - (i + 1) * 60_000).toISOString().replace(/\.\d{3}/, ''),
      authors: ['A. Author'],
    })),
  );
  http = await startLocalHttpServer({
    '/arxiv/api/query': (_request, response, url) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml; charset=utf-8' });
      response.end(url.searchParams.get('start') === '0' ? feed : arxivAtomFeed([]));
    },
  });
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-refit-'));
  const sourcesFile = path.join(tmp, 'sources.json');
  await fs.writeFile(
    sourcesFile,
    JSON.stringify({
      // Scheduled once a year: the test runs it now, as its cron would.
      sources: [
        {
          name: 'arxiv-lg',
          kind: 'arxiv',
          categories: ['cs.LG'],
          schedule: '0 0 1 1 *',
          baseUrl: `${http.url}/arxiv/api/query`,
        },
      ],
    }),
  );
  // A profile confirmed while the corpus was empty (hashing model).
  await new UserRepository(database.db).create({
    email: 'refit@example.org',
    researchSummaryEn: `I study ${topicWords('climate').join(' ')}.`,
  });
  const logger = pino({ level: 'silent' });
  app = await startWorkerApp({
    connection,
    database,
    concurrency: 2,
    logger,
    // The built-in embedder for everything: content-embed jobs run beside the refit, as in production.
    ai: createAiServices(loadConfig({}), createAiRepositories(database.db), logger),
    ingest: defaultIngestSettings({ enabled: true, sourcesFile, arxivMinIntervalMs: 0 }),
  });
});

afterAll(async () => {
  await app?.close();
  await Promise.all(queues.map((queue) => queue.close()));
  if (process.env.REDIS_URL && connection) await removeRedisQueueData(process.env.REDIS_URL, connection.prefix);
  await http?.close();
  await database?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

function queue(name: string): AppQueue<unknown> {
  const created = createQueue<unknown>(connection, name);
  queues.push(created);
  return created;
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('refit after ingestion (worker)', () => {
  it('a scheduled run that makes the corpus large enough fits the built-in model at once, profiles included', async () => {
    const embeddings = queue(QUEUE_NAMES.embeddings);
    await queue(QUEUE_NAMES.ingest).add('source:arxiv-lg', { source: 'arxiv-lg' });

    const models = new EmbeddingRepository(database.db);
    const vectors = new VectorRepository(database.db);
    const active = await waitFor('every vector on a fitted model', async () => {
      const model = await models.getActiveModel();
      if (model?.name !== 'tfidf-lsa') return undefined;
      const stale = await vectors.countStale(model.id);
      return stale.users + stale.papers + stale.news === 0 ? model : undefined;
    });
    expect(active).toMatchObject({ provider: 'builtin', dimension: 32 });
    expect(await vectors.countCurrent(active.id)).toEqual({ users: 1, papers: PAPERS, news: 0 });

    // The fit was a maintain job queued on demand (the one the run asked for, or the start-up one if
    // the run's request was deduplicated into it), not the hourly scheduler's.
    const refit = await waitFor('the maintain job that refitted to complete', async () =>
      (await embeddings.getJobs(['completed'])).find(
        (job) => (job.returnvalue as { refitted?: boolean } | undefined)?.refitted,
      ),
    );
    expect(refit.name).toBe('maintain-embeddings');
    expect(refit.repeatJobKey).toBeUndefined();
    expect(refit.returnvalue).toMatchObject({ refit: 'first fit', refits: 1 });
  }, 90_000);

  it('queues one maintain job however often it is asked while one waits', async () => {
    // A queue no worker serves, so the job stays waiting.
    const idle = queue(`${QUEUE_NAMES.embeddings}-unserved`) as unknown as JobQueue<'embeddings'>;
    await Promise.all([requestEmbeddingsMaintenance(idle), requestEmbeddingsMaintenance(idle)]);
    await requestEmbeddingsMaintenance(idle);
    expect(await idle.getJobCounts('waiting')).toEqual({ waiting: 1 });
    await idle.obliterate({ force: true });
  });
});
