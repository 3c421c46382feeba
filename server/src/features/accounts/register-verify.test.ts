import { sql, UserRepository } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, SmtpSink } from '../../../test/smtp-sink';
import { PRODUCTION_PASSWORD_HASHING, startTestRuntime, TestClock, type TestRuntime } from '../../../test/test-runtime';

let runtime: TestRuntime;
let smtp: SmtpSink;
const clock = new TestClock();
const SECOND = 1000;

/**
 * Every call comes from one browser, the registrant's: it keeps the cookie the server sets per address
 * (its own codes; account-enumeration.test.ts checks what other browsers see).
 */
const jar = new Map<string, string>();
const inBrowser = async (email: unknown, request: { method: 'GET' | 'POST'; url: string; payload?: unknown }) => {
  const cookie = typeof email === 'string' ? jar.get(email) : undefined;
  const response = await runtime.app.inject({
    method: request.method,
    url: request.url,
    ...(request.payload === undefined ? {} : { payload: request.payload as Record<string, unknown> }),
    headers: cookie ? { cookie: `radar_verify=${cookie}` } : {},
  });
  const set = response.cookies.find((c) => c.name === 'radar_verify');
  if (set && typeof email === 'string') {
    if (set.value && set.maxAge !== 0) jar.set(email, set.value);
    else jar.delete(email);
  }
  return response;
};
const post = (url: string, payload: unknown) =>
  inBrowser((payload as { email?: unknown }).email, { method: 'POST', url, payload });
const register = (email: string, password = 'tr0ub4dor-horse', password2 = password) =>
  post('/api/auth/register/', { email, password, password2 });
const verify = (email: string, code: string) => post('/api/auth/verify-email/', { email, verification_code: code });
const status = async (email: string) =>
  (
    await inBrowser(email, { method: 'GET', url: `/api/auth/verification-status/?email=${encodeURIComponent(email)}` })
  ).json();
/** A wrong code that is certainly not the right one. */
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  runtime = await startTestRuntime({
    env: { SMTP_URL: smtp.url, WEB_BASE_URL: 'https://radar.example.edu' },
    clock: clock.now,
    // These tests check the stored hash, so they run at the parameters the server uses.
    passwordHashing: PRODUCTION_PASSWORD_HASHING,
  });
});

afterAll(async () => {
  await runtime?.stop();
  await smtp?.stop();
});

describe('POST /api/auth/register/', () => {
  it('creates an unverified account, stores an argon2id hash, and mails a 6-digit code', async () => {
    const response = await register('New.User@Example.org');
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      message: '注册成功，验证码已发送到你的邮箱',
      email: 'new.user@example.org',
      resend_available_in: 60,
    });
    const mail = await smtp.waitForMail('new.user@example.org');
    expect(mail.subject).toBe('科研雷达：邮箱验证码');
    expect(codeFrom(mail)).toMatch(/^\d{6}$/);
    expect(mail.html).toContain(codeFrom(mail));
    expect(mail.text).toContain('5 分钟内有效');

    const user = await new UserRepository(runtime.database.db).findByEmail('new.user@example.org');
    expect(user?.isEmailVerified).toBe(false);
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // Only a keyed hash of the code is stored.
    const stored = await runtime.database.db.execute<{ code_hash: string }>(
      sql`SELECT code_hash FROM radar.email_verification_codes WHERE user_id = ${user?.id} ORDER BY created_at DESC LIMIT 1`,
    );
    expect(stored.rows[0]?.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.rows[0]?.code_hash).not.toContain(codeFrom(mail));
  });

  it.each([
    [{ password: 'tr0ub4dor-horse', password2: 'tr0ub4dor-horse' }, 'email', '请输入邮箱地址'],
    [{ email: '', password: 'tr0ub4dor-horse', password2: 'tr0ub4dor-horse' }, 'email', '请输入邮箱地址'],
    [
      { email: 'not-an-address', password: 'tr0ub4dor-horse', password2: 'tr0ub4dor-horse' },
      'email',
      '请输入正确的邮箱格式',
    ],
    [
      { email: `${'a'.repeat(250)}@x.org`, password: 'tr0ub4dor-horse', password2: 'tr0ub4dor-horse' },
      'email',
      '邮箱地址过长',
    ],
    [{ email: 'p@example.org', password2: 'x' }, 'password', '请输入密码'],
    [{ email: 'p@example.org', password: 'a1b2c3', password2: 'a1b2c3' }, 'password', '密码长度至少为8位'],
    [
      { email: 'p@example.org', password: 'ABCDEFG123', password2: 'ABCDEFG123' },
      'password',
      '密码必须包含至少一个小写字母',
    ],
    [
      { email: 'p@example.org', password: 'abcdefghij', password2: 'abcdefghij' },
      'password',
      '密码必须包含至少一个数字',
    ],
    [{ email: 'p@example.org', password: 'tr0ub4dor-horse' }, 'password2', '请确认密码'],
    [
      { email: 'p@example.org', password: 'tr0ub4dor-horse', password2: 'tr0ub4dor-h0rse' },
      'password2',
      '两次输入的密码不一致',
    ],
  ])('refuses %o with "%s: %s" the way the register page reads it', async (body, field, message) => {
    const response = await post('/api/auth/register/', body);
    expect(response.statusCode).toBe(400);
    const json = response.json();
    expect(json.code).toBe('VALIDATION_ERROR');
    expect(json[field]).toContain(message);
    expect(json.fields[field]).toContain(message);
    expect(await new UserRepository(runtime.database.db).findByEmail('p@example.org')).toBeUndefined();
  });

  it.each(['password123', 'abc12345', 'qwerty123', 'iloveyou1', 'Passw0rd', 'baseball1'])(
    'refuses the common password %s',
    async (password) => {
      const response = await register('common@example.org', password);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        message: '密码过于简单，请使用更复杂的密码',
        password: ['密码过于简单，请使用更复杂的密码'],
      });
    },
  );

  it('answers a verified address with a message the page recognises as already registered', async () => {
    const users = new UserRepository(runtime.database.db);
    await users.create({ email: 'taken@example.org', isEmailVerified: true, passwordHash: 'x' });
    const response = await register('TAKEN@example.org');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'EMAIL_ALREADY_REGISTERED',
      message: '该邮箱已注册，请直接登录或使用其他邮箱',
      email: ['该邮箱已注册'],
    });
  });

  it('re-sends a code to an unverified address instead of failing, honouring the cooldown', async () => {
    const first = await register('again@example.org');
    expect(first.statusCode).toBe(201);
    await smtp.waitForMail('again@example.org', 1);
    // Within the cooldown: the same answer as the first time, and no second mail.
    const soon = await register('again@example.org');
    expect(soon.statusCode).toBe(201);
    expect(soon.json()).toEqual(first.json());
    expect(smtp.mailsTo('again@example.org')).toHaveLength(1);

    clock.advance(61 * SECOND);
    const later = await register('again@example.org');
    expect(later.statusCode).toBe(201);
    const second = await smtp.waitForMail('again@example.org', 2);
    // Registering again with the same password (a double submit) keeps it.
    const verified = await verify('again@example.org', codeFrom(second));
    expect(verified.statusCode).toBe(200);
    const login = await post('/api/auth/login/', { email: 'again@example.org', password: 'tr0ub4dor-horse' });
    expect(login.statusCode).toBe(200);
  });
});

describe('POST /api/auth/verify-email/', () => {
  it('verifies with the mailed code, signs the user in and consumes the code', async () => {
    await register('verify.me@example.org');
    const code = codeFrom(await smtp.waitForMail('verify.me@example.org'));
    const response = await verify('verify.me@example.org', code);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      message: '邮箱验证成功',
      remaining_attempts: 5,
      user: { email: 'verify.me@example.org' },
    });
    expect(body.user).toHaveProperty('research_summary_en');
    const me = await runtime.app.inject({
      method: 'GET',
      url: '/api/auth/user/',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(me.statusCode).toBe(200);
    const again = await verify('verify.me@example.org', code);
    // Answered like any address without a code: verify-email does not tell who is verified.
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('VERIFICATION_CODE_MISSING');
  });

  it('counts wrong codes down, then locks for an hour even for the right code; a new code unlocks', async () => {
    await register('guesser@example.org');
    const code = codeFrom(await smtp.waitForMail('guesser@example.org'));
    for (const remaining of [4, 3, 2, 1]) {
      const response = await verify('guesser@example.org', wrongCode(code));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 'VERIFICATION_CODE_INVALID',
        message: `验证码错误，还可尝试 ${remaining} 次`,
        remaining_attempts: remaining,
      });
    }
    const fifth = await verify('guesser@example.org', wrongCode(code));
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toMatchObject({ code: 'VERIFICATION_LOCKED', error: '尝试次数超限', remaining_attempts: 0 });
    expect(fifth.json().remaining_seconds).toBeGreaterThan(3500);
    // The sixth attempt, with the right code, is refused too.
    const sixth = await verify('guesser@example.org', code);
    expect(sixth.statusCode).toBe(429);
    expect((await status('guesser@example.org')).remaining_attempts).toBe(0);

    clock.advance(61 * SECOND);
    const resend = await post('/api/auth/resend-verification-code/', { email: 'guesser@example.org' });
    expect(resend.statusCode).toBe(200);
    const fresh = codeFrom(await smtp.waitForMail('guesser@example.org', 2));
    expect((await verify('guesser@example.org', fresh)).statusCode).toBe(200);
  });

  it('refuses an expired code with the spec message, and status reports remaining_time 0', async () => {
    await register('slow@example.org');
    const code = codeFrom(await smtp.waitForMail('slow@example.org'));
    const before = await status('slow@example.org');
    expect(before).toMatchObject({ has_verification_code: true, remaining_attempts: 5 });
    expect(before.remaining_time).toBeGreaterThan(290);
    expect(before.remaining_time).toBeLessThanOrEqual(300);

    clock.advance(5 * 60 * SECOND + SECOND);
    const after = await status('slow@example.org');
    expect(after).toMatchObject({ has_verification_code: true, remaining_time: 0, resend_available_in: 0 });
    const response = await verify('slow@example.org', code);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VERIFICATION_CODE_EXPIRED',
      message: '验证码已过期，请重新发送验证码',
    });
  });

  it('lets only one of two simultaneous correct submissions succeed', async () => {
    await register('race@example.org');
    const code = codeFrom(await smtp.waitForMail('race@example.org'));
    const results = await Promise.all([verify('race@example.org', code), verify('race@example.org', code)]);
    const statuses = results.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 400]);
  });

  it.each([
    [{ email: 'x@example.org' }, '请填写邮箱和验证码'],
    [{ verification_code: '123456' }, '请填写邮箱和验证码'],
    [{ email: 'x@example.org', verification_code: '12345' }, '验证码必须是6位数字'],
    [{ email: 'x@example.org', verification_code: '12a456' }, '验证码必须是6位数字'],
    [{ email: 'x@example.org', verification_code: 123456 }, '请填写邮箱和验证码'],
  ])('refuses %o with "%s"', async (body, message) => {
    const response = await post('/api/auth/verify-email/', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });
});

describe('POST /api/auth/resend-verification-code/', () => {
  it('enforces the 60 s cooldown with the seconds left', async () => {
    await register('cooldown@example.org');
    await smtp.waitForMail('cooldown@example.org');
    const response = await post('/api/auth/resend-verification-code/', { email: 'cooldown@example.org' });
    expect(response.statusCode).toBe(429);
    expect(response.json().code).toBe('RATE_LIMITED');
    expect(response.json().remaining_seconds).toBeGreaterThan(55);
    expect(response.json().remaining_seconds).toBeLessThanOrEqual(60);
    expect((await status('cooldown@example.org')).resend_available_in).toBeGreaterThan(55);
  });

  it('caps codes at 5 an hour and 20 a day per address', async () => {
    const email = 'capped@example.org';
    await register(email);
    // Each code is stored and mailed after the answer; a reader's next resend comes at least a minute
    // later in real time, so wait for each mail before moving the test clock on (without the wait, a
    // later resend's background work could store its code first and the earlier one would find itself
    // inside the cooldown and send nothing).
    let mails = 1;
    await smtp.waitForMail(email, mails, 30_000);
    const resend = async () => {
      expect((await post('/api/auth/resend-verification-code/', { email })).statusCode).toBe(200);
      await smtp.waitForMail(email, ++mails, 30_000);
    };
    for (let sent = 2; sent <= 5; sent++) {
      clock.advance(61 * SECOND);
      await resend();
    }
    clock.advance(61 * SECOND);
    const sixth = await post('/api/auth/resend-verification-code/', { email });
    expect(sixth.statusCode).toBe(429);
    // The oldest of the five was sent about 5 minutes ago, so the hourly window frees in ~55 minutes.
    expect(sixth.json().remaining_seconds).toBeGreaterThan(50 * 60);

    // Four more hours at five an hour reach twenty in a day; the twenty-first waits for the day.
    for (let hour = 0; hour < 3; hour++) {
      clock.advance(60 * 60 * SECOND);
      for (let i = 0; i < 5; i++) {
        clock.advance(61 * SECOND);
        await resend();
      }
    }
    clock.advance(60 * 60 * SECOND);
    const twentyFirst = await post('/api/auth/resend-verification-code/', { email });
    expect(twentyFirst.statusCode).toBe(429);
    expect(twentyFirst.json().remaining_seconds).toBeGreaterThan(10 * 60 * 60);
    // Twenty mails, and no twenty-first.
    expect(mails).toBe(20);
    expect(smtp.mailsTo(email)).toHaveLength(20);
  });

  it('answers a verified address and a pending one alike, in conditional words, and mails only the pending one', async () => {
    const verified = 'resend-verified@example.org';
    const pending = 'resend-pending@example.org';
    await register(verified);
    expect((await verify(verified, codeFrom(await smtp.waitForMail(verified)))).statusCode).toBe(200);
    await register(pending);
    await smtp.waitForMail(pending);
    clock.advance(61 * SECOND);

    const answers = [];
    for (const email of [verified, pending]) {
      const response = await post('/api/auth/resend-verification-code/', { email });
      expect(response.statusCode, response.body).toBe(200);
      answers.push(response.json());
    }
    // The countdown it gives is the resend cooldown; the answer never says a code was sent.
    expect(answers).toEqual([
      { message: '如果该邮箱已注册且尚未验证，验证码已发送，请查收邮件', resend_available_in: 60 },
      { message: '如果该邮箱已注册且尚未验证，验证码已发送，请查收邮件', resend_available_in: 60 },
    ]);
    await smtp.waitForMail(pending, 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mailsTo(verified)).toHaveLength(1);
  });
});
