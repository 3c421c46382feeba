import { sql, USER_CHANGES_APPLICATION_NAME, UserChangeListener, UserRepository } from '@radar/db';
import { testDatabaseUrl } from '@radar/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { codeFrom, RESET_LINK_SUBJECT, resetLinkFrom, SmtpSink, waitForSubject } from '../../../test/smtp-sink';
import { startTestRuntime, TestClock, type TestRuntime } from '../../../test/test-runtime';
import { UserCache } from '../../plugins/user-cache';

/*
 * The auth guard caches user rows (plugins/user-cache.ts). Two server runtimes over one database stand
 * for two processes: each has its own cache and its own LISTEN connection, and requests go over real
 * HTTP to each, as a client would send them. A "silent" write (session_replication_role = replica skips
 * triggers, so no notification goes out) shows whether a row came from the cache or the database.
 */

let a: TestRuntime;
let b: TestRuntime;
let smtp: SmtpSink;
const clock = new TestClock();
const baseUrls = new Map<TestRuntime, string>();
const PASSWORD = 'tr0ub4dor-horse';

async function call(
  runtime: TestRuntime,
  method: string,
  url: string,
  options: { token?: string; body?: unknown } = {},
) {
  const response = await fetch(`${baseUrls.get(runtime)}${url}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const me = (runtime: TestRuntime, token: string) => call(runtime, 'GET', '/api/auth/user/', { token });

async function login(runtime: TestRuntime, email: string, password = PASSWORD): Promise<string> {
  const response = await call(runtime, 'POST', '/api/auth/login/', { body: { email, password } });
  expect(response.status).toBe(200);
  return response.body.token as string;
}

/** Registers and verifies through the real flow on runtime a; returns the user id and a token. */
async function account(email: string): Promise<{ id: string; token: string }> {
  await call(a, 'POST', '/api/auth/register/', { body: { email, password: PASSWORD, password2: PASSWORD } });
  const code = codeFrom(await smtp.waitForMail(email));
  const verified = await call(a, 'POST', '/api/auth/verify-email/', { body: { email, verification_code: code } });
  return { id: (verified.body.user as { id: string }).id, token: verified.body.token as string };
}

/** Changes the username without firing the trigger, so no process hears of it. */
async function silentRename(runtime: TestRuntime, userId: string, username: string): Promise<void> {
  await runtime.database.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    await tx.execute(sql`UPDATE radar.users SET username = ${username} WHERE id = ${userId}`);
  });
}

const usernameOn = async (runtime: TestRuntime, token: string) => (await me(runtime, token)).body.username;

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  const env = { SMTP_URL: smtp.url };
  a = await startTestRuntime({ env, clock: clock.now });
  b = await startTestRuntime({ env, clock: clock.now, shareWith: a });
  for (const runtime of [a, b]) {
    await runtime.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = runtime.app.server.address() as { port: number };
    baseUrls.set(runtime, `http://127.0.0.1:${port}`);
  }
});

afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await smtp?.stop();
});

describe('user cache of the auth guard', () => {
  it('listens for user changes on both runtimes, and serves a signed-in user from memory', async () => {
    expect(a.parts.userChanges?.isLive()).toBe(true);
    expect(b.parts.userChanges?.isLive()).toBe(true);
    const { id, token } = await account('cached@example.org');
    expect(await usernameOn(b, token)).toBe('');
    await silentRename(a, id, 'silently-renamed');
    // No notification went out, so B still has the row it read: the cache is in use.
    expect(await usernameOn(b, token)).toBe('');
    await call(a, 'PATCH', '/api/auth/user/', { token, body: { username: 'renamed-on-a' } });
    // The notification reaches B asynchronously (after A has answered); the test clock stands still, so
    // only the notification can make B read the row again.
    await vi.waitFor(async () => expect(await usernameOn(b, token)).toBe('renamed-on-a'), { timeout: 10_000 });
  });

  it('refuses the old token on the other runtime as soon as a password reset answers (5 rounds)', async () => {
    const email = 'reset-twice@example.org';
    await account(email);
    for (let round = 1; round <= 5; round++) {
      clock.advance(61 * 60_000); // past the 3 reset mails an hour
      const oldOnA = await login(a, email);
      const oldOnB = await login(b, email);
      expect((await me(b, oldOnA)).status).toBe(200); // cached on B now
      expect((await me(a, oldOnB)).status).toBe(200); // and on A
      await call(b, 'POST', '/api/auth/forgot-password/', { body: { email } });
      const token = resetLinkFrom(await waitForSubject(smtp, email, RESET_LINK_SUBJECT, round)).searchParams.get(
        'token',
      );
      const reset = await call(a, 'POST', '/api/auth/reset-password/', {
        body: { token, password: PASSWORD, confirm_password: PASSWORD },
      });
      expect(reset.status).toBe(200);
      // As for a profile update (below): B refuses the old tokens once the notification has reached it.
      await b.parts.userChanges?.sync();
      for (const [runtime, oldToken] of [
        [b, oldOnA],
        [b, oldOnB],
        [a, oldOnA],
        [a, oldOnB],
      ] as const) {
        const refused = await me(runtime, oldToken);
        expect(refused.status, `round ${round}`).toBe(401);
        expect(refused.body.code).toBe('AUTH_INVALID');
      }
      const fresh = await login(a, email);
      expect((await me(b, fresh)).status).toBe(200);
    }
  });

  it('shows a profile update made on one runtime on the other as soon as its notification arrives there', async () => {
    const { token } = await account('profile@example.org');
    for (let round = 1; round <= 3; round++) {
      expect((await me(b, token)).status).toBe(200);
      const patched = await call(a, 'PATCH', '/api/auth/user/', {
        token,
        body: { username: `name-${round}`, research_institution: `Institute ${round}` },
      });
      expect(patched.status).toBe(200);
      // The writer answers once its own listener heard the change; the other process hears it the moment
      // the notification reaches its connection (on a loaded machine, a few milliseconds later). From
      // then on it never serves the old row: wait for that moment (B's own NOTIFY echoed back, which
      // PostgreSQL delivers after every earlier one), not a time.
      await b.parts.userChanges?.sync();
      expect((await me(b, token)).body).toMatchObject({
        username: `name-${round}`,
        research_institution: `Institute ${round}`,
      });
      // The runtime that wrote drops its own copy before answering.
      expect((await me(a, token)).body.username).toBe(`name-${round}`);
    }
  });

  it('refuses the token of a deleted user on every runtime', async () => {
    const { id, token } = await account('deleted@example.org');
    expect((await me(a, token)).status).toBe(200);
    expect((await me(b, token)).status).toBe(200);
    // As an operator or another process would: no request of ours made the change, so wait until one
    // process has heard it; the others were sent the notification at the same moment.
    await new UserRepository(b.database.db).delete(id);
    await a.parts.userChanges?.sync();
    expect((await me(a, token)).status).toBe(401);
    expect((await me(b, token)).status).toBe(401);
  });

  it('a revocation waits for every live listener: a slow one until it acknowledged, a silent one until its lease ran out', async () => {
    // Listeners of their own with a short heartbeat (lease 100 + 400 ms), beside the runtimes' two.
    const options = { connectionConfig: a.database.connectionConfig, heartbeatMs: 100, heartbeatTimeoutMs: 400 };
    const revoker = new UserChangeListener(options);
    const slow = new UserChangeListener(options);
    const silent = new UserChangeListener(options);
    try {
      await Promise.all([revoker.start(), slow.start(), silent.start()]);
      // Long enough for every listener to have heard the others' heartbeats.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const { id } = await account('revoked-everywhere@example.org');
      const heardBySlow: string[] = [];
      slow.on('change', (userId) => heardBySlow.push(userId));
      slow.slowDownForTests(200);
      // Frozen: it handles nothing for 5 s, so it neither acknowledges nor renews its lease.
      silent.slowDownForTests(5_000);
      await new UserRepository(a.database.db).update(id, { username: 'renamed' });
      await revoker.syncAll();
      // The slow listener had handled the change before the revoker was done, and the silent one no
      // longer trusts anything it cached (its lease has run out; it is not live).
      expect(heardBySlow).toContain(id);
      expect(silent.isLive()).toBe(false);
    } finally {
      await Promise.all([revoker.close(), slow.close(), silent.close()]);
    }
  });

  it('reads every request from the database while the listener is down, and empties the cache', async () => {
    const { id, token } = await account('listener-down@example.org');
    expect(await usernameOn(b, token)).toBe('');
    const listener = b.parts.userChanges;
    if (!listener) throw new Error('no listener on runtime b');
    listener.suspend();
    expect(listener.isLive()).toBe(false);
    try {
      // Missed while down: B must not answer from what it had cached.
      await silentRename(a, id, 'while-down-1');
      expect(await usernameOn(b, token)).toBe('while-down-1');
      await silentRename(a, id, 'while-down-2');
      expect(await usernameOn(b, token)).toBe('while-down-2');
    } finally {
      expect(await listener.resume()).toBe(true);
    }
    expect(await usernameOn(b, token)).toBe('while-down-2');
    await silentRename(a, id, 'after-resume');
    expect(await usernameOn(b, token)).toBe('while-down-2'); // cached again
  });

  // Embedded PGlite runs in this process: its connections are not lost, and there is no backend to end.
  it.skipIf(!testDatabaseUrl())(
    'reconnects by itself after its connection is ended, keeping nothing from before',
    async () => {
      const { id, token } = await account('reconnect@example.org');
      const listener = a.parts.userChanges;
      if (!listener) throw new Error('no listener on runtime a');
      expect(await usernameOn(a, token)).toBe('');
      const lost = new Promise<boolean>((resolve) => listener.once('live', resolve));
      await a.database.pool.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
        [USER_CHANGES_APPLICATION_NAME],
      );
      expect(await lost).toBe(false);
      await silentRename(b, id, 'while-reconnecting');
      expect(await usernameOn(a, token)).toBe('while-reconnecting');
      if (!listener.isLive()) await new Promise((resolve) => listener.once('live', resolve));
      expect(await usernameOn(a, token)).toBe('while-reconnecting');
      await silentRename(b, id, 'after-reconnect');
      expect(await usernameOn(a, token)).toBe('while-reconnecting'); // cached again
    },
  );

  it('keeps at most maxEntries rows for at most ttlMs, and never a row loaded across an invalidation', async () => {
    const listener = a.parts.userChanges;
    if (!listener) throw new Error('no listener on runtime a');
    const users = new UserRepository(a.database.db);
    let now = 0;
    let loads = 0;
    const cache = new UserCache(
      (userId) => {
        loads++;
        return users.findById(userId);
      },
      listener,
      { maxEntries: 2, ttlMs: 1_000, now: () => now },
    );
    try {
      const ids = await Promise.all(
        ['lru-1', 'lru-2', 'lru-3'].map(async (name) => (await account(`${name}@example.org`)).id),
      );
      const [first, second, third] = ids as [string, string, string];
      await cache.get(first);
      await cache.get(second);
      await cache.get(first); // first is now the most recently used
      await cache.get(third); // evicts second
      expect(cache.size).toBe(2);
      loads = 0;
      await cache.get(first);
      await cache.get(third);
      expect(loads).toBe(0);
      await cache.get(second);
      expect(loads).toBe(1);

      now += 1_001;
      loads = 0;
      await cache.get(second);
      expect(loads).toBe(1); // expired

      // A change heard while the row is being read: that row may predate it, so it is not kept.
      cache.clear();
      loads = 0;
      const reading = cache.get(first);
      cache.invalidate(first);
      await reading;
      await cache.get(first);
      expect(loads).toBe(2);
    } finally {
      cache.close();
    }
  });
});
