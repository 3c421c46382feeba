import { hash } from '@node-rs/argon2';
import { sql, UserRepository } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, resetLinkFrom, SmtpSink } from '../../../test/smtp-sink';
import { PRODUCTION_PASSWORD_HASHING, startTestRuntime, TestClock, type TestRuntime } from '../../../test/test-runtime';
import { PasswordHasher } from '../../security/password-hasher';

let runtime: TestRuntime;
let smtp: SmtpSink;
const clock = new TestClock();
const PASSWORD = 'tr0ub4dor-horse';

const post = (url: string, payload: unknown) =>
  runtime.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown> });
const login = (email: string, password: string) => post('/api/auth/login/', { email, password });
const me = (token: string) =>
  runtime.app.inject({ method: 'GET', url: '/api/auth/user/', headers: { authorization: `Bearer ${token}` } });

/** Registers and verifies through the real flow, reading the code from the mail. */
async function verifiedAccount(email: string, password = PASSWORD): Promise<string> {
  await post('/api/auth/register/', { email, password, password2: password });
  const code = codeFrom(await smtp.waitForMail(email));
  const response = await post('/api/auth/verify-email/', { email, verification_code: code });
  return response.json().token as string;
}

async function requestReset(email: string, nth: number): Promise<string> {
  const response = await post('/api/auth/forgot-password/', { email });
  expect(response.statusCode).toBe(200);
  const mail = await smtp.waitForMail(email, nth);
  return resetLinkFrom(mail).searchParams.get('token') ?? '';
}

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  runtime = await startTestRuntime({
    env: { SMTP_URL: smtp.url, WEB_BASE_URL: 'https://radar.example.edu' },
    clock: clock.now,
    // These tests check the stored hash, so they run at the parameters the server uses.
    passwordHashing: PRODUCTION_PASSWORD_HASHING,
  });
  await verifiedAccount('grace@example.org');
});

afterAll(async () => {
  await runtime?.stop();
  await smtp?.stop();
});

describe('POST /api/auth/login/', () => {
  it('returns a token and the user; the token opens guarded routes', async () => {
    const response = await login('Grace@Example.org', PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toMatchObject({ email: 'grace@example.org', research_description: '' });
    expect(body.user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await me(body.token)).statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown address identically', async () => {
    const wrong = await login('grace@example.org', 'not-the-passw0rd');
    const unknown = await login('nobody-here@example.org', 'not-the-passw0rd');
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json()).toEqual({ code: 'INVALID_CREDENTIALS', message: '邮箱或密码错误' });
  });

  it('tells an unverified account to verify, only when the password is right', async () => {
    await post('/api/auth/register/', { email: 'pending@example.org', password: PASSWORD, password2: PASSWORD });
    const right = await login('pending@example.org', PASSWORD);
    expect(right.statusCode).toBe(403);
    expect(right.json()).toEqual({
      code: 'EMAIL_NOT_VERIFIED',
      message: '邮箱尚未验证，请先完成邮箱验证',
      email: 'pending@example.org',
    });
    expect((await login('pending@example.org', 'wr0ng-password')).json().code).toBe('INVALID_CREDENTIALS');
  });

  it.each([
    [{ password: PASSWORD }, '请输入邮箱地址'],
    [{ email: 'grace-example.org', password: PASSWORD }, '请输入有效的邮箱地址'],
    [{ email: 'grace@', password: PASSWORD }, '邮箱格式不正确'],
    [{ email: 'grace@example.org' }, '请输入密码'],
    [{ email: 'grace@example.org', password: '' }, '请输入密码'],
  ])('validates %o with "%s"', async (body, message) => {
    const response = await post('/api/auth/login/', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it('upgrades a hash made with weaker parameters at login', async () => {
    const users = new UserRepository(runtime.database.db);
    const user = await users.findByEmail('grace@example.org');
    const weak = await hash(PASSWORD, { memoryCost: 4096, timeCost: 1, parallelism: 1 });
    await users.update(user?.id ?? '', { passwordHash: weak });
    expect((await login('grace@example.org', PASSWORD)).statusCode).toBe(200);
    const upgraded = await users.findByEmail('grace@example.org');
    expect(upgraded?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await login('grace@example.org', PASSWORD)).statusCode).toBe(200);
  });
});

describe('password reset', () => {
  it('answers known and unknown addresses the same, and mails only the known one', async () => {
    const before = smtp.messages.length;
    const nextForGrace = smtp.mailsTo('grace@example.org').length + 1;
    const known = await post('/api/auth/forgot-password/', { email: 'grace@example.org' });
    const unknown = await post('/api/auth/forgot-password/', { email: 'stranger@example.org' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    const mail = await smtp.waitForMail('grace@example.org', nextForGrace);
    expect(mail.subject).toBe('科研雷达：重置密码');
    const link = resetLinkFrom(mail);
    expect(`${link.origin}${link.pathname}`).toBe('https://radar.example.edu/reset-password');
    // At least 128 bits of randomness: 32 bytes in base64url.
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.messages.length).toBe(before + 1);
    // Stored hashed: the database never holds the token itself.
    const stored = await runtime.database.db.execute<{ token_hash: string }>(
      sql`SELECT token_hash FROM radar.password_reset_tokens`,
    );
    expect(stored.rows.some((row) => row.token_hash === link.searchParams.get('token'))).toBe(false);
  });

  it('resets once; the token cannot be reused; older sessions and other tokens stop working', async () => {
    await verifiedAccount('reset.me@example.org');
    const oldSession = (await login('reset.me@example.org', PASSWORD)).json().token;
    const first = await requestReset('reset.me@example.org', 2);
    const second = await requestReset('reset.me@example.org', 3);

    const reset = await post('/api/auth/reset-password/', {
      token: second,
      password: 'n3w-passphrase',
      confirm_password: 'n3w-passphrase',
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ message: '密码重置成功，请使用新密码登录' });

    const reuse = await post('/api/auth/reset-password/', {
      token: second,
      password: 'an0ther-passphrase',
      confirm_password: 'an0ther-passphrase',
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toEqual({ code: 'RESET_TOKEN_INVALID', message: '无效的重置链接，请重新申请密码重置' });
    const other = await post('/api/auth/reset-password/', {
      token: first,
      password: 'an0ther-passphrase',
      confirm_password: 'an0ther-passphrase',
    });
    expect(other.json().code).toBe('RESET_TOKEN_INVALID');

    expect((await me(oldSession)).statusCode).toBe(401);
    expect((await login('reset.me@example.org', PASSWORD)).statusCode).toBe(400);
    const fresh = await login('reset.me@example.org', 'n3w-passphrase');
    expect(fresh.statusCode).toBe(200);
    expect((await me(fresh.json().token)).statusCode).toBe(200);
  });

  it('refuses an expired or tampered token', async () => {
    await verifiedAccount('late@example.org');
    const token = await requestReset('late@example.org', 2);
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const payload = { password: 'n3w-passphrase', confirm_password: 'n3w-passphrase' };
    expect((await post('/api/auth/reset-password/', { ...payload, token: tampered })).json().code).toBe(
      'RESET_TOKEN_INVALID',
    );
    clock.advance(31 * 60 * 1000);
    const expired = await post('/api/auth/reset-password/', { ...payload, token });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().code).toBe('RESET_TOKEN_INVALID');
    expect((await login('late@example.org', PASSWORD)).statusCode).toBe(200);
  });

  it('validates the form with the spec messages', async () => {
    const missing = await post('/api/auth/reset-password/', {
      password: 'n3w-passphrase',
      confirm_password: 'n3w-passphrase',
    });
    expect(missing.json().message).toBe('无效的重置链接');
    const mismatch = await post('/api/auth/reset-password/', {
      token: 'x'.repeat(43),
      password: 'n3w-passphrase',
      confirm_password: 'n3w-passphrasf',
    });
    expect(mismatch.json().message).toBe('两次输入的密码不一致');
    const short = await post('/api/auth/reset-password/', { token: 'x', password: 'a1', confirm_password: 'a1' });
    expect(short.json().message).toBe('密码长度至少为8位');
    const common = await post('/api/auth/reset-password/', {
      token: 'x'.repeat(43),
      password: 'password123',
      confirm_password: 'password123',
    });
    expect(common.json().message).toBe('密码过于简单，请使用更复杂的密码');
  });

  it('sends at most three reset mails an hour per account, answering the same', async () => {
    await verifiedAccount('flood@example.org');
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push((await post('/api/auth/forgot-password/', { email: 'flood@example.org' })).json());
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    // The mails go out after the answers: the code mail plus three, then nothing more.
    await smtp.waitForMail('flood@example.org', 4);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const resetMails = smtp.mailsTo('flood@example.org').filter((mail) => mail.subject.includes('重置密码'));
    expect(resetMails).toHaveLength(3);
  });
});

describe('PasswordHasher', () => {
  it('runs at most `concurrency` hashes at once and still finishes them all', async () => {
    const hasher = new PasswordHasher(2);
    let peak = 0;
    const watcher = setInterval(() => {
      peak = Math.max(peak, hasher.active);
    }, 1);
    const hashes = await Promise.all(Array.from({ length: 6 }, (_, i) => hasher.hash(`passw0rd-${i}`)));
    clearInterval(watcher);
    expect(hashes).toHaveLength(6);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(2);
    expect(await hasher.verify(hashes[3] ?? '', 'passw0rd-3')).toBe(true);
    expect(await hasher.verify('not a hash', 'passw0rd-3')).toBe(false);
  });
});
