import { RateLimitRepository, sql, UserRepository, wrapPool } from '@radar/db';
import { loadConfig } from '@radar/shared/server';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApp, createLogger } from '../src';
import { DEFAULT_AUTH_RATE_LIMITS } from '../src/features/accounts/account-rate-limits';
import { RESEARCH_CONFIRM_LIMIT } from '../src/features/research-profile/research-profile.route';
import { createRateLimitStore, InProcessRateLimitStore, type RateLimitStore } from '../src/plugins/rate-limit-store';
import { PasswordHasher } from '../src/security/password-hasher';
import { resetLinkFrom, SmtpSink } from './smtp-sink';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/**
 * Rate limits kept where every server instance sees them (Redis when REDIS_URL is set, else
 * PostgreSQL; in embedded mode, whose database has one server process, in that process, overflowing to
 * the database): shared by instances, surviving a restart (Redis, PostgreSQL) and never evicted; login limits that an attacker
 * cannot turn against the owner; the per-user limit on confirm; what happens when the store is down.
 */

const PASSWORD = 'c0rrect-horse-battery';
const redisUrl = loadConfig({ ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}) }).redisUrl;
const mode = redisUrl ? 'Redis' : 'PostgreSQL';

const forgot = (runtime: TestRuntime, email: string, remoteAddress = '127.0.0.1') =>
  runtime.app.inject({ method: 'POST', url: '/api/auth/forgot-password/', payload: { email }, remoteAddress });

const login = (runtime: TestRuntime, email: string, password: string, remoteAddress: string) =>
  runtime.app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password }, remoteAddress });

async function verifiedAccount(runtime: TestRuntime, email: string) {
  const passwordHash = await new PasswordHasher().hash(PASSWORD);
  return new UserRepository(runtime.database.db).create({ email, passwordHash, isEmailVerified: true });
}

/** Every key the counters are stored under, in whichever store this run uses. */
async function storedKeys(runtime: TestRuntime): Promise<string[]> {
  if (!redisUrl) {
    const rows = await runtime.database.db.execute<{ key: string }>(sql`SELECT key FROM radar.rate_limit_counters`);
    return rows.rows.map((row) => row.key);
  }
  const client = new Redis(redisUrl);
  try {
    return await client.keys(`${runtime.queuePrefix}:rate-limit:*`);
  } finally {
    client.disconnect();
  }
}

/**
 * No in-process worker in any server here: limits are counted by the app (the mails go out from the
 * request), and the worker's start is most of a runtime's boot, of which this file makes six.
 */
const NO_WORKER = { RUN_WORKER: 'false' };

describe(`counters in ${mode}`, () => {
  let first: TestRuntime;
  let second: TestRuntime | undefined;

  beforeAll(async () => {
    // Real limits, except the per-IP forgot limit, so one address can fill the store with other keys.
    first = await startTestRuntime({
      env: NO_WORKER,
      authRateLimits: { forgot: { max: 100_000, timeWindow: '1 hour' } },
      countersInDatabase: true,
    });
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  it('are shared by two server instances', async () => {
    second = await startTestRuntime({ env: NO_WORKER, shareWith: first, authRateLimits: {}, countersInDatabase: true });
    const statuses = [];
    for (const runtime of [first, second, first, second]) {
      statuses.push((await forgot(runtime, 'shared@example.org')).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('survive a restart of the server', async () => {
    const before = await startTestRuntime({
      env: NO_WORKER,
      shareWith: first,
      authRateLimits: {},
      countersInDatabase: true,
    });
    for (let i = 0; i < 3; i++) expect((await forgot(before, 'restart@example.org')).statusCode).toBe(200);
    await before.stop();
    const after = await startTestRuntime({
      env: NO_WORKER,
      shareWith: first,
      authRateLimits: {},
      countersInDatabase: true,
    });
    try {
      const response = await forgot(after, 'restart@example.org');
      expect(response.statusCode).toBe(429);
      expect(response.json().remaining_seconds).toBeGreaterThan(3000);
    } finally {
      await after.stop();
    }
  });

  // Redis only: with the PostgreSQL store each key is a row, which nothing evicts, and 'are shared by two
  // server instances' already shows the counters live there and not in the process (whose old store
  // dropped the least recently used of 5,000 keys). In PGlite the 5,100 requests took about a minute.
  it.runIf(redisUrl)(
    'are not evicted by thousands of other keys',
    async () => {
      for (let i = 0; i < 3; i++) expect((await forgot(first, 'victim@example.org')).statusCode).toBe(200);
      // The in-process store kept 5,000 keys per limiter and dropped the least recently used.
      for (let batch = 0; batch < 5_100; batch += 50) {
        const responses = await Promise.all(
          Array.from({ length: 50 }, (_, i) => forgot(first, `other-${batch + i}@example.org`)),
        );
        expect(responses.every((response) => response.statusCode === 200)).toBe(true);
      }
      expect((await forgot(first, 'victim@example.org')).statusCode).toBe(429);
    },
    120_000,
  );
});

describe('login limits', () => {
  let runtime: TestRuntime;
  let smtp: SmtpSink;
  const delays: number[] = [];

  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    runtime = await startTestRuntime({
      env: { ...NO_WORKER, SMTP_URL: smtp.url },
      authRateLimits: {},
      // In the database in embedded mode too, so 'store no e-mail address in a key' can list the keys.
      countersInDatabase: true,
      loginFailureDelay: async (ms) => {
        delays.push(ms);
      },
    });
  });
  afterAll(async () => {
    await runtime?.stop();
    await smtp?.stop();
  });

  it('let the owner in from their own address while others hammer the account, slowing the failures', async () => {
    await verifiedAccount(runtime, 'owner@example.org');
    // One address: refused after its own 10 attempts, and only on this account.
    const fromOne = [];
    for (let i = 0; i < 11; i++)
      fromOne.push((await login(runtime, 'owner@example.org', `guess-${i}`, '198.51.100.7')).statusCode);
    expect(fromOne).toEqual([...Array(10).fill(400), 429]);
    // Many addresses: none is refused, every failure after the fifth waits longer, up to 10 s.
    for (let i = 0; i < 10; i++) {
      expect((await login(runtime, 'owner@example.org', `guess-${i}`, `203.0.113.${i + 1}`)).statusCode).toBe(400);
    }
    const { loginFailureDelay } = DEFAULT_AUTH_RATE_LIMITS;
    expect(loginFailureDelay).toMatchObject({ freeFailures: 5, firstDelayMs: 1000, maxDelayMs: 10_000 });
    expect(delays).toEqual([1000, 2000, 4000, 8000, ...Array(11).fill(10_000)]);

    const owner = await login(runtime, 'owner@example.org', PASSWORD, '192.0.2.44');
    expect(owner.statusCode).toBe(200);
    expect(delays).toHaveLength(15); // a correct password is answered at once
  });

  it('are cleared by a password reset', async () => {
    await verifiedAccount(runtime, 'forgetful@example.org');
    for (let i = 0; i < 10; i++) await login(runtime, 'forgetful@example.org', `guess-${i}`, '192.0.2.55');
    expect((await login(runtime, 'forgetful@example.org', PASSWORD, '192.0.2.55')).statusCode).toBe(429);
    const delayed = delays.length;

    await forgot(runtime, 'forgetful@example.org', '192.0.2.55');
    const token = resetLinkFrom(await smtp.waitForMail('forgetful@example.org')).searchParams.get('token');
    const reset = await runtime.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password/',
      payload: { token, password: 'n3w-passphrase', confirm_password: 'n3w-passphrase' },
      remoteAddress: '192.0.2.56',
    });
    expect(reset.statusCode).toBe(200);

    expect((await login(runtime, 'forgetful@example.org', 'n3w-passphrase', '192.0.2.55')).statusCode).toBe(200);
    // The account's failure count starts again: the next five failures are answered at once.
    for (let i = 0; i < 5; i++) await login(runtime, 'forgetful@example.org', `again-${i}`, '192.0.2.57');
    expect(delays).toHaveLength(delayed);
  });

  it("let the owner's known browser in while a guesser on the same address is refused (campus NAT)", async () => {
    const nat = '198.51.100.9';
    await verifiedAccount(runtime, 'nat-owner@example.org');
    await verifiedAccount(runtime, 'nat-other@example.org');
    const withCookie = (email: string, password: string, cookie: string) =>
      runtime.app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        payload: { email, password },
        remoteAddress: nat,
        headers: { cookie },
      });
    const first = await login(runtime, 'nat-owner@example.org', PASSWORD, nat);
    expect(first.statusCode).toBe(200);
    // The spec's contract stays: the token is in the answer; the cookie only says "this browser".
    expect(first.json().token).toEqual(expect.any(String));
    const device = first.cookies.find((cookie) => cookie.name === 'radar_device');
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth/login/' });
    const ownerCookie = `radar_device=${device?.value}`;
    const otherCookie = `radar_device=${
      (await login(runtime, 'nat-other@example.org', PASSWORD, nat)).cookies.find((c) => c.name === 'radar_device')
        ?.value
    }`;

    // A guesser behind the same address: past the account's 10 and the route's 20 a minute, refused.
    const guesses = [];
    for (let i = 0; i < 22; i++)
      guesses.push((await login(runtime, 'nat-owner@example.org', `g-${i}`, nat)).statusCode);
    expect(guesses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(guesses.slice(10)).toEqual(Array(12).fill(429));

    // The owner's browser gets in with the right password; a new browser on that address waits.
    expect((await withCookie('nat-owner@example.org', PASSWORD, ownerCookie)).statusCode).toBe(200);
    expect((await login(runtime, 'nat-owner@example.org', PASSWORD, nat)).statusCode).toBe(429);
    // A cookie of another account, or an altered one, is no cookie at all.
    expect((await withCookie('nat-owner@example.org', PASSWORD, otherCookie)).statusCode).toBe(429);
    const altered = ownerCookie.replace(/:([^:]+):/, ':forged-device-id:');
    expect(altered).not.toBe(ownerCookie);
    expect((await withCookie('nat-owner@example.org', PASSWORD, altered)).statusCode).toBe(429);

    // Failures from the known browser are still limited, per browser: 10, then 429 for it alone.
    const fromBrowser = [];
    for (let i = 0; i < 11; i++) {
      fromBrowser.push((await withCookie('nat-owner@example.org', `typo-${i}`, ownerCookie)).statusCode);
    }
    expect(fromBrowser).toEqual([...Array(10).fill(400), 429]);
  });

  it('store no e-mail address in a key', async () => {
    const keys = await storedKeys(runtime);
    expect(keys.some((key) => key.includes('login-client:'))).toBe(true);
    expect(keys.filter((key) => key.includes('@'))).toEqual([]);
  });
});

// These need no limits of their own: one server, with the test defaults, for all of them.
describe('with the test limits', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ env: NO_WORKER });
  });
  afterAll(async () => {
    await runtime?.stop();
  });

  describe('POST /api/auth/research-direction/confirm/', () => {
    it('is limited per user', async () => {
      const signIn = async (email: string) => {
        const user = await new UserRepository(runtime.database.db).create({ email });
        return { authorization: `Bearer ${await runtime.app.signIn(user)}` };
      };
      const confirm = (headers: Record<string, string>, i: number) =>
        runtime.app.inject({
          method: 'POST',
          url: '/api/auth/research-direction/confirm/',
          headers,
          payload: { research_position: `Position ${i}` },
          remoteAddress: `198.51.100.${(i % 200) + 1}`,
        });
      const busy = await signIn('busy@example.org');
      expect(RESEARCH_CONFIRM_LIMIT.max).toBe(30);
      for (let i = 0; i < 30; i++) expect((await confirm(busy, i)).statusCode).toBe(200);
      const refused = await confirm(busy, 30);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', message: '请求过于频繁，请稍后再试' });
      expect(refused.json().remaining_seconds).toBeGreaterThan(3000);
      expect((await confirm(await signIn('calm@example.org'), 0)).statusCode).toBe(200);
    });
  });

  describe('the stores', () => {
    const stores: [string, RateLimitStore, () => Promise<void>][] = [];

    beforeAll(() => {
      const logger = createLogger('silent');
      const counters = new RateLimitRepository(runtime.database.db);
      stores.push([
        'PostgreSQL',
        createRateLimitStore({ redis: undefined, namespace: '', counters, logger }),
        async () => {},
      ]);
      // Room for few keys, so these tests count in memory and in the database it overflows to.
      stores.push([
        'in process',
        new InProcessRateLimitStore(createRateLimitStore({ redis: undefined, namespace: '', counters, logger }), 3),
        async () => {},
      ]);
      if (redisUrl) {
        const redis = new Redis(redisUrl);
        const namespace = `${runtime.queuePrefix}:rate-limit:`;
        stores.push([
          'Redis',
          createRateLimitStore({ redis, namespace, counters, logger }),
          async () => redis.disconnect(),
        ]);
      }
    });
    afterAll(async () => {
      for (const [, store, close] of stores) {
        await store.close();
        await close();
      }
    });

    it('count every one of many simultaneous hits on a key, and forget keys by prefix', async () => {
      for (const [name, store] of stores) {
        const hits = await Promise.all(Array.from({ length: 40 }, () => store.increment(`burst:${name}`, 60_000)));
        expect(hits.map((hit) => hit.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
        expect(Math.max(...hits.map((hit) => hit.ttlMs))).toBeLessThanOrEqual(60_000);

        await store.increment(`p_x:${name}:a`, 60_000);
        await store.increment(`p%x:${name}:b`, 60_000);
        await store.deleteByPrefix(`p_x:${name}:`);
        expect((await store.read(`p_x:${name}:a`)).hits).toBe(0);
        expect((await store.read(`p%x:${name}:b`)).hits).toBe(1); // LIKE / glob characters are literal
      }
    });

    it('count hits on several keys in one call, each with its own window, also under concurrency', async () => {
      for (const [name, store] of stores) {
        const keys = [
          { key: `many:${name}:minute`, windowMs: 60_000 },
          { key: `many:${name}:hour`, windowMs: 3_600_000 },
        ];
        const results = await Promise.all(Array.from({ length: 20 }, () => store.incrementMany(keys)));
        for (const index of [0, 1]) {
          const hits = results.map((counts) => counts[index]?.hits ?? 0).sort((a, b) => a - b);
          expect(hits).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
        }
        const [minute, hour] = await store.incrementMany(keys);
        expect(minute?.ttlMs).toBeLessThanOrEqual(60_000);
        expect(hour?.ttlMs).toBeGreaterThan(60_000);
        expect(await store.read(`many:${name}:hour`)).toMatchObject({ hits: 21 });
      }
    });

    it('in process: a full map counts new keys in the database, evicting none, until their windows end', async () => {
      const counters = new RateLimitRepository(runtime.database.db);
      const logger = createLogger('silent');
      let now = Date.now();
      const store = new InProcessRateLimitStore(
        createRateLimitStore({ redis: undefined, namespace: '', counters, logger }),
        2,
        () => now,
      );
      const inTable = async (key: string) =>
        (await runtime.database.db.execute(sql`SELECT 1 FROM radar.rate_limit_counters WHERE key = ${key}`)).rows
          .length;
      await store.increment('full:a', 60_000);
      await store.increment('full:b', 60_000);
      expect(await store.increment('full:c', 60_000)).toMatchObject({ hits: 1 });
      expect(await store.increment('full:a', 60_000)).toMatchObject({ hits: 2 });
      expect(await store.incrementMany([{ key: 'full:c', windowMs: 60_000 }])).toMatchObject([{ hits: 2 }]);
      expect(store.size).toBe(2);
      expect([await inTable('full:a'), await inTable('full:c')]).toEqual([0, 1]);
      // While a window started in the database runs, a key not in memory counts there, room or not.
      await store.delete('full:b');
      expect(await store.increment('full:d', 60_000)).toMatchObject({ hits: 1 });
      expect(await inTable('full:d')).toBe(1);
      expect(await store.read('full:c')).toMatchObject({ hits: 2 });
      // Once every such window has ended, ended windows in memory make room for new keys.
      now += 120_000;
      await store.increment('full:e', 60_000);
      expect(await inTable('full:e')).toBe(0);
      expect(store.size).toBe(2);
      await store.deleteMentioningOutsideDatabase('full:e');
      expect(await store.read('full:e')).toEqual({ hits: 0, ttlMs: 0 });
    });

    it('count in the process in embedded mode without Redis, else in the shared store', async () => {
      const user = await new UserRepository(runtime.database.db).create({ email: 'where-counted@example.org' });
      const headers = { authorization: `Bearer ${await runtime.app.signIn(user)}` };
      expect((await runtime.app.inject({ method: 'GET', url: '/api/auth/user/', headers })).statusCode).toBe(200);
      expect((await runtime.app.rateLimitStore.read(`quota:requests:${user.id}`)).hits).toBe(1);
      const rows = await runtime.database.db.execute(
        sql`SELECT 1 FROM radar.rate_limit_counters WHERE key = ${`quota:requests:${user.id}`}`,
      );
      expect(rows.rows.length).toBe(!redisUrl && runtime.database.mode === 'external' ? 1 : 0);
    });

    it('PostgreSQL: ended windows restart at 1 and are purged', async () => {
      const counters = new RateLimitRepository(runtime.database.db);
      await runtime.database.db.execute(sql`
        INSERT INTO radar.rate_limit_counters (key, hits, reset_at) VALUES
          ('ended-a', 50, now() - interval '1 second'), ('ended-b', 3, now() - interval '1 hour')`);
      expect(await counters.read('ended-b')).toEqual({ hits: 0, ttlMs: 0 });
      expect(await counters.hit('ended-a', 60_000)).toMatchObject({ hits: 1 });
      await counters.purgeExpired();
      const rows = await runtime.database.db.execute<{ key: string }>(
        sql`SELECT key FROM radar.rate_limit_counters WHERE key LIKE 'ended-%'`,
      );
      expect(rows.rows).toEqual([{ key: 'ended-a' }]);
    });
  });

  describe('when the counters cannot be reached', () => {
    it('limited requests are refused with 503 (fail closed), in either store', async () => {
      const unreachableRedis = new Redis('redis://127.0.0.1:1', {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
      });
      unreachableRedis.on('error', () => {});
      const unreachablePool = new pg.Pool({
        host: '127.0.0.1',
        port: 1,
        user: 'postgres',
        connectionTimeoutMillis: 2_000,
      });
      unreachablePool.on('error', () => {});
      try {
        // The runtime's own wiring, with only the counters' store out of reach (and production limits).
        for (const broken of [
          { rateLimitRedis: unreachableRedis },
          { rateLimitRedis: undefined, database: wrapPool(unreachablePool, 'external', {}) },
        ]) {
          const app = await composeApp({ ...runtime.parts, logger: createLogger('silent'), ...broken });
          try {
            const response = await app.inject({
              method: 'POST',
              url: '/api/auth/login/',
              payload: { email: 'someone@example.org', password: PASSWORD },
            });
            expect(response.statusCode).toBe(503);
            expect(response.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: '服务暂时不可用，请稍后重试' });
          } finally {
            await app.close();
          }
        }
      } finally {
        unreachableRedis.disconnect();
        await unreachablePool.end();
      }
    });
  });
});
