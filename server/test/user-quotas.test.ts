import { type FakeOpenAiServer, fakeEmbedding, startFakeOpenAi } from '@radar/ai/testing';
import { UserRepository } from '@radar/db';
import { loadConfig } from '@radar/shared/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/**
 * Per-user quotas on authenticated routes (plugins/user-quotas.ts), counted in the shared store (Redis
 * when REDIS_URL is set, else PostgreSQL/PGlite): the probe found one account embedding 11,931 texts in
 * 20 s through similarity, and no limit at all on paper recommendations and profile updates.
 */

const QUOTAS = {
  QUOTA_REQUESTS_PER_MINUTE: '12',
  QUOTA_RECOMMEND_PER_MINUTE: '3',
  QUOTA_SIMILARITY_PER_MINUTE: '4',
  QUOTA_PROFILE_EDITS_PER_HOUR: '3',
  QUOTA_ARTICLE_SEARCH_PER_MINUTE: '2',
  QUOTA_NEWS_SEARCH_PER_MINUTE: '2',
  QUOTA_LIBRARY_EXPORTS_PER_MINUTE: '2',
  QUOTA_DATA_EXPORTS_PER_HOUR: '2',
  QUOTA_RATING_THRESHOLD_PER_MINUTE: '2',
  QUOTA_FEED_PER_HOUR: '2',
  QUOTA_CONCURRENT_PER_USER: '2',
};

const SUMMARY =
  'Graph neural networks for molecular property prediction and drug discovery with self-supervised pretraining.';

type Headers = Record<string, string>;

describe('per-user quotas', () => {
  let runtime: TestRuntime;
  let fake: FakeOpenAiServer;
  let n = 0;

  /** A signed-in user with a research profile (and its vector from the fake embedding model). */
  let lastUserId = '';
  async function researcher(): Promise<Headers> {
    n += 1;
    const user = await new UserRepository(runtime.database.db).create({ email: `quota-${n}@example.org` });
    lastUserId = user.id;
    const headers = { authorization: `Bearer ${await runtime.app.signIn(user)}` };
    const saved = await runtime.app.inject({
      method: 'POST',
      url: '/api/auth/research-direction/confirm/',
      headers,
      payload: { research_summary_en: SUMMARY },
    });
    expect(saved.json()).toMatchObject({ has_vector: true });
    return headers;
  }

  const get = (url: string, headers: Headers, remoteAddress = '127.0.0.1') =>
    runtime.app.inject({ method: 'GET', url, headers, remoteAddress });

  function expectRefused(response: Awaited<ReturnType<typeof get>>, atLeastSeconds: number) {
    expect(response.statusCode).toBe(429);
    const body = response.json();
    expect(body).toMatchObject({ code: 'RATE_LIMITED', message: '请求过于频繁，请稍后再试' });
    expect(body.remaining_seconds).toBeGreaterThanOrEqual(atLeastSeconds);
    expect(response.headers['retry-after']).toBe(String(body.remaining_seconds));
  }

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    runtime = await startTestRuntime({
      env: {
        ...QUOTAS,
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: 'sk-test',
        EMBEDDING_MODEL: 'fake-embed',
        EMBEDDING_DIM: '24',
      },
    });
  });
  afterAll(async () => {
    await runtime?.stop();
    await fake?.close();
  });

  it('are read from the environment, with defaults a researcher does not reach', () => {
    expect(loadConfig({}).userQuotas).toEqual({
      requests: { max: 600, windowMs: 60_000 },
      recommendations: { max: 60, windowMs: 60_000 },
      similarity: { max: 30, windowMs: 60_000 },
      profileUpdates: { max: 60, windowMs: 3_600_000 },
      articleSearch: { max: 120, windowMs: 60_000, concurrent: 2 },
      newsSearch: { max: 60, windowMs: 60_000, concurrent: 2 },
      libraryExports: { max: 10, windowMs: 60_000, concurrent: 1 },
      dataExports: { max: 10, windowMs: 3_600_000, concurrent: 1 },
      ratingThreshold: { max: 30, windowMs: 60_000, concurrent: 1 },
      feed: { max: 120, windowMs: 3_600_000, concurrent: 2 },
      ownWorks: { max: 5, windowMs: 3_600_000, concurrent: 1 },
      concurrentPerUser: 4,
    });
    expect(() => loadConfig({ QUOTA_SIMILARITY_PER_MINUTE: 'many' })).toThrow(/QUOTA_SIMILARITY_PER_MINUTE/);
  });

  it('stop a flood of text similarity calls before it reaches the embedding model, from any address', async () => {
    const flooder = await researcher();
    const embedded = fake.embeddingRequests().length;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await get(`/api/auth/recommendations/similarity/?text=graph+networks+${i}`, flooder);
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200]);
    // Another address does not help: the quota follows the account.
    expectRefused(await get('/api/auth/recommendations/similarity/?text=one+more', flooder, '203.0.113.9'), 1);
    expect(fake.embeddingRequests().length - embedded).toBe(4);

    const other = await researcher();
    expect((await get('/api/auth/recommendations/similarity/?text=graph+networks', other)).statusCode).toBe(200);
  });

  it("run at most QUOTA_CONCURRENT_PER_USER of one user's costly requests at once", async () => {
    const parallel = await researcher();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const heldEmbedding = {
      heldUntil: gate,
      body: { object: 'list', data: [{ object: 'embedding', index: 0, embedding: fakeEmbedding('graph', 24) }] },
    };
    fake.queueEmbeddings(heldEmbedding, heldEmbedding);
    const before = fake.embeddingRequests().length;
    const url = '/api/auth/recommendations/similarity/?text=graph';
    const running = [get(url, parallel), get(url, parallel)];
    const deadline = Date.now() + 30_000;
    while (fake.embeddingRequests().length < before + 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Two are with the embedding model: a third is refused at once, and never reaches it.
    expectRefused(await get(url, parallel), 1);
    // Other users and this user's other routes are not held up.
    expect((await get(url, await researcher())).statusCode).toBe(200);
    expect((await get('/api/auth/user/', parallel)).statusCode).toBe(200);
    release();
    expect((await Promise.all(running)).map((response) => response.statusCode)).toEqual([200, 200]);
    // The slots are free again once they answered.
    expect((await get(url, parallel)).statusCode).toBe(200);
  });

  it('give every route whose cost grows with data its own budget per reader, from any address', async () => {
    const routes: { method: 'GET' | 'POST'; url: string; payload?: object }[] = [
      { method: 'GET', url: '/articles/library/export/?format=ris' },
      { method: 'GET', url: '/api/auth/user/export/' },
      { method: 'GET', url: '/api/auth/recommendations/rating-threshold/' },
      { method: 'GET', url: '/articles/search/?q=graph' },
      { method: 'POST', url: '/api/news/search/', payload: { query: 'graph', search_type: 'keyword' } },
    ];
    for (const route of routes) {
      const reader = await researcher();
      const ask = (remoteAddress: string) => runtime.app.inject({ ...route, headers: reader, remoteAddress });
      expect([(await ask('198.51.100.1')).statusCode, (await ask('198.51.100.2')).statusCode], route.url).toEqual([
        200, 200,
      ]);
      expectRefused(await ask('198.51.100.3'), 1);
      // Another reader's budget is untouched.
      const other = await researcher();
      expect((await runtime.app.inject({ ...route, headers: other })).statusCode, route.url).toBe(200);
    }
  });

  it('count the public Atom feed against the reader whose feed it is, whatever the polling address', async () => {
    const reader = await researcher();
    // Feeds are served for verified accounts with a password only.
    await new UserRepository(runtime.database.db).update(lastUserId, { isEmailVerified: true, passwordHash: 'hash' });
    const made = await runtime.app.inject({ method: 'POST', url: '/api/auth/delivery/feed/', headers: reader });
    const feedPath = new URL(made.json().feed_url).pathname;
    const poll = (remoteAddress: string) => runtime.app.inject({ method: 'GET', url: feedPath, remoteAddress });
    expect((await poll('198.51.100.10')).statusCode).toBe(200);
    expect((await poll('198.51.100.11')).statusCode).toBe(200);
    expectRefused(await poll('198.51.100.12'), 1);
    // An unknown token is nobody's: left to the per-address limit, a 404.
    const unknown = await runtime.app.inject({ method: 'GET', url: `/api/delivery/feed/${'A'.repeat(43)}/` });
    expect(unknown.statusCode).toBe(404);
  });

  it('limit paper recommendations per user', async () => {
    const reloader = await researcher();
    const url = '/api/auth/recommendations/papers/?top_k=5';
    for (let i = 0; i < 3; i++) expect((await get(url, reloader)).statusCode).toBe(200);
    expectRefused(await get(url, reloader), 1);
    // Other routes keep working for the same user (their own budgets), and other users are untouched.
    expect((await get('/api/auth/user/', reloader)).statusCode).toBe(200);
    expect((await get(url, await researcher())).statusCode).toBe(200);
  });

  it('limit profile updates per user, per hour', async () => {
    const editor = await researcher();
    const patch = (i: number) =>
      runtime.app.inject({ method: 'PATCH', url: '/api/auth/user/', headers: editor, payload: { username: `me${i}` } });
    for (let i = 0; i < 3; i++) expect((await patch(i)).statusCode).toBe(200);
    expectRefused(await patch(3), 3000);
  });

  it('limit every authenticated request per user, shared by every server instance', async () => {
    const busy = await researcher();
    const pauses: number[] = [];
    // Two instances counting in the database (embedded mode counts in its one process otherwise). They
    // only answer requests: no in-process worker (`runtime` has one), whose start is most of a boot.
    const instanceEnv = { ...QUOTAS, RUN_WORKER: 'false' };
    const first = await startTestRuntime({ shareWith: runtime, env: instanceEnv, countersInDatabase: true });
    const second = await startTestRuntime({
      shareWith: runtime,
      env: instanceEnv,
      countersInDatabase: true,
      quotaRefusalPause: async (ms) => {
        pauses.push(ms);
      },
    });
    try {
      const counter = `quota:requests:${lastUserId}`;
      // Its profile save was request 1 where `runtime` counts in the database (not in embedded mode).
      const before = (await first.app.rateLimitStore.read(counter)).hits;
      const statuses: number[] = [];
      for (let i = 0; i < 13 - before; i++) {
        const instance = i % 2 === 0 ? first : second;
        statuses.push((await instance.app.inject({ method: 'GET', url: '/user-keywords/', headers: busy })).statusCode);
      }
      expect(statuses).toEqual([...Array(12 - before).fill(200), 429]);
      const refused = await second.app.inject({ method: 'GET', url: '/api/auth/user/', headers: busy });
      expectRefused(refused, 1);
      // An instance that found the budget spent refuses the rest of the window without counting again.
      const counted = (await second.app.rateLimitStore.read(counter)).hits;
      for (let i = 0; i < 5; i++) {
        expectRefused(await second.app.inject({ method: 'GET', url: '/user-keywords/', headers: busy }), 1);
      }
      expect((await second.app.rateLimitStore.read(counter)).hits).toBe(counted);
      // Each of those refusals paused first (up to half a second), slowing a hammering loop.
      expect(pauses.length).toBeGreaterThanOrEqual(5);
      expect(pauses.every((ms) => ms > 0 && ms <= 500)).toBe(true);
      // Invalid requests count too, and are refused before validation.
      const invalid = await first.app.inject({
        method: 'PATCH',
        url: '/user-keywords/not-a-number/update/',
        headers: busy,
        payload: { alert_frequency: 'hourly' },
      });
      expect(invalid.statusCode).toBe(429);
      // Requests without a login are not counted against anyone (per-address limits cover them).
      expect((await runtime.app.inject({ method: 'GET', url: '/api/config/' })).statusCode).toBe(200);
    } finally {
      await second.stop();
      await first.stop();
    }
  });
});
