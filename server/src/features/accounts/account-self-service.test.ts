import { PaperRepository, sql, UserAdminRepository } from '@radar/db';
import { requestProfileRelearn } from '@radar/jobs';
import { calendarDayIn } from '@radar/shared';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, SmtpSink } from '../../../test/smtp-sink';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';
import { PasswordHasher } from '../../security/password-hasher';
import { AccountSelfService } from './self-service.service';

/*
 * What a signed-in person does to their own account: download everything stored for them (and nothing
 * of anyone else), and delete the account after typing the password again. Real database, real SMTP.
 */

let runtime: TestRuntime;
let smtp: SmtpSink;
let admin: UserAdminRepository;
const PASSWORD = 'tr0ub4dor-horse';

const request = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: unknown) =>
  runtime.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

async function verifiedAccount(email: string): Promise<{ id: string; token: string }> {
  const post = (url: string, payload: Record<string, unknown>) => runtime.app.inject({ method: 'POST', url, payload });
  await post('/api/auth/register/', { email, password: PASSWORD, password2: PASSWORD });
  const code = codeFrom(await smtp.waitForMail(email));
  const body = (await post('/api/auth/verify-email/', { email, verification_code: code })).json();
  return { id: body.user.id, token: body.token };
}

/**
 * A keyword, a favourite, a saved and rated paper, a followed author, a feedback message, an interest and
 * delivery settings.
 */
async function fillAccount(token: string, label: string, paperIds: number[]): Promise<void> {
  const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
    const response = await request(method, url, token, payload);
    expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
  };
  await ok('POST', '/user-keywords/add/', { keyword: `${label} keyword` });
  await ok('POST', `/articles/${paperIds[0]}/favorite/`);
  await ok('POST', `/articles/${paperIds[1]}/save/`);
  await ok('POST', `/articles/${paperIds[1]}/rating/`, { value: -1 });
  await ok('POST', '/api/auth/followed-authors/', { paper_id: String(paperIds[0]), author_index: 0 });
  await ok('POST', '/api/auth/interests/', { name: `${label} interest`, description: 'coral reef ecology' });
  await ok('PUT', '/api/auth/delivery/', {
    frequency: 'weekly',
    weekday: 3,
    hour: 9,
    time_zone: 'Europe/Berlin',
    email_enabled: true,
  });
  await ok('PUT', '/api/auth/delivery/webhook/', {
    platform: 'dingtalk',
    url: `https://oapi.dingtalk.com/robot/send?access_token=${label}-robot-token`,
    secret: `SEC-${label}-signing-secret`,
  });
  await ok('POST', '/api/auth/delivery/feed/');
  await ok('POST', '/api/feedback/send/', {
    type: '功能建议',
    title: `${label} feedback title`,
    description: `${label} feedback body`,
    userInfo: {},
  });
}

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  runtime = await startTestRuntime({ env: { SMTP_URL: smtp.url } });
  admin = new UserAdminRepository(runtime.database.db);
});

afterAll(async () => {
  await runtime?.stop();
  await smtp?.stop();
});

describe('download my data', () => {
  it('is a no-store JSON attachment with the own profile, keywords, paper states, ratings, follows, feedback, contact-form messages, interests, delivery settings (no secrets) and what was delivered, nobody else’s', async () => {
    const papers = await new PaperRepository(runtime.database.db).insertMany(
      ['Export paper one', 'Export paper two', 'Export paper three'].map((title, index) => ({
        source: 'self-service-test',
        title,
        doi: `10.5555/export.${index}`,
        authors: ['A. Author'],
      })),
    );
    const ids = papers.map((paper) => paper.id);
    const ada = await verifiedAccount('ada-export@example.org');
    const bob = await verifiedAccount('bob-export@example.org');
    await fillAccount(ada.token, 'ada', [ids[0] as number, ids[1] as number]);
    await fillAccount(bob.token, 'bob', [ids[2] as number, ids[0] as number]);
    // What the digest, the robot and a keyword alert sent them (rows the delivery jobs write).
    await runtime.database.db.execute(sql`
      INSERT INTO radar.delivered_items (user_id, channel, item_kind, item_id, delivered_at) VALUES
        (${ada.id}::uuid, 'email', 'paper', ${ids[0]}, '2026-11-20T08:00:00Z'),
        (${bob.id}::uuid, 'webhook', 'paper', ${ids[2]}, '2026-11-20T08:00:00Z')`);
    await runtime.database.db.execute(sql`
      INSERT INTO radar.keyword_alert_deliveries (user_id, paper_id, keyword_id, sent_at)
      SELECT ${ada.id}::uuid, ${ids[1]}, k.id, '2026-11-21T08:00:00Z' FROM radar.user_keywords k
      WHERE k.user_id = ${ada.id}::uuid`);

    // Contact-form messages (no account): the one giving Ada's address to reply to is hers.
    for (const [email, title] of [
      [' Ada-Export@Example.org ', 'ada contact title'],
      ['someone-else@example.org', 'other contact title'],
    ]) {
      const sent = await runtime.app.inject({
        method: 'POST',
        url: '/api/contact/',
        payload: { name: '阿达', email, title, description: `${title} body` },
      });
      expect(sent.statusCode, sent.body).toBe(200);
    }

    const response = await request('GET', '/api/auth/user/export/', ada.token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-type']).toContain('application/json');
    const data = response.json();
    // Named by the day in the readers' zone, as the library export is (not the UTC day).
    const day = calendarDayIn(new Date(data.exported_at), runtime.parts.config.timeZone);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="research-radar-data-${day}.json"`);
    expect(data.profile).toMatchObject({ id: ada.id, email: 'ada-export@example.org', is_email_verified: true });
    expect(data.keywords).toEqual([
      expect.objectContaining({ name: 'ada keyword', alert_enabled: expect.any(Boolean), alert_frequency: 'daily' }),
    ]);
    const states = (data.articleStates as { paper_id: unknown }[]).map((state) => ({
      ...state,
      paper_id: Number(state.paper_id),
    })) as { paper_id: number; title: string; is_favorited: boolean; is_saved: boolean }[];
    expect(states.find((state) => state.paper_id === ids[0])).toMatchObject({
      title: 'Export paper one',
      is_favorited: true,
    });
    expect(states.find((state) => state.paper_id === ids[1])).toMatchObject({ is_saved: true, rating: -1 });
    expect(data.interests).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'typed', name: 'ada interest', description: 'coral reef ecology' }),
      ]),
    );
    expect(JSON.stringify(data.interests)).not.toContain('embedding');
    expect(data.followedAuthors).toEqual([
      expect.objectContaining({ name: 'A. Author', followed_from_paper_id: expect.anything() }),
    ]);
    expect(Number(data.followedAuthors[0].followed_from_paper_id)).toBe(ids[0]);
    expect(
      (data.deliveries as Record<string, unknown>[]).map((entry) => ({ ...entry, item_id: Number(entry.item_id) })),
    ).toEqual([
      expect.objectContaining({ channel: 'email', item_kind: 'paper', item_id: ids[0], title: 'Export paper one' }),
      expect.objectContaining({
        channel: 'keyword_alert',
        item_kind: 'paper',
        item_id: ids[1],
        title: 'Export paper two',
        keyword: 'ada keyword',
      }),
    ]);
    // The schedule and which channels exist; never the feed token, the robot's address or its secret.
    expect(data.delivery).toMatchObject({
      frequency: 'weekly',
      weekday: 3,
      hour: 9,
      time_zone: 'Europe/Berlin',
      email_enabled: true,
      has_feed: true,
      webhook_platform: 'dingtalk',
      has_webhook: true,
      has_webhook_secret: true,
    });
    expect(response.body).not.toContain('robot-token');
    expect(response.body).not.toContain('signing-secret');
    expect(response.body).not.toContain('feed_token');
    expect(states.some((state) => state.paper_id === ids[2])).toBe(false);
    expect(data.feedback).toEqual([
      expect.objectContaining({ title: 'ada feedback title', description: 'ada feedback body' }),
    ]);
    expect(data.contactMessages).toEqual([
      {
        title: 'ada contact title',
        description: 'ada contact title body',
        name: '阿达',
        reply_email: 'ada-export@example.org',
        created_at: expect.any(String),
      },
    ]);
    expect(response.body).not.toContain('other contact');
    expect(response.body).not.toContain('bob');
    expect(response.body).not.toContain('password');
    const bobs = (await request('GET', '/api/auth/user/export/', bob.token)).json();
    expect(bobs.contactMessages).toEqual([]);

    expect((await runtime.app.inject({ method: 'GET', url: '/api/auth/user/export/' })).statusCode).toBe(401);
  });
});

describe('delete my account', () => {
  it('refuses a wrong password with a Chinese 400 and removes nothing', async () => {
    const carol = await verifiedAccount('carol-delete@example.org');
    await request('POST', '/user-keywords/add/', carol.token, { keyword: 'carol keyword' });
    const before = await admin.countOwnedRecords(carol.id);

    const refused = await request('POST', '/api/auth/user/delete/', carol.token, { password: 'not-the-password1' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', message: '密码错误，请重新输入' });
    const empty = await request('POST', '/api/auth/user/delete/', carol.token, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('请输入密码');

    expect(await admin.find(carol.id)).toBeDefined();
    expect(await admin.countOwnedRecords(carol.id)).toEqual(before);
    expect((await request('GET', '/api/auth/user/', carol.token)).statusCode).toBe(200);
  });

  it('with the right password removes that user’s rows (not another’s) and the token stops working', async () => {
    const dave = await verifiedAccount('dave-delete@example.org');
    const erin = await verifiedAccount('erin-delete@example.org');
    for (const { token } of [dave, erin]) {
      await request('POST', '/user-keywords/add/', token, { keyword: 'shared interest' });
      await request('POST', '/api/feedback/send/', token, { type: '其他', title: 't', description: 'd', userInfo: {} });
    }
    const erinBefore = await admin.countOwnedRecords(erin.id);
    // Traces outside the account's rows: a finished learning job (queue history, events, its
    // deduplication key) and rate-limit counters (the feedback above counted one, a quota another).
    const learning = runtime.parts.queues.profileLearning;
    const job = await requestProfileRelearn(learning, dave.id);
    await expect.poll(() => job.getState(), { timeout: 20_000 }).toMatch(/^(completed|failed)$/);
    await runtime.app.rateLimitStore.increment(`quota:library-export:${dave.id}`, 60_000);
    expect(await mentionsOf(dave.id)).not.toEqual({ jobs: 0, events: 0, keys: 0 });
    // Cached by the auth guard now: the deletion must reach the cache too.
    expect((await request('GET', '/api/auth/user/', dave.token)).statusCode).toBe(200);

    const deleted = await request('POST', '/api/auth/user/delete/', dave.token, { password: PASSWORD });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ message: '账户已删除' });

    expect(await admin.find(dave.id)).toBeUndefined();
    // Queue history and counters no longer hold the id (PostgreSQL tables, or Redis).
    expect(await mentionsOf(dave.id)).toEqual({ jobs: 0, events: 0, keys: 0 });
    const daveCounts = await admin.countOwnedRecords(dave.id);
    expect(Object.values(daveCounts).every((count) => count === 0)).toBe(true);
    expect(await admin.countOwnedRecords(erin.id)).toEqual(erinBefore);
    expect(erinBefore.keywords).toBe(1);
    expect(erinBefore.feedback).toBe(1);

    const after = await request('GET', '/api/auth/user/', dave.token);
    expect(after.statusCode).toBe(401);
    const login = await runtime.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email: 'dave-delete@example.org', password: PASSWORD },
    });
    expect(login.statusCode).toBe(400);
  });

  it('limits password guesses per account like login guesses (429 with the wait)', async () => {
    const limited = await startTestRuntime({
      env: { SMTP_URL: smtp.url },
      shareWith: runtime,
      authRateLimits: { loginPerAccountAndClient: { max: 2, timeWindow: '15 minutes' } },
    });
    try {
      const frank = await verifiedAccount('frank-delete@example.org');
      const attempt = (password: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/user/delete/',
          headers: { authorization: `Bearer ${frank.token}` },
          payload: { password },
        });
      expect((await attempt('wrong-password-1')).statusCode).toBe(400);
      expect((await attempt('wrong-password-2')).statusCode).toBe(400);
      const third = await attempt(PASSWORD);
      expect(third.statusCode).toBe(429);
      expect(third.json()).toMatchObject({ code: 'RATE_LIMITED', remaining_seconds: expect.any(Number) });
      expect(await admin.find(frank.id)).toBeDefined();
    } finally {
      await limited.stop();
    }
  });
});

describe('the data download file name', () => {
  it("is the day in the readers' zone, not the UTC day", () => {
    const service = (timeZone: string) =>
      new AccountSelfService({
        admin: new UserAdminRepository(runtime.database.db),
        hasher: new PasswordHasher(1),
        logger: pino({ level: 'silent' }),
        timeZone,
      });
    // 20:00 UTC on the 29th is already the 30th in Beijing.
    expect(service('Asia/Shanghai').exportFileName('2026-11-29T20:00:00.000Z')).toBe(
      'research-radar-data-2026-11-30.json',
    );
    expect(service('UTC').exportFileName('2026-11-29T20:00:00.000Z')).toBe('research-radar-data-2026-11-29.json');
  });
});

/**
 * Where a user's id can stay once their rows are gone: jobs (payload or deduplication id), queue events,
 * and keys (rate-limit counters, deduplication keys), in BullMQ's PostgreSQL schema and the counters'
 * table, or in Redis when the test runs with REDIS_URL.
 */
async function mentionsOf(userId: string): Promise<{ jobs: number; events: number; keys: number }> {
  const mention = `%${userId}%`;
  if (runtime.parts.queues.backend === 'postgres') {
    const count = async (query: ReturnType<typeof sql>) =>
      Number((await runtime.database.db.execute<{ n: number }>(query)).rows[0]?.n);
    return {
      jobs: await count(
        sql`SELECT count(*)::int AS n FROM bullmq.job WHERE data::text LIKE ${mention} OR coalesce(dedup_id, '') LIKE ${mention}`,
      ),
      events: await count(sql`SELECT count(*)::int AS n FROM bullmq.event WHERE data::text LIKE ${mention}`),
      keys:
        (await count(sql`SELECT count(*)::int AS n FROM bullmq.dedup WHERE dedup_id LIKE ${mention}`)) +
        (await count(sql`SELECT count(*)::int AS n FROM radar.rate_limit_counters WHERE key LIKE ${mention}`)),
    };
  }
  const redis = new Redis(process.env.REDIS_URL as string);
  try {
    const keys = await redis.keys(`*${userId}*`);
    const learning = runtime.parts.queues.profileLearning;
    const jobs = (await learning.getJobs(['completed', 'failed', 'delayed', 'wait', 'active'])).filter(
      (job) => job?.data.userId === userId,
    );
    const events = await redis.xrange(`${runtime.queuePrefix}:profile-learning:events`, '-', '+');
    return { jobs: jobs.length, events: JSON.stringify(events).includes(userId) ? 1 : 0, keys: keys.length };
  } finally {
    redis.disconnect();
  }
}
