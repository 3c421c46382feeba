import { randomUUID } from 'node:crypto';
import { SessionRepository, sql, UserRepository } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, RESET_LINK_SUBJECT, resetLinkFrom, SmtpSink, waitForSubject } from '../../../test/smtp-sink';
import { startTestRuntime, TestClock, type TestRuntime } from '../../../test/test-runtime';
import { SESSION_LAST_SEEN_INTERVAL_MS } from './session.service';

/*
 * Sessions a user controls: every login is a session (the token's `sid`); logout, "log out other
 * devices", ending one device, a password change and a reset end sessions on the server. Two runtimes
 * over one database stand for two server processes, each with its own cache of users and sessions;
 * requests go over real HTTP with a browser's User-Agent, mails through a real SMTP server.
 */

let a: TestRuntime;
let b: TestRuntime;
let smtp: SmtpSink;
const clock = new TestClock();
const baseUrls = new Map<TestRuntime, string>();
const PASSWORD = 'tr0ub4dor-horse';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const WECHAT_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; V2309A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0.0.0 Mobile Safari/537.36 MicroMessenger/8.0.50.2701(0x28003237) NetType/WIFI Language/zh_CN';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function call(
  runtime: TestRuntime,
  method: string,
  url: string,
  options: { token?: string; body?: unknown; userAgent?: string } = {},
): Promise<Answer> {
  const response = await fetch(`${baseUrls.get(runtime)}${url}`, {
    method,
    headers: {
      'user-agent': options.userAgent ?? CHROME_WINDOWS,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const me = (runtime: TestRuntime, token: string) => call(runtime, 'GET', '/api/auth/user/', { token });
const sessionsOf = async (runtime: TestRuntime, token: string) => {
  const answer = await call(runtime, 'GET', '/api/auth/sessions/', { token });
  expect(answer.status).toBe(200);
  return answer.body.sessions as { id: string; device: string; is_current: boolean; last_seen_at: string }[];
};
const sidOf = (token: string) => (a.app.jwt.decode(token) as { sid: string }).sid;

async function login(
  runtime: TestRuntime,
  email: string,
  options: { password?: string; userAgent?: string } = {},
): Promise<string> {
  const response = await call(runtime, 'POST', '/api/auth/login/', {
    body: { email, password: options.password ?? PASSWORD },
    userAgent: options.userAgent,
  });
  expect(response.status).toBe(200);
  return response.body.token as string;
}

/** Registers and verifies through the real flow on runtime a; the verification signs in too. */
async function account(email: string): Promise<{ id: string; token: string }> {
  await call(a, 'POST', '/api/auth/register/', { body: { email, password: PASSWORD, password2: PASSWORD } });
  const code = codeFrom(await smtp.waitForMail(email));
  const verified = await call(a, 'POST', '/api/auth/verify-email/', { body: { email, verification_code: code } });
  expect(verified.status).toBe(200);
  return { id: (verified.body.user as { id: string }).id, token: verified.body.token as string };
}

/** Each token must be refused on both runtimes (401 AUTH_INVALID), and each kept token accepted. */
async function expectEnded(ended: string[], kept: string[] = []) {
  for (const runtime of [a, b]) {
    for (const token of ended) {
      const answer = await me(runtime, token);
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('AUTH_INVALID');
    }
    for (const token of kept) expect((await me(runtime, token)).status).toBe(200);
  }
}

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  // No overall request budget: its counting is a store round trip per request, and the 1,000-round race
  // below should spend its time on sessions.
  const env = { SMTP_URL: smtp.url, QUOTA_REQUESTS_PER_MINUTE: '0' };
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

describe('sessions', () => {
  it('logout ends the session on the server: the old token is refused on every instance at once', async () => {
    const { token: verifiedToken } = await account('logout@example.org');
    const laptop = await login(a, 'logout@example.org');
    // Both instances have the session cached before it ends.
    for (const token of [verifiedToken, laptop]) {
      expect((await me(a, token)).status).toBe(200);
      expect((await me(b, token)).status).toBe(200);
    }
    const out = await call(a, 'POST', '/api/auth/logout/', { token: laptop });
    expect(out).toEqual({ status: 200, body: { message: '已退出登录' } });
    await expectEnded([laptop], [verifiedToken]);
    // A second logout with the ended token is a 401 like any other request.
    expect((await call(b, 'POST', '/api/auth/logout/', { token: laptop })).status).toBe(401);
  });

  it('lists the active sessions with their device, this one first and marked', async () => {
    const { token: first } = await account('devices@example.org');
    const phone = await login(a, 'devices@example.org', { userAgent: SAFARI_IPHONE });
    const wechat = await login(b, 'devices@example.org', { userAgent: WECHAT_ANDROID });
    await call(a, 'POST', '/api/auth/logout/', { token: wechat });

    const listed = await sessionsOf(b, phone);
    expect(listed.map((session) => [session.device, session.is_current])).toEqual([
      ['Safari · iPhone', true],
      ['Chrome · Windows', false],
    ]);
    expect(listed.map((session) => session.id)).toEqual([sidOf(phone), sidOf(first)]);
    expect(listed[0]).toMatchObject({ user_agent: SAFARI_IPHONE });
    expect(Date.parse(String(listed[0]?.last_seen_at))).not.toBeNaN();
    expect((await call(a, 'GET', '/api/auth/sessions/')).status).toBe(401);
  });

  it('"log out other devices" keeps this session and ends every other one', async () => {
    const { token: first } = await account('others@example.org');
    const second = await login(b, 'others@example.org');
    const third = await login(a, 'others@example.org', { userAgent: SAFARI_IPHONE });
    for (const token of [first, second, third]) expect((await me(b, token)).status).toBe(200);

    const ended = await call(b, 'POST', '/api/auth/sessions/logout-others/', { token: third });
    expect(ended).toEqual({ status: 200, body: { message: '已退出其他 2 台设备', ended: 2 } });
    await expectEnded([first, second], [third]);
    expect((await sessionsOf(a, third)).map((session) => session.id)).toEqual([sidOf(third)]);
    const again = await call(a, 'POST', '/api/auth/sessions/logout-others/', { token: third });
    expect(again.body).toEqual({ message: '没有其他登录设备', ended: 0 });
  });

  it("ends one device by id, and answers 404 for another user's session, an ended one or a malformed id", async () => {
    const { token: mine } = await account('one-device@example.org');
    const tablet = await login(a, 'one-device@example.org');
    const { token: theirs } = await account('someone-else@example.org');

    for (const id of [sidOf(theirs), randomUUID(), 'not-a-session', "1' OR '1'='1"]) {
      const answer = await call(b, 'DELETE', `/api/auth/sessions/${encodeURIComponent(id)}/`, { token: mine });
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('NOT_FOUND');
    }
    await expectEnded([], [theirs, tablet]);

    const ended = await call(b, 'DELETE', `/api/auth/sessions/${sidOf(tablet)}/`, { token: mine });
    expect(ended).toEqual({ status: 200, body: { message: '已退出该设备', ended: 1 } });
    await expectEnded([tablet], [mine]);
    expect((await call(a, 'DELETE', `/api/auth/sessions/${sidOf(tablet)}/`, { token: mine })).status).toBe(404);
  });

  it('changes the password only with the current one, ends the other sessions, and mails the owner', async () => {
    const email = 'change@example.org';
    const { token: other } = await account(email);
    const here = await login(b, email);
    const change = (body: unknown, token = here) => call(b, 'POST', '/api/auth/password/change/', { token, body });

    const wrong = await change({
      current_password: 'not-my-password1',
      password: 'n3w-secret-pass',
      confirm_password: 'n3w-secret-pass',
    });
    expect(wrong).toMatchObject({
      status: 400,
      body: {
        code: 'CURRENT_PASSWORD_INVALID',
        message: '当前密码不正确',
        fields: { current_password: ['当前密码不正确'] },
      },
    });
    const missing = await change({ password: 'n3w-secret-pass', confirm_password: 'n3w-secret-pass' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('请输入当前密码');
    const same = await change({ current_password: PASSWORD, password: PASSWORD, confirm_password: PASSWORD });
    expect(same.status).toBe(400);
    expect(same.body.message).toBe('新密码不能与当前密码相同');
    const mismatch = await change({
      current_password: PASSWORD,
      password: 'n3w-secret-pass',
      confirm_password: 'other-pass1',
    });
    expect(mismatch.body.message).toBe('两次输入的密码不一致');
    // Nothing was changed by the refusals.
    await expectEnded([], [other, here]);

    const changed = await change({
      current_password: PASSWORD,
      password: 'n3w-secret-pass',
      confirm_password: 'n3w-secret-pass',
    });
    expect(changed).toEqual({ status: 200, body: { message: '密码已修改，其他 1 台设备已退出登录', ended: 1 } });
    await expectEnded([other], [here]);
    expect((await call(a, 'POST', '/api/auth/login/', { body: { email, password: PASSWORD } })).status).toBe(400);
    await login(a, email, { password: 'n3w-secret-pass' });

    const mail = await waitForSubject(smtp, email, '科研雷达：账户密码已修改');
    expect(mail.text).toContain('（设备：Chrome · Windows）');
    expect(mail.text).toContain('其他设备上的登录已全部退出');
    expect(mail.text).toMatch(/http:\/\/\S+\/forgot-password/);
    expect(mail.text).not.toContain('n3w-secret-pass');
  });

  it('limits guesses at the current password per account', async () => {
    const { token } = await account('guesser@example.org');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const answer = await call(a, 'POST', '/api/auth/password/change/', {
        token,
        body: {
          current_password: `guess-${attempt}`,
          password: 'n3w-secret-pass',
          confirm_password: 'n3w-secret-pass',
        },
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    // A limit, not a logout: the session goes on.
    expect((await me(b, token)).status).toBe(200);
  });

  it('a password reset ends every session, on every instance, and mails the owner', async () => {
    const email = 'reset-all@example.org';
    const { token: first } = await account(email);
    const second = await login(b, email, { userAgent: SAFARI_IPHONE });
    await expectEnded([], [first, second]);

    await call(a, 'POST', '/api/auth/forgot-password/', { body: { email } });
    const resetToken = resetLinkFrom(await waitForSubject(smtp, email, RESET_LINK_SUBJECT)).searchParams.get('token');
    const reset = await call(b, 'POST', '/api/auth/reset-password/', {
      body: { token: resetToken, password: 'fr3sh-password', confirm_password: 'fr3sh-password' },
      userAgent: SAFARI_IPHONE,
    });
    expect(reset.status).toBe(200);
    await expectEnded([first, second]);

    const fresh = await login(a, email, { password: 'fr3sh-password' });
    expect((await sessionsOf(b, fresh)).map((session) => session.id)).toEqual([sidOf(fresh)]);
    const mail = await waitForSubject(smtp, email, '科研雷达：账户密码已重置');
    expect(mail.text).toContain('（设备：Safari · iPhone）');
    expect(mail.text).toContain('所有设备上的登录已全部退出');
  });

  it("keeps the spec's PATCH /api/auth/user/ contract: a password in it is ignored, not set", async () => {
    const email = 'patch-password@example.org';
    const { token } = await account(email);
    const patched = await call(a, 'PATCH', '/api/auth/user/', {
      token,
      body: { username: 'patched', password: 'sn3aky-new-pass', current_password: PASSWORD },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.username).toBe('patched');
    await login(b, email);
    expect((await call(b, 'POST', '/api/auth/login/', { body: { email, password: 'sn3aky-new-pass' } })).status).toBe(
      400,
    );
  });

  it('1,000 logouts through one instance: the other, which had each session cached, refuses it every time', async () => {
    const users = new UserRepository(a.database.db);
    const lanes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => users.create({ email: `race-${i}@example.org`, isEmailVerified: true })),
    );
    // 100 sessions per reader, recorded in one statement as signIn records each (so the rounds stay short).
    const rounds = lanes.map((user) =>
      Array.from({ length: 100 }, () => {
        const sid = randomUUID();
        return { sid, token: a.app.jwt.sign({ sub: user.id, ver: user.tokenVersion, sid }) };
      }),
    );
    const expiresAt = new Date((a.app.jwt.decode(rounds[0]?.[0]?.token ?? '') as { exp: number }).exp * 1000);
    const rows = lanes.flatMap((user, i) =>
      (rounds[i] ?? []).map(({ sid }) => sql`(${sid}::uuid, ${user.id}::uuid, ${expiresAt})`),
    );
    await a.database.db.execute(
      sql`INSERT INTO radar.sessions (id, user_id, expires_at) VALUES ${sql.join(rows, sql`, `)}`,
    );
    // In-process requests (the guard, caches and listeners are the real ones), so 1,000 rounds stay short.
    const ask = (runtime: TestRuntime, method: 'GET' | 'POST', url: string, token: string) =>
      runtime.app.inject({ method, url, headers: { authorization: `Bearer ${token}` } }).then((r) => r.statusCode);
    const accepted: string[] = [];
    // b handles every notification 3 ms late, as a busy process does (the probe saw 4.6-17.7 ms): answering
    // after a's own notification came back, as before, left b accepting the ended session meanwhile.
    b.parts.userChanges?.slowDownForTests(3);
    // Ten readers at once, 100 rounds each: b is kept busy by the other lanes while a revokes.
    await Promise.all(
      lanes.map(async (user, i) => {
        for (const [round, { token }] of (rounds[i] ?? []).entries()) {
          // b has the session cached (its entry holds every session of the reader, read again after the last round's logout).
          expect(await ask(b, 'GET', '/api/auth/user/', token)).toBe(200);
          expect(await ask(a, 'POST', '/api/auth/logout/', token)).toBe(200);
          const after = await ask(b, 'GET', '/api/auth/user/', token);
          if (after !== 401) accepted.push(`${user.email} round ${round}: ${after}`);
        }
      }),
    );
    b.parts.userChanges?.slowDownForTests(0);
    expect(accepted).toEqual([]);
    // 3,000 requests in turn: 14.5 s alone on a quiet 2-core machine, past 60 s in a CI run's embedded
    // mode (PGlite runs both instances' queries one at a time, beside the other test files). The bound is
    // for a hang, not a speed check.
  }, 180_000);

  it('checks the session from memory: no query per request (a revocation nobody hears of is not seen)', async () => {
    const { token } = await account('from-memory@example.org');
    expect((await me(b, token)).status).toBe(200); // cached on b now
    // Revoked without firing the trigger, so no process hears of it: b answers from what it cached.
    await a.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(sql`UPDATE radar.sessions SET revoked_at = now() WHERE id = ${sidOf(token)}`);
    });
    expect((await me(b, token)).status).toBe(200);
    // Logging out there drops b's entry, and the session is read again: revoked.
    await call(b, 'POST', '/api/auth/logout/', { token });
    await expectEnded([token]);
  });

  it('records activity at most once per interval, not once per request', async () => {
    const { token } = await account('last-seen@example.org');
    const sid = sidOf(token);
    const lastSeen = async () => {
      const { rows } = await a.database.db.execute<{ last_seen_at: string }>(
        sql`SELECT last_seen_at::text FROM radar.sessions WHERE id = ${sid}`,
      );
      return rows[0]?.last_seen_at;
    };
    const atLogin = await lastSeen();
    for (let i = 0; i < 5; i++) expect((await me(i % 2 ? a : b, token)).status).toBe(200);
    expect(await lastSeen()).toBe(atLogin);

    clock.advance(SESSION_LAST_SEEN_INTERVAL_MS + 1_000);
    expect((await me(a, token)).status).toBe(200);
    const moved = await lastSeen();
    expect(moved).not.toBe(atLogin);
    // The other instance read the session before the write; it writes at most once too (the write
    // is conditional), and this instance writes no more within the interval.
    for (let i = 0; i < 5; i++) expect((await me(i % 2 ? a : b, token)).status).toBe(200);
    const after = await lastSeen();
    for (let i = 0; i < 5; i++) expect((await me(a, token)).status).toBe(200);
    expect(await lastSeen()).toBe(after);
    expect(Date.parse(String(after))).toBeGreaterThanOrEqual(Date.parse(String(moved)));
  });

  it('purges sessions whose tokens have expired', async () => {
    const { id } = await account('purged@example.org');
    const sessions = new SessionRepository(a.database.db);
    const later = new Date(Date.now() + 400 * 24 * 3600 * 1000);
    expect(await sessions.purgeExpired(later)).toBeGreaterThan(0);
    expect(await sessions.listForAuth(id, new Date())).toEqual([]);
  });
});
