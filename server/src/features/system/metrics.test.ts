import type { AddressInfo } from 'node:net';
import { type NewPaperRow, PaperRepository, sql } from '@radar/db';
import { waitForJobState } from '@radar/jobs/testing';
import { type MetricsServer, startMetricsServer } from '@radar/metrics';
import { type Scrape, scrapeBetweenEqualReads, scrapeMetrics, scrapeUntil } from '@radar/metrics/testing';
import { QUEUE_NAMES } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * The server's metrics over HTTP, as main.ts serves them on METRICS_PORT: requests labelled by route
 * pattern, the in-process worker's jobs and queues, and the embedding backlog against the database.
 */

let runtime: TestRuntime;
let metricsServer: MetricsServer;
let baseUrl: string;

const scrape = () => scrapeMetrics(metricsServer.port);
const requestCount = (metrics: Scrape, labels: Record<string, string>) =>
  metrics.value('http_request_duration_seconds_count', labels);

beforeAll(async () => {
  runtime = await startTestRuntime();
  await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(runtime.app.server.address() as AddressInfo).port}`;
  metricsServer = await startMetricsServer({
    metrics: runtime.parts.metrics,
    port: 0,
    host: '127.0.0.1',
    logger: runtime.parts.logger,
  });
});

afterAll(async () => {
  await metricsServer?.close();
  await runtime?.stop();
});

describe('server metrics', () => {
  it('times requests by method, route pattern and status, never by the raw URL', async () => {
    expect((await fetch(`${baseUrl}/api/health`)).status).toBe(200);
    expect((await fetch(`${baseUrl}/articles/98765/save/`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${baseUrl}/articles/search/?q=confidential-term`)).status).toBe(401);
    expect((await fetch(`${baseUrl}/api/no-such-thing/424242/`)).status).toBe(404);

    const metrics = await scrape();
    expect(requestCount(metrics, { method: 'GET', route: '/api/health', status_code: '200' })).toBe(1);
    expect(requestCount(metrics, { method: 'POST', route: '/articles/:id/save/', status_code: '401' })).toBe(1);
    expect(requestCount(metrics, { method: 'GET', route: '/articles/search/', status_code: '401' })).toBe(1);
    expect(requestCount(metrics, { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    // The series' names and labels, without their values: a value may hold the digits by chance
    // (an event-loop lag of 0.013922552242424242 s once did).
    const series = metrics.text
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => line.slice(0, line.lastIndexOf(' ')))
      .join('\n');
    expect(series).toContain('route="/articles/:id/save/"');
    for (const raw of ['98765', '424242', 'confidential-term', '?q=']) expect(series).not.toContain(raw);
    expect(metrics.value('process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('keeps serving /api/health on the main port and /health on the metrics port', async () => {
    expect((await fetch(`${baseUrl}/api/health`)).status).toBe(200);
    const health = await fetch(`http://127.0.0.1:${metricsServer.port}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    // The main port serves no metrics: they stay on the port that is not published.
    expect(await (await fetch(`${baseUrl}/metrics`)).text()).not.toContain('http_request_duration_seconds');
  });

  it('records the in-process worker’s jobs and reports its queues', async () => {
    const job = await runtime.parts.queues.maintenance.add('fail-interrupted-tasks', {
      task: 'fail-interrupted-tasks',
    });
    await waitForJobState(runtime.parts.queues.maintenance, String(job.id), 'completed');
    const metrics = await scrapeUntil(
      metricsServer.port,
      (scraped) =>
        (scraped.value('radar_job_duration_seconds_count', { queue: QUEUE_NAMES.maintenance, outcome: 'completed' }) ??
          0) >= 1,
    );
    expect(metrics.value('radar_jobs_failed_total', { queue: QUEUE_NAMES.maintenance })).toBeUndefined();
    for (const queue of Object.values(QUEUE_NAMES)) {
      expect(metrics.value('radar_queue_jobs', { queue, state: 'active' }), queue).toBeGreaterThanOrEqual(0);
    }
  });

  it('reports the papers and news items without a vector of the active model', async () => {
    const papers: NewPaperRow[] = ['Coral reef acoustics', 'Kelp forest recovery', 'Deep-sea vents'].map(
      (title, index) => ({ source: 'metrics-test', title, doi: `10.5555/metrics.${index}`, authors: ['A. Author'] }),
    );
    await new PaperRepository(runtime.database.db).insertMany(papers);
    const countInDatabase = async () => {
      const result = await runtime.database.db.execute<{ papers: number; news: number }>(
        sql`SELECT
              (SELECT count(*)::int FROM radar.papers WHERE embedding_model_id IS NULL
                 OR embedding_model_id NOT IN (SELECT id FROM radar.embedding_models WHERE is_active)) AS papers,
              (SELECT count(*)::int FROM radar.news_items WHERE embedding_model_id IS NULL
                 OR embedding_model_id NOT IN (SELECT id FROM radar.embedding_models WHERE is_active)) AS news`,
      );
      return result.rows[0];
    };
    const { expected, scrape: metrics } = await scrapeBetweenEqualReads(countInDatabase, scrape);
    expect(expected?.papers).toBeGreaterThan(0);
    expect(metrics.value('radar_embedding_backlog', { kind: 'papers' })).toBe(expected?.papers);
    expect(metrics.value('radar_embedding_backlog', { kind: 'news' })).toBe(expected?.news);
  });
});
