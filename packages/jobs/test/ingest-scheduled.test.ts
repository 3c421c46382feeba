import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAiServices } from '@radar/ai';
import {
  type OpenAiTestServer,
  startOpenAiTestServer,
  TestEmbeddingProvider,
  TestLanguageModel,
} from '@radar/ai/testing';
import { createAiRepositories, type IngestSourceRow, SourceStateRepository, sql } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { DatabasePolitenessLease, defaultIngestSettings, type IngestSettings } from '@radar/ingest';
import { testQueueConnection } from '@radar/jobs/testing';
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
import { type LocalHttpServer, startLocalHttpServer } from './helpers/local-http';

/**
 * The scheduled path end to end: a sources file, the worker app upserting one BullMQ job scheduler per
 * source (on Redis or PostgreSQL), runs against a local HTTP server serving the fixtures (with 429 and
 * 503 answers, a slow server, a document that is not a feed, a server that keeps failing), source
 * state, arXiv politeness, and the embedding and summary jobs that follow, against a local
 * OpenAI-compatible server.
 */

const FIXTURES = fileURLToPath(new URL('../../ingest/test/fixtures/ingest/', import.meta.url));
const fixture = (name: string) => fs.readFile(path.join(FIXTURES, name));
const ARXIV_INTERVAL_MS = 300;

let database: TestDatabase;
let connection: QueueConnection;
let http: LocalHttpServer;
let ai: OpenAiTestServer;
let app: WorkerApp | undefined;
let tmp: string;
let settings: IngestSettings;
let ingestQueue: AppQueue<unknown>;
const hits = { arxiv503: 0, openalex429: 0 };

const EMPTY_ARXIV_PAGE = `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns="http://www.w3.org/2005/Atom">
  <id>https://arxiv.org/api/empty</id><title>arXiv Query</title><updated>2025-11-12T10:00:00Z</updated>
  <opensearch:totalResults>5</opensearch:totalResults><opensearch:startIndex>4</opensearch:startIndex>
</feed>`;

function sourcesFile(base: string, options: { withNews: boolean }) {
  const every = '*/3 * * * * *';
  return {
    sources: [
      {
        name: 'arxiv-ir',
        kind: 'arxiv',
        categories: ['cs.IR', 'cs.LG'],
        schedule: every,
        baseUrl: `${base}/arxiv/api/query`,
      },
      {
        name: 'arxiv-ir-rss',
        kind: 'arxiv-rss',
        categories: ['cs.IR'],
        schedule: every,
        baseUrl: `${base}/arxiv-rss/`,
      },
      { name: 'openalex-chem', kind: 'openalex', issns: ['2049-3630'], schedule: every, baseUrl: `${base}/openalex` },
      { name: 'crossref-jmlrl', kind: 'crossref', issns: ['1234-5679'], schedule: every, baseUrl: `${base}/crossref` },
      {
        name: 'ecology',
        kind: 'rss',
        url: `${base}/feeds/ecology.rdf`,
        journal: { name: 'Frontiers of Demo Ecology', issn: '2167-8359' },
        schedule: every,
      },
      ...(options.withNews
        ? [
            {
              name: 'institute-news',
              kind: 'news-rss',
              url: `${base}/feeds/news.xml`,
              institute: 'Demo Institute',
              schedule: every,
            },
          ]
        : []),
      {
        name: 'malformed',
        kind: 'news-rss',
        url: `${base}/feeds/malformed.xml`,
        institute: 'Bad Feed',
        schedule: every,
      },
      {
        name: 'slow',
        kind: 'news-rss',
        url: `${base}/feeds/slow.xml`,
        institute: 'Slow',
        schedule: every,
        timeoutMs: 500,
      },
      { name: 'broken', kind: 'news-rss', url: `${base}/feeds/broken.xml`, institute: 'Broken', schedule: every },
      { name: 'flaky', kind: 'rss', url: `${base}/feeds/always-503.xml`, schedule: every },
      { name: 'switched-off', kind: 'rss', url: `${base}/feeds/ecology.rdf`, enabled: false },
    ],
  };
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function sourceState(name: string): Promise<IngestSourceRow | undefined> {
  return new SourceStateRepository(database.db).get(name);
}

async function startApp(): Promise<WorkerApp> {
  const logger = pino({ level: 'silent' });
  return startWorkerApp({
    connection,
    database,
    concurrency: 2,
    logger,
    ai: createAiServices(loadConfig({}), createAiRepositories(database.db), logger),
    ingest: settings,
    content: {
      embedder: async () => new TestEmbeddingProvider(ai.baseUrl),
      llm: new TestLanguageModel(ai.baseUrl),
    },
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  connection = testQueueConnection(database);
  ai = await startOpenAiTestServer();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-sources-'));
  http = await startLocalHttpServer({
    '/arxiv/api/query': async (_request, response, url) => {
      if (hits.arxiv503++ === 0) {
        response.writeHead(503, { 'retry-after': '0' }).end('busy');
        return;
      }
      const start = Number(url.searchParams.get('start') ?? 0);
      response.writeHead(200, { 'content-type': 'application/atom+xml; charset=utf-8' });
      response.end(start === 0 ? await fixture('arxiv-api-2025-11.xml') : EMPTY_ARXIV_PAGE);
    },
    '/arxiv-rss/cs.IR': async (request, response) => {
      if (request.headers['if-none-match'] === '"rss-v1"') {
        response.writeHead(304, { etag: '"rss-v1"' }).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/rss+xml', etag: '"rss-v1"' });
      response.end(await fixture('arxiv-rss-cs.IR.xml'));
    },
    '/openalex/works': async (_request, response) => {
      if (hits.openalex429++ === 0) {
        response
          .writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' })
          .end('{"error":"rate limit"}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(await fixture('openalex-works.json'));
    },
    '/crossref/journals/1234-5679/works': async (_request, response, url) => {
      const cursor = url.searchParams.get('cursor');
      response.writeHead(200, { 'content-type': 'application/json' });
      if (cursor === '*') response.end(await fixture('crossref-journal-works.json'));
      else
        response.end(JSON.stringify({ status: 'ok', message: { 'total-results': 4, items: [], 'next-cursor': null } }));
    },
    '/feeds/ecology.rdf': async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/rdf+xml' }).end(await fixture('journal-rss1.rdf'));
    },
    '/feeds/news.xml': async (_request, response) => {
      response
        .writeHead(200, { 'content-type': 'application/rss+xml; charset=UTF-8' })
        .end(await fixture('news-wordpress-rss2.xml'));
    },
    '/feeds/malformed.xml': async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(await fixture('malformed-feed.xml'));
    },
    '/feeds/slow.xml': async (_request, response) => {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      if (!response.destroyed) response.writeHead(200).end(await fixture('news-wordpress-rss2.xml'));
    },
    '/feeds/broken.xml': async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(await fixture('not-a-feed.html'));
    },
    '/feeds/always-503.xml': (_request, response) => {
      response.writeHead(503).end('down for maintenance');
    },
  });
  const file = path.join(tmp, 'sources.json');
  await fs.writeFile(file, JSON.stringify(sourcesFile(http.url, { withNews: true }), null, 2));
  settings = defaultIngestSettings({
    enabled: true,
    sourcesFile: file,
    arxivMinIntervalMs: ARXIV_INTERVAL_MS,
    httpTimeoutMs: 5_000,
    httpMaxAttempts: 2,
    httpRetryBaseDelayMs: 50,
    maxRetryAfterMs: 2_000,
    jobAttempts: 2,
    jobBackoffMs: 200,
    leaseWaitMs: 10_000,
    // The app gets a language model below: new papers get summary jobs.
    summariesEnabled: true,
  });
  ingestQueue = createQueue<unknown>(connection, QUEUE_NAMES.ingest);
  app = await startApp();
});

afterAll(async () => {
  await app?.close();
  await ingestQueue?.obliterate({ force: true }).catch(() => {});
  await ingestQueue?.close();
  // The app's fixed schedulers would stay in a shared Redis; the PostgreSQL backend goes with the database.
  if (process.env.REDIS_URL && connection) await removeRedisQueueData(process.env.REDIS_URL, connection.prefix);
  await http?.close();
  await ai?.close();
  await database?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('scheduled ingestion', () => {
  it('upserts one job scheduler per enabled source', async () => {
    const keys = (await ingestQueue.getJobSchedulers(0, -1)).map((scheduler) => scheduler.key).sort();
    expect(keys).toEqual(
      [
        'arxiv-ir',
        'arxiv-ir-rss',
        'broken',
        'crossref-jmlrl',
        'ecology',
        'flaky',
        'institute-news',
        'malformed',
        'openalex-chem',
        'slow',
      ]
        .map((name) => `source:${name}`)
        .sort(),
    );
  });

  it('runs every source on schedule, through 429 and 503 answers, and remembers each run', async () => {
    for (const name of [
      'arxiv-ir',
      'arxiv-ir-rss',
      'openalex-chem',
      'crossref-jmlrl',
      'ecology',
      'institute-news',
      'malformed',
    ]) {
      const state = await waitFor(`${name} to succeed`, async () => {
        const row = await sourceState(name);
        return row?.lastSuccessAt ? row : undefined;
      });
      expect(state.kind).toBeTruthy();
      expect(state.lastError).toBeNull();
    }
    expect(hits.arxiv503).toBeGreaterThan(1);
    expect(hits.openalex429).toBeGreaterThan(1);
    const arxiv = await sourceState('arxiv-ir');
    expect(arxiv?.totalAdded).toBeGreaterThanOrEqual(1);
    expect(arxiv?.cursor).toMatchObject({ newestSubmitted: '2025-01-12' });
    expect(arxiv?.lastSummary).toMatchObject({ rejectedReasons: { 'no arXiv id': 1 } });
    const counts = await database.db.execute<{ papers: number; news: number }>(
      sql`SELECT (SELECT count(*)::int FROM radar.papers) AS papers, (SELECT count(*)::int FROM radar.news_items) AS news`,
    );
    // arXiv 4 + RSS 2 new + OpenAlex 1 new (the others are copies) + Crossref 1 new + ecology 2;
    // news: 2 from the institute, 2 kept from the malformed feed.
    expect(counts.rows[0]).toEqual({ papers: 10, news: 4 });
    // A malformed, truncated feed is a successful run that says what was wrong with it.
    const malformed = await sourceState('malformed');
    expect(malformed?.lastSummary).toMatchObject({ rejectedReasons: { 'incomplete entry at end of feed': 1 } });
    expect(JSON.stringify(malformed?.lastSummary)).toMatch(/malformed XML: line 7/);
    const linked = await database.db.execute<{ doi: string; journal_name: string }>(
      sql`SELECT doi, journal_name FROM radar.papers WHERE arxiv_id = '2501.01234'`,
    );
    expect(linked.rows).toEqual([
      { doi: '10.5555/jmlrl.2025.0042', journal_name: 'Journal of Machine Learning Research Letters' },
    ]);
  });

  it('asks again with the ETag and takes 304 as nothing new', async () => {
    await waitFor('a conditional request to the arXiv feed', async () =>
      http.requests.some(
        (request) => request.path.startsWith('/arxiv-rss/') && request.headers['if-none-match'] === '"rss-v1"',
      ),
    );
  });

  it('spaces arXiv requests by the minimum interval, across runs and both arXiv sources', async () => {
    const arxivRequests = http.requests.filter((request) => /^\/arxiv/.test(request.path)).map((request) => request.at);
    expect(arxivRequests.length).toBeGreaterThan(3);
    const gaps = arxivRequests.slice(1).map((at, index) => at - (arxivRequests[index] ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(ARXIV_INTERVAL_MS - 25);
  });

  it('gives a slow server up after the time-out, retries, and shows the error', async () => {
    const state = await waitFor('slow to fail', async () => {
      const row = await sourceState('slow');
      return row?.status === 'failed' ? row : undefined;
    });
    expect(state.lastError).toMatch(/no answer within 500 ms \(after 2 attempts\)/);
  });

  it('fails a source that serves no feed once, without retrying, and keeps the reason', async () => {
    const state = await waitFor('broken to fail', async () => {
      const row = await sourceState('broken');
      return row?.status === 'failed' ? row : undefined;
    });
    expect(state.lastError).toMatch(/not an RSS or Atom feed/);
    const failed = await waitFor('the failed broken job', async () =>
      (await ingestQueue.getFailed()).find((job) => (job.data as { source: string }).source === 'broken'),
    );
    expect(failed.attemptsMade).toBe(1);
  });

  it('retries a source that keeps answering 503 with backoff, then leaves it failed', async () => {
    const failed = await waitFor('the flaky job to use its attempts', async () =>
      (await ingestQueue.getFailed()).find((job) => (job.data as { source: string }).source === 'flaky'),
    );
    expect(failed.attemptsMade).toBe(2);
    expect(failed.failedReason).toMatch(/answered 503/);
    const state = await sourceState('flaky');
    expect(state?.consecutiveFailures).toBeGreaterThanOrEqual(2);
  });

  it('embeds and summarises what was ingested', async () => {
    await waitFor('vectors for every paper and news item', async () => {
      const result = await database.db.execute<{ missing: number }>(
        sql`SELECT (SELECT count(*)::int FROM radar.papers WHERE embedding IS NULL) + (SELECT count(*)::int FROM radar.news_items WHERE embedding IS NULL) AS missing`,
      );
      return result.rows[0]?.missing === 0;
    });
    await waitFor('summaries for papers with an abstract', async () => {
      const result = await database.db.execute<{ missing: number }>(
        sql`SELECT count(*)::int AS missing FROM radar.papers WHERE abstract <> '' AND llm_summary IS NULL`,
      );
      return result.rows[0]?.missing === 0;
    });
  });

  it('removes the scheduler of a source taken out of the file, and all of them when ingestion is off', async () => {
    await app?.close();
    await fs.writeFile(settings.sourcesFile, JSON.stringify(sourcesFile(http.url, { withNews: false })));
    app = await startApp();
    const keys = (await ingestQueue.getJobSchedulers(0, -1)).map((scheduler) => scheduler.key);
    expect(keys).not.toContain('source:institute-news');
    expect(keys).toContain('source:ecology');
    await app.close();
    settings = { ...settings, enabled: false };
    app = await startApp();
    expect(
      (await ingestQueue.getJobSchedulers(0, -1)).filter((scheduler) => scheduler.key.startsWith('source:')),
    ).toEqual([]);
  });
});

describe('arXiv lease across processes', () => {
  it('lets one holder at a time talk to arXiv and spaces the next holder by the interval', async () => {
    const lease = () =>
      new DatabasePolitenessLease(new SourceStateRepository(database.db), { minIntervalMs: () => 400, waitMs: 5_000 });
    const releaseFirst = await lease().acquire('arxiv-test');
    let secondAt = 0;
    const second = lease()
      .acquire('arxiv-test')
      .then((release) => {
        secondAt = Date.now();
        return release;
      });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(secondAt).toBe(0);
    const releasedAt = Date.now();
    await releaseFirst();
    const releaseSecond = await second;
    expect(secondAt - releasedAt).toBeGreaterThanOrEqual(350);
    await releaseSecond();
  });

  it('gives up (for a later retry) when the lease stays taken', async () => {
    const holder = await new DatabasePolitenessLease(new SourceStateRepository(database.db), {
      minIntervalMs: () => 0,
      waitMs: 1_000,
    }).acquire('arxiv-busy');
    await expect(
      new DatabasePolitenessLease(new SourceStateRepository(database.db), {
        minIntervalMs: () => 0,
        waitMs: 1_500,
      }).acquire('arxiv-busy'),
    ).rejects.toThrow(/another process is fetching from arxiv-busy/);
    await holder();
  });
});
