import { ActionableError } from '@radar/shared/server';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { AppMetrics, type MetricsServer, startMetricsServer } from '../src';
import { parseMetrics, scrapeMetrics } from '../src/testing';

/** The internal listener over real HTTP on 127.0.0.1, and the registry behind it. */

const logger = pino({ level: 'silent' });
const started: MetricsServer[] = [];

async function serve(metrics: AppMetrics, port = 0): Promise<MetricsServer> {
  const server = await startMetricsServer({ metrics, port, host: '127.0.0.1', logger });
  started.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

describe('the metrics listener', () => {
  it('serves the Prometheus text with the default process metrics and the app metrics', async () => {
    const metrics = new AppMetrics();
    metrics.observeHttpRequest({ method: 'GET', route: '/articles/:id/', statusCode: 200, seconds: 0.02 });
    metrics.observeJob('ingest', 'completed', 1.5);
    metrics.observeJob('ingest', 'failed', 0.2);
    metrics.observeJob('ingest', 'failed', undefined);
    metrics.countIngested('ecology', 'papers', 3);
    metrics.countIngested('ecology', 'news', 0);
    const server = await serve(metrics);

    const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const scrape = parseMetrics(await response.text());
    expect(scrape.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(
      scrape.value('http_request_duration_seconds_count', {
        method: 'GET',
        route: '/articles/:id/',
        status_code: '200',
      }),
    ).toBe(1);
    expect(scrape.value('radar_job_duration_seconds_count', { queue: 'ingest', outcome: 'completed' })).toBe(1);
    // A failed attempt without timestamps (a stalled job's end) is counted but has no duration.
    expect(scrape.value('radar_job_duration_seconds_count', { queue: 'ingest', outcome: 'failed' })).toBe(1);
    expect(scrape.value('radar_jobs_failed_total', { queue: 'ingest' })).toBe(2);
    expect(scrape.value('radar_ingested_items_total', { source: 'ecology', kind: 'papers' })).toBe(3);
    expect(scrape.value('radar_ingested_items_total', { source: 'ecology', kind: 'news' })).toBeUndefined();
  });

  it('reads the queue and backlog gauges at each scrape; a failed read empties only its own gauge', async () => {
    const metrics = new AppMetrics();
    let waiting = 4;
    let backlogFails = false;
    metrics.reportQueueJobs(async () => ({ ingest: { waiting, active: 1, delayed: 0, failed: 2 } }), logger);
    metrics.reportEmbeddingBacklog(async () => {
      if (backlogFails) throw new Error('database unreachable');
      return { papers: 7, news: 2 };
    }, logger);
    const server = await serve(metrics);

    const first = await scrapeMetrics(server.port);
    expect(first.value('radar_queue_jobs', { queue: 'ingest', state: 'waiting' })).toBe(4);
    expect(first.value('radar_queue_jobs', { queue: 'ingest', state: 'failed' })).toBe(2);
    expect(first.value('radar_embedding_backlog', { kind: 'papers' })).toBe(7);
    expect(first.value('radar_embedding_backlog', { kind: 'news' })).toBe(2);

    waiting = 0;
    backlogFails = true;
    const second = await scrapeMetrics(server.port);
    expect(second.value('radar_queue_jobs', { queue: 'ingest', state: 'waiting' })).toBe(0);
    expect(second.value('radar_embedding_backlog', { kind: 'papers' })).toBeUndefined();
    expect(second.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it("gives a failing source's technical error to operators, and none once it succeeds", async () => {
    const metrics = new AppMetrics();
    let failing = true;
    const sample = () => ({
      name: 'arxiv-q-bio',
      lastRunAt: new Date('2026-11-28T22:45:00Z'),
      lastSuccessAt: null,
      addedLastDay: 0,
      addedLastWeek: 0,
      consecutiveFailures: failing ? 4 : 0,
      failingSince: failing ? new Date('2026-11-28T22:45:00Z') : null,
      nextRunAt: null,
      lastError: failing ? 'rss.arxiv.org: unknown host (DNS) (after 4 attempts)\nstack' : null,
    });
    metrics.reportSourceFlow(async () => [sample()], logger);
    const server = await serve(metrics);
    const first = await scrapeMetrics(server.port);
    expect(
      first.value('radar_source_last_error_info', {
        source: 'arxiv-q-bio',
        error: 'rss.arxiv.org: unknown host (DNS) (after 4 attempts)',
      }),
    ).toBe(1);
    failing = false;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = await scrapeMetrics(server.port);
    expect(second.value('radar_source_consecutive_failures', { source: 'arxiv-q-bio' })).toBe(0);
    expect(second.text).not.toContain('radar_source_last_error_info{');
  });

  it('keeps each registry to itself: two apps in one process count apart', async () => {
    const one = new AppMetrics();
    const two = new AppMetrics();
    one.countIngested('arxiv', 'papers', 5);
    const [first, second] = await Promise.all([serve(one), serve(two)]);
    expect((await scrapeMetrics(first.port)).value('radar_ingested_items_total', { source: 'arxiv' })).toBe(5);
    expect((await scrapeMetrics(second.port)).value('radar_ingested_items_total', { source: 'arxiv' })).toBeUndefined();
  });

  it('answers /health with 200 while running and 503 once shutting down', async () => {
    const server = await serve(new AppMetrics());
    const health = () => fetch(`http://127.0.0.1:${server.port}/health`);
    const ok = await health();
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ status: 'ok' });
    server.markShuttingDown();
    const draining = await health();
    expect(draining.status).toBe(503);
    expect(await draining.json()).toEqual({ status: 'shutting_down' });
  });

  it('answers other paths with 404 and other methods with 405', async () => {
    const server = await serve(new AppMetrics());
    expect((await fetch(`http://127.0.0.1:${server.port}/api/health`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('stops listening on close', async () => {
    const server = await startMetricsServer({ metrics: new AppMetrics(), port: 0, host: '127.0.0.1', logger });
    await server.close();
    await expect(fetch(`http://127.0.0.1:${server.port}/health`)).rejects.toThrow();
  });

  it('refuses a port in use with one line naming METRICS_PORT', async () => {
    const taken = await serve(new AppMetrics());
    const failure = await startMetricsServer({
      metrics: new AppMetrics(),
      port: taken.port,
      host: '127.0.0.1',
      logger,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ActionableError);
    expect((failure as Error).message).toBe(
      `cannot listen on METRICS_PORT ${taken.port} (EADDRINUSE). Stop the other process, set another METRICS_PORT, or 0 to turn metrics off.`,
    );
  });
});
