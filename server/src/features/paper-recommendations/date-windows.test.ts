import { NewsRepository, PaperRepository, UserRepository, VectorRepository } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * The publication windows (一天内 ... 一月内) count calendar days of the readers' zone (TIME_ZONE,
 * Asia/Shanghai by default), as the web app's labels 今天/昨天/前天 do: a window of N days holds today and
 * the N days before it. The server's clock is set, not waited for. Every paper and news item has the
 * profile's own vector, so only the date decides.
 */

/** 01:00 on 27 November 2026 in Beijing: still 26 November in UTC. */
const BEIJING_ONE_AM = new Date('2026-11-26T17:00:00Z');

/** Papers by their publication day (a calendar day, no time), as the labels would show them at that moment. */
const PAPERS = {
  today: '2026-11-27',
  yesterday: '2026-11-26',
  dayBeforeYesterday: '2026-11-25',
  threeDaysAgo: '2026-11-24',
  fourDaysAgo: '2026-11-23',
  sevenDaysAgo: '2026-11-20',
  eightDaysAgo: '2026-11-19',
  thirtyDaysAgo: '2026-10-28',
  thirtyOneDaysAgo: '2026-10-27',
} as const;

/** News items by their publish moment; Beijing is UTC+8, so its midnights are 16:00 UTC. */
const NEWS = {
  firstSecondOfYesterday: '2026-11-25T16:00:00Z',
  lastSecondOfDayBeforeYesterday: '2026-11-25T15:59:59Z',
  earlyToday: '2026-11-26T16:30:00Z',
} as const;

let runtime: TestRuntime;
let utcRuntime: TestRuntime;
let now = BEIJING_ONE_AM;
let headers: Record<string, string>;
const titleOf = new Map<string, string>();

const titles = (body: { recommendations: { id: string }[] }) =>
  body.recommendations.map((paper) => titleOf.get(paper.id)).sort();
const newsTitles = (body: { data: { title: string }[] }) => body.data.map((item) => item.title).sort();

async function papersIn(window: string, server = runtime) {
  const response = await server.app.inject({
    method: 'GET',
    url: `/api/auth/recommendations/papers/?excluded_jcr=&similarity_threshold=0.05&top_k=50&date_filter=${encodeURIComponent(window)}`,
    headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function newsIn(window: string) {
  const response = await runtime.app.inject({
    method: 'GET',
    url: `/api/news/recommendations/?similarity_threshold=0.05&top_k=50&date_filter=${encodeURIComponent(window)}`,
    headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' }, clock: () => now });
  // A second server over the same data, configured for readers in UTC.
  utcRuntime = await startTestRuntime({
    env: { RUN_WORKER: 'false', TIME_ZONE: 'UTC' },
    clock: () => now,
    shareWith: runtime,
  });
  const model = await runtime.parts.ai.embeddings.activeModel();
  const vector = Array.from({ length: model.dimension }, (_, i) => (i === 0 ? 1 : 0));
  const papers = new PaperRepository(runtime.database.db);
  const rows = await papers.insertMany(
    Object.entries(PAPERS).map(([name, day]) => ({
      title: name,
      authors: ['Ada Lovelace'],
      abstract: `Published on ${day}`,
      journalName: 'arXiv',
      jcrTier: null,
      doi: null,
      url: `https://example.org/${name}`,
      publishedAt: day,
      source: 'test',
    })),
  );
  for (const row of rows) titleOf.set(String(row.id), row.title);
  const vectors = new VectorRepository(runtime.database.db);
  await vectors.setVectors(
    'papers',
    model.id,
    rows.map((row) => ({ id: String(row.id), vector })),
  );
  const news = await new NewsRepository(runtime.database.db).insertMany(
    Object.entries(NEWS).map(([name, moment]) => ({
      title: name,
      content: 'Campus news.',
      url: `https://news.example.org/${name}`,
      urlNormalized: `news.example.org/${name}`,
      source: 'test',
      publishDate: new Date(moment),
      crawlDate: new Date(moment),
    })),
  );
  await vectors.setVectors(
    'news',
    model.id,
    news.map((row) => ({ id: String(row.id), vector })),
  );
  const user = await new UserRepository(runtime.database.db).create({
    email: 'reader@example.org',
    isEmailVerified: true,
    researchSummaryEn: 'Anything at all.',
  });
  await vectors.setUserVector(user.id, model.id, vector);
  headers = { authorization: `Bearer ${await runtime.app.signIn(user)}` };
});

afterAll(async () => {
  await utcRuntime?.stop();
  await runtime?.stop();
});

describe('publication windows in the readers’ zone (Asia/Shanghai by default)', () => {
  it('at 01:00 Beijing time, 一天内 is today and yesterday there: a paper from two calendar days ago (前天) is out', async () => {
    now = BEIJING_ONE_AM;
    const body = await papersIn('一天内');
    expect(titles(body)).toEqual(['today', 'yesterday']);
    expect(body.published_since).toBe(PAPERS.yesterday);
  });

  it('gives every window today and N calendar days before it, matching the labels', async () => {
    now = BEIJING_ONE_AM;
    expect(titles(await papersIn('两天内'))).toEqual(['dayBeforeYesterday', 'today', 'yesterday']);
    expect(titles(await papersIn('三天内'))).toEqual(['dayBeforeYesterday', 'threeDaysAgo', 'today', 'yesterday']);
    const week = titles(await papersIn('一周内'));
    expect(week).toContain('sevenDaysAgo');
    expect(week).not.toContain('eightDaysAgo');
    const month = titles(await papersIn('一月内'));
    expect(month).toContain('thirtyDaysAgo');
    expect(month).not.toContain('thirtyOneDaysAgo');
    expect(titles(await papersIn('不限'))).toHaveLength(Object.keys(PAPERS).length);
  });

  it('moves the window at the zone’s midnight, to the second', async () => {
    now = new Date('2026-11-26T15:59:59Z'); // 23:59:59 on the 26th in Beijing
    expect((await papersIn('一天内')).published_since).toBe('2026-11-25');
    now = new Date('2026-11-26T16:00:00Z'); // 00:00:00 on the 27th in Beijing
    expect((await papersIn('一天内')).published_since).toBe('2026-11-26');
  });

  it('counts news by the calendar day of its moment in the zone', async () => {
    now = BEIJING_ONE_AM;
    // 00:00:00 yesterday is in 一天内; 23:59:59 the day before (前天) is not.
    expect(newsTitles(await newsIn('一天内'))).toEqual(['earlyToday', 'firstSecondOfYesterday']);
    expect(newsTitles(await newsIn('两天内'))).toEqual([
      'earlyToday',
      'firstSecondOfYesterday',
      'lastSecondOfDayBeforeYesterday',
    ]);
  });

  it('reads news search dates (date_from, date_to) as calendar days of the zone', async () => {
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/api/news/search/',
      headers,
      payload: { query: 'campus', date_from: '2026-11-26', date_to: '2026-11-26' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(newsTitles(response.json())).toEqual(['firstSecondOfYesterday']);
  });

  it('follows TIME_ZONE: for readers in UTC it is still the 26th, so the 25th is yesterday', async () => {
    now = BEIJING_ONE_AM;
    const body = await papersIn('一天内', utcRuntime);
    // (The paper of the 27th is tomorrow in UTC: a window has no end, as a label never says 'tomorrow'.)
    expect(titles(body)).toEqual(['dayBeforeYesterday', 'today', 'yesterday']);
    expect(body.published_since).toBe('2026-11-25');
  });
});
