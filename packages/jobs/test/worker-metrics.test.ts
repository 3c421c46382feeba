import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAiServices } from '@radar/ai';
import { type OpenAiTestServer, startOpenAiTestServer, TestEmbeddingProvider } from '@radar/ai/testing';
import { createAiRepositories, sql } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { defaultIngestSettings } from '@radar/ingest';
import { addUncheckedJob, testQueueConnection, waitForJobState } from '@radar/jobs/testing';
import { AppMetrics, type MetricsServer, startMetricsServer } from '@radar/metrics';
import { type Scrape, scrapeBetweenEqualReads, scrapeMetrics, scrapeUntil } from '@radar/metrics/testing';
import { QUEUE_NAMES } from '@radar/shared';
import { loadConfig } from '@radar/shared/server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AppQueue,
  createQueue,
  type QueueConnection,
  removeRedisQueueData,
  startWorkerApp,
  type WorkerApp,
} from '../src';
import { fileRoute, type LocalHttpServer, startLocalHttpServer } from './helpers/local-http';

/**
 * The worker app's metrics, scraped over HTTP from the listener the worker process serves, on Redis or
 * PostgreSQL: job durations and failures from real jobs, items counted per source and kind by real
 * ingestion runs (feeds served locally), the queues' job counts, and the embedding backlog against the
 * database.
 */

const FIXTURES = fileURLToPath(new URL('../../ingest/test/fixtures/ingest/', import.meta.url));
// Never due during the test: runs are queued by the test itself.
const NEVER = '0 0 1 1 *';

let database: TestDatabase;
let connection: QueueConnection;
let feeds: LocalHttpServer;
let ai: OpenAiTestServer;
let tmp: string;
let app: WorkerApp;
let metricsServer: MetricsServer;
let ingestQueue: AppQueue<unknown>;

const scrape = () => scrapeMetrics(metricsServer.port);

const completedRuns = (metrics: Scrape) =>
  metrics.value('radar_job_duration_seconds_count', { queue: 'ingest', outcome: 'completed' });

/** Nothing waiting or running in any queue, by the gauge itself (the schedules keep their next runs delayed). */
const isIdle = (metrics: Scrape) =>
  metrics.samples
    .filter((sample) => sample.name === 'radar_queue_jobs' && ['waiting', 'active'].includes(sample.labels.state ?? ''))
    .every((sample) => sample.value === 0);

/** The database's count of items not on the active model, written independently of the repository's query. */
async function itemsWithoutActiveVector(): Promise<{ papers: number; news: number }> {
  const active = sql`(SELECT id FROM radar.embedding_models WHERE is_active)`;
  const result = await database.db.execute<{ papers: number; news: number }>(
    sql`SELECT
          (SELECT count(*)::int FROM radar.papers WHERE embedding_model_id IS NULL OR embedding_model_id NOT IN ${active}) AS papers,
          (SELECT count(*)::int FROM radar.news_items WHERE embedding_model_id IS NULL OR embedding_model_id NOT IN ${active}) AS news`,
  );
  return result.rows[0] ?? { papers: -1, news: -1 };
}

beforeAll(async () => {
  database = await createTestDatabase();
  connection = testQueueConnection(database);
  ai = await startOpenAiTestServer();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-metrics-'));
  feeds = await startLocalHttpServer({
    '/feeds/ecology.rdf': fileRoute('application/rdf+xml', path.join(FIXTURES, 'journal-rss1.rdf')),
    '/feeds/news.xml': fileRoute('application/rss+xml; charset=UTF-8', path.join(FIXTURES, 'news-wordpress-rss2.xml')),
  });
  const sourcesFile = path.join(tmp, 'sources.json');
  await fs.writeFile(
    sourcesFile,
    JSON.stringify({
      sources: [
        {
          name: 'ecology',
          kind: 'rss',
          url: `${feeds.url}/feeds/ecology.rdf`,
          journal: { name: 'Frontiers of Demo Ecology', issn: '2167-8359' },
          schedule: NEVER,
        },
        {
          name: 'institute-news',
          kind: 'news-rss',
          url: `${feeds.url}/feeds/news.xml`,
          institute: 'Demo Institute',
          schedule: NEVER,
        },
      ],
    }),
  );
  const logger = pino({ level: 'silent' });
  const metrics = new AppMetrics();
  metricsServer = await startMetricsServer({ metrics, port: 0, host: '127.0.0.1', logger });
  app = await startWorkerApp({
    connection,
    database,
    concurrency: 2,
    logger,
    ai: createAiServices(loadConfig({}), createAiRepositories(database.db), logger),
    ingest: defaultIngestSettings({ enabled: true, sourcesFile, httpTimeoutMs: 5_000, summariesEnabled: false }),
    content: { embedder: async () => new TestEmbeddingProvider(ai.baseUrl), llm: undefined },
    metrics,
  });
  ingestQueue = createQueue<unknown>(connection, QUEUE_NAMES.ingest);
});

afterAll(async () => {
  await app?.close();
  await metricsServer?.close();
  await ingestQueue?.close();
  if (process.env.REDIS_URL && connection) await removeRedisQueueData(process.env.REDIS_URL, connection.prefix);
  await feeds?.close();
  await ai?.close();
  await database?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('worker metrics', () => {
  it('reports every queue and state before any job ran', async () => {
    const metrics = await scrape();
    for (const queue of Object.values(QUEUE_NAMES)) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) {
        expect(metrics.value('radar_queue_jobs', { queue, state }), `${queue} ${state}`).toBeGreaterThanOrEqual(0);
      }
    }
    // The worker queues each never-run source's first run at start, which may already be storing items:
    // the backlog is compared with the database's own count, read before and after the scrape.
    const settled = await scrapeBetweenEqualReads(itemsWithoutActiveVector, scrape);
    expect(settled.scrape.value('radar_embedding_backlog', { kind: 'papers' })).toBe(settled.expected.papers);
    expect(settled.scrape.value('radar_embedding_backlog', { kind: 'news' })).toBe(settled.expected.news);
  });

  it('counts the items each ingestion run stored, per source and kind, and times the runs', async () => {
    const runs = await Promise.all(
      ['ecology', 'institute-news'].map((source) => ingestQueue.add(source, { source }, { jobId: `run-${source}` })),
    );
    for (const run of runs) await waitForJobState(ingestQueue, String(run.id), 'completed');

    const stored = await database.db.execute<{ source: string; papers: number; news: number }>(
      sql`SELECT s.source,
                 (SELECT count(*)::int FROM radar.papers p WHERE p.source = s.source) AS papers,
                 (SELECT count(*)::int FROM radar.news_items n WHERE n.source = s.source) AS news
          FROM (VALUES ('ecology'), ('institute-news')) AS s(source) ORDER BY s.source`,
    );
    expect(stored.rows).toEqual([
      { source: 'ecology', papers: 2, news: 0 },
      { source: 'institute-news', papers: 0, news: 2 },
    ]);
    // Four runs: the worker queued the first run of each never-run source at start (syncActiveSources),
    // then the two above, which find nothing new: the items are counted once, by whichever run stored them.
    const metrics = await scrapeUntil(metricsServer.port, (scraped) => completedRuns(scraped) === 4);
    expect(metrics.value('radar_ingested_items_total', { source: 'ecology', kind: 'papers' })).toBe(2);
    expect(metrics.value('radar_ingested_items_total', { source: 'institute-news', kind: 'news' })).toBe(2);
    expect(metrics.value('radar_ingested_items_total', { source: 'ecology', kind: 'news' })).toBeUndefined();
    expect(metrics.value('radar_job_duration_seconds_sum', { queue: 'ingest', outcome: 'completed' })).toBeGreaterThan(
      0,
    );
    expect(metrics.value('radar_jobs_failed_total', { queue: 'ingest' })).toBeUndefined();
  });

  it('shows each source’s flow: last run, items added in the last day and week, failures, next run', async () => {
    const metrics = await scrapeUntil(
      metricsServer.port,
      // Items are stored before a run records its success: wait for both on both sources (one scrape's
      // source read is shared for a second, so it may predate the last run's end).
      (scraped) =>
        ['ecology', 'institute-news'].every(
          (source) =>
            scraped.value('radar_source_items_added', { source, window: '1d' }) === 2 &&
            scraped.value('radar_source_last_success_timestamp_seconds', { source }) !== undefined,
        ),
    );
    for (const [source, items] of [
      ['ecology', 2],
      ['institute-news', 2],
    ] as const) {
      expect(metrics.value('radar_source_items_added', { source, window: '1d' })).toBe(items);
      expect(metrics.value('radar_source_items_added', { source, window: '7d' })).toBe(items);
      expect(metrics.value('radar_source_consecutive_failures', { source })).toBe(0);
      expect(metrics.value('radar_source_failing_since_timestamp_seconds', { source })).toBeUndefined();
      const lastRun = metrics.value('radar_source_last_run_timestamp_seconds', { source }) ?? 0;
      expect(Date.now() / 1000 - lastRun).toBeGreaterThanOrEqual(0);
      expect(Date.now() / 1000 - lastRun).toBeLessThan(600);
      expect(metrics.value('radar_source_last_success_timestamp_seconds', { source })).toBeGreaterThanOrEqual(lastRun);
      // Scheduled on 1 January ('0 0 1 1 *'): the scheduler's next run, in the future.
      const next = new Date((metrics.value('radar_source_next_run_timestamp_seconds', { source }) ?? 0) * 1000);
      expect(next.getTime()).toBeGreaterThan(Date.now());
      expect([next.getMonth(), next.getDate(), next.getHours(), next.getMinutes()]).toEqual([0, 1, 0, 0]);
    }
  });

  it('does not count items again when a source is run again and has nothing new', async () => {
    const again = await ingestQueue.add('ecology', { source: 'ecology' }, { jobId: 'run-ecology-again' });
    await waitForJobState(ingestQueue, String(again.id), 'completed');
    const metrics = await scrapeUntil(metricsServer.port, (scraped) => completedRuns(scraped) === 5);
    expect(metrics.value('radar_ingested_items_total', { source: 'ecology', kind: 'papers' })).toBe(2);
  });

  it('counts a failed job and shows it among the queue’s failed jobs', async () => {
    // An invalid payload fails at once, without retries (UnrecoverableError).
    // Past the producers' check, as a job from an older version would be.
    const bad = await addUncheckedJob(connection, QUEUE_NAMES.ingest, 'bad', { source: 'Not A Source Name!' });
    await waitForJobState(ingestQueue, bad, 'failed');
    const metrics = await scrapeUntil(
      metricsServer.port,
      (scraped) => scraped.value('radar_jobs_failed_total', { queue: 'ingest' }) === 1,
    );
    expect(metrics.value('radar_job_duration_seconds_count', { queue: 'ingest', outcome: 'failed' })).toBe(1);
    expect(metrics.value('radar_queue_jobs', { queue: 'ingest', state: 'failed' })).toBe(1);
    expect(metrics.value('radar_queue_jobs', { queue: QUEUE_NAMES.keywordAlerts, state: 'failed' })).toBe(0);
  });

  it('reports the embedding backlog the database holds', async () => {
    // The content-embed jobs the runs queued have finished.
    await scrapeUntil(metricsServer.port, isIdle);
    const settled = await scrapeBetweenEqualReads(itemsWithoutActiveVector, scrape);
    expect(settled.scrape.value('radar_embedding_backlog', { kind: 'papers' })).toBe(settled.expected.papers);
    expect(settled.scrape.value('radar_embedding_backlog', { kind: 'news' })).toBe(settled.expected.news);

    // Vectors lost (a model change does the same): the next scrape shows them, with no job in between.
    await database.db.execute(
      sql`UPDATE radar.papers SET embedding = NULL, embedding_model_id = NULL WHERE source = 'ecology'`,
    );
    await database.db.execute(
      sql`UPDATE radar.news_items SET embedding = NULL, embedding_model_id = NULL
          WHERE id = (SELECT min(id) FROM radar.news_items)`,
    );
    const lost = await scrapeBetweenEqualReads(itemsWithoutActiveVector, scrape);
    expect(lost.expected.papers).toBe(2);
    expect(lost.expected.news).toBeGreaterThanOrEqual(1);
    expect(lost.scrape.value('radar_embedding_backlog', { kind: 'papers' })).toBe(lost.expected.papers);
    expect(lost.scrape.value('radar_embedding_backlog', { kind: 'news' })).toBe(lost.expected.news);
  });
});
