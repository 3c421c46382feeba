import { SourceStateRepository, sql } from '@radar/db';
import { type AppQueue, createQueue } from '@radar/jobs';
import { QUEUE_NAMES } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Installation, openInstallation } from './installation';
import { runRadar } from './run-radar';

/**
 * `pnpm radar status` shows the flow of each source: the rows a source's runs left in
 * radar.ingest_sources, the papers and news it created in the last day and week, and the next run of
 * its BullMQ job scheduler (`source:<name>`), on the installation's real database and queue backend.
 */

let installation: Installation;
let ingest: AppQueue<unknown>;
const HOUR = 3_600_000;

interface SourceJson {
  name: string;
  kind: string | null;
  status: string;
  last_run_at: string | null;
  added_last_day: number;
  added_last_week: number;
  papers_last_week: number;
  news_last_week: number;
  consecutive_failures: number;
  failing_since: string | null;
  last_error: string | null;
  next_run_at: string | null;
}

async function addPapers(source: string, hoursAgo: number[]): Promise<void> {
  for (const [index, hours] of hoursAgo.entries()) {
    await installation.database.db.execute(sql`
      INSERT INTO radar.papers (title, url, source, created_at)
      VALUES (${`Paper ${source} ${index}`}, ${`https://example.org/${source}/${index}`}, ${source},
        now() - make_interval(hours => ${hours}))`);
  }
}

beforeAll(async () => {
  installation = await openInstallation();
  const states = new SourceStateRepository(installation.database.db);
  await states.markRunning('arxiv-cs', 'arxiv');
  await states.recordSuccess('arxiv-cs', { added: 3, updated: 0, skipped: 0, rejected: 0, summary: {}, cursor: {} });
  await states.markRunning('flaky-feed', 'rss');
  await states.recordFailure('flaky-feed', 'rss', 'HTTP 503 from 127.0.0.1');
  await states.recordFailure('flaky-feed', 'rss', 'HTTP 503 from 127.0.0.1');
  // arxiv-cs: two papers today, one three days ago, one older than a week; news of institute-news today.
  await addPapers('arxiv-cs', [1, 20, 72, 200]);
  const institute = await installation.database.db.execute<{ id: number }>(
    sql`INSERT INTO radar.institutes (name) VALUES ('Demo Institute') RETURNING id`,
  );
  await installation.database.db.execute(sql`
    INSERT INTO radar.news_items (title, url, url_normalized, institute_id, source)
    VALUES ('Campus news', 'https://news.example.org/1', 'news.example.org/1', ${institute.rows[0]?.id}, 'institute-news')`);
  ingest = createQueue<unknown>(installation.queues, QUEUE_NAMES.ingest);
  // A scheduled source that has not run yet, and arxiv-cs's own schedule.
  await ingest.upsertJobScheduler(
    'source:arxiv-cs',
    { pattern: '0 6 * * *', tz: 'UTC' },
    { name: 'ingest:arxiv-cs', data: { source: 'arxiv-cs' } },
  );
  await ingest.upsertJobScheduler(
    'source:institute-news',
    { every: 2 * HOUR },
    { name: 'ingest:institute-news', data: { source: 'institute-news' } },
  );
}, 60_000);

afterAll(async () => {
  await ingest?.close();
  await installation?.close();
});

describe('radar status: the flow of each source', () => {
  it('as JSON: last run, added in the last day and week, failures, next run', async () => {
    const run = await runRadar(['status', '--json'], installation.env);
    expect(run.stderr).toBe('');
    const sources = (JSON.parse(run.stdout) as { sources: SourceJson[] }).sources;
    expect(sources.map((source) => source.name)).toEqual(['arxiv-cs', 'flaky-feed', 'institute-news']);
    const [arxiv, flaky, news] = sources;
    expect(arxiv).toMatchObject({
      kind: 'arxiv',
      status: 'succeeded',
      added_last_day: 2,
      added_last_week: 3,
      papers_last_week: 3,
      news_last_week: 0,
      consecutive_failures: 0,
      failing_since: null,
      last_error: null,
    });
    expect(Date.now() - Date.parse(String(arxiv?.last_run_at))).toBeLessThan(10 * 60_000);
    // Daily at 06:00 UTC: the next one is within a day, at 06:00.
    const next = new Date(String(arxiv?.next_run_at));
    expect(next.getUTCHours()).toBe(6);
    expect(next.getTime() - Date.now()).toBeGreaterThan(0);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(24 * HOUR);

    expect(flaky).toMatchObject({
      status: 'failed',
      consecutive_failures: 2,
      last_error: 'HTTP 503 from 127.0.0.1',
      next_run_at: null,
      added_last_week: 0,
    });
    expect(flaky?.failing_since).not.toBeNull();

    expect(news).toMatchObject({ kind: null, status: 'never-run', added_last_day: 1, news_last_week: 1 });
    expect(news?.next_run_at).not.toBeNull();
  });

  it('as a table, with the failing spell and its error in one line', async () => {
    const run = await runRadar(['status'], installation.env);
    expect(run.stderr).toBe('');
    const lines = run.stdout.split('\n');
    const header = lines.findIndex((line) => line.startsWith('SOURCE'));
    expect(lines[header]).toMatch(/SOURCE\s+LAST RUN\s+STATUS\s+ADDED 1D\s+ADDED 7D\s+FAILURES\s+NEXT RUN/);
    expect(lines[header + 1]).toMatch(
      /^arxiv-cs\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+succeeded\s+2\s+3\s+0\s+\d{4}-\d\d-\d\d 06:00$/,
    );
    expect(lines[header + 2]).toMatch(
      /^flaky-feed\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+failed\s+0\s+0\s+2\s+-\s+\d{4}-\d\d-\d\d \d\d:\d\d: HTTP 503 from 127\.0\.0\.1$/,
    );
    expect(lines[header + 3]).toMatch(/^institute-news\s+-\s+never-run\s+1\s+1\s+0\s+\d{4}-/);
  });
});
