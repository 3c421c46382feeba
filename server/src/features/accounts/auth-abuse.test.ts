import { sql } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, resetLinkFrom, SmtpSink } from '../../../test/smtp-sink';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/** Rate limits at their real values, secrets in logs, hostile input, mail failure, token lifetime. */

let runtime: TestRuntime;
let smtp: SmtpSink;
const PASSWORD = 'tr0ub4dor-horse';

const post = (url: string, payload: unknown, remoteAddress = '127.0.0.1') =>
  runtime.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, remoteAddress });

async function countRows(table: string): Promise<number> {
  const result = await runtime.database.db.execute<{ n: number }>(
    sql.raw(`SELECT count(*)::int AS n FROM radar.${table}`),
  );
  return result.rows[0]?.n ?? 0;
}

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  // The real limits ({} = no relaxation), a short token lifetime, real SMTP.
  runtime = await startTestRuntime({ env: { SMTP_URL: smtp.url, JWT_EXPIRES_IN: '2s' }, authRateLimits: {} });
});

afterAll(async () => {
  await runtime?.stop();
  await smtp?.stop();
});

describe('a full account lifecycle', () => {
  it('never writes a password, code, reset token or login token to the logs', async () => {
    const email = 'secretive@example.org';
    await post('/api/auth/register/', { email, password: PASSWORD, password2: PASSWORD });
    const code = codeFrom(await smtp.waitForMail(email));
    const verified = await post('/api/auth/verify-email/', { email, verification_code: code });
    const loginToken = (await post('/api/auth/login/', { email, password: PASSWORD })).json().token as string;
    await post('/api/auth/login/', { email, password: 'wr0ng-password' });
    await post('/api/auth/forgot-password/', { email });
    const resetToken = resetLinkFrom(await smtp.waitForMail(email, 2)).searchParams.get('token') ?? '';
    await post('/api/auth/reset-password/', {
      token: resetToken,
      password: 'n3w-passphrase',
      confirm_password: 'n3w-passphrase',
    });
    await runtime.app.inject({
      method: 'GET',
      url: `/api/auth/verification-status/?email=${email}`,
      headers: { authorization: `Bearer ${loginToken}` },
    });

    const logs = runtime.logLines.join('\n');
    expect(logs).toContain('auth.login'); // every attempt is logged...
    expect(logs).not.toContain(email); // ...with the address fingerprinted
    for (const secret of [
      PASSWORD,
      'wr0ng-password',
      'n3w-passphrase',
      code,
      resetToken,
      loginToken,
      verified.json().token,
    ]) {
      expect(secret.length).toBeGreaterThan(5);
      expect(logs).not.toContain(secret);
    }
  });
});

describe('rate limits', () => {
  it('stops a login flood from one address with 429 and the seconds to wait', async () => {
    const statuses: number[] = [];
    let last: { code?: string; remaining_seconds?: number; message?: string } = {};
    for (let i = 0; i < 21; i++) {
      const response = await post(
        '/api/auth/login/',
        { email: `flood${i}@example.org`, password: 'wr0ng-password' },
        '203.0.113.50',
      );
      statuses.push(response.statusCode);
      last = response.json();
    }
    expect(statuses.slice(0, 20).every((status) => status === 400)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect(last).toMatchObject({ code: 'RATE_LIMITED', message: '请求过于频繁，请稍后再试' });
    expect(last.remaining_seconds).toBeGreaterThan(0);
  });

  it('limits reset mails per address, whichever IP asks', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await runtime.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password/',
        payload: { email: 'target@example.org' },
        remoteAddress: `198.51.100.${i + 1}`,
      });
      statuses.push(response.statusCode);
      if (i === 3) expect(response.json().remaining_seconds).toBeGreaterThan(3000);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('hostile input never causes a 500 or a half-stored account', () => {
  const metacharacters = `'"; DROP TABLE radar.users; -- <script>alert(1)</script> \\u0000 %s \${x}`;

  it.each([
    ['/api/auth/register/', '{"email": "a@b.org", "password": '],
    ['/api/auth/login/', 'not json at all'],
    ['/api/auth/verify-email/', '{"email": ["a@b.org"], "verification_code": {"$gt": ""}}'],
    ['/api/auth/forgot-password/', '{"email": 42}'],
    ['/api/auth/reset-password/', '{}'],
    ['/api/auth/resend-verification-code/', 'null'],
    [
      '/api/auth/register/',
      JSON.stringify({ email: metacharacters, password: metacharacters, password2: metacharacters }),
    ],
    ['/api/auth/login/', JSON.stringify({ email: `${metacharacters}@example.org`, password: metacharacters })],
    [
      '/api/auth/reset-password/',
      JSON.stringify({ token: metacharacters, password: 'n3w-passphrase', confirm_password: 'n3w-passphrase' }),
    ],
    [
      '/api/auth/register/',
      JSON.stringify({ email: 'huge@example.org', password: 'a1'.repeat(600_000), password2: 'x' }),
    ],
  ])('%s with hostile body #%# answers 4xx', async (url, body) => {
    const response = await runtime.app.inject({
      method: 'POST',
      url,
      payload: body,
      headers: { 'content-type': 'application/json' },
      remoteAddress: '192.0.2.10',
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('ignores unknown fields and keeps metacharacters in a valid address as text', async () => {
    const email = `o'brien+news@example.org`;
    const response = await post('/api/auth/register/', {
      email,
      password: PASSWORD,
      password2: PASSWORD,
      is_email_verified: true,
      token_version: 5,
    });
    expect(response.statusCode).toBe(201);
    const rows = await runtime.database.db.execute<{
      email: string;
      is_email_verified: boolean;
      token_version: number;
    }>(sql`SELECT email, is_email_verified, token_version FROM radar.users WHERE email = ${email}`);
    expect(rows.rows).toEqual([{ email, is_email_verified: false, token_version: 0 }]);
    expect((await smtp.waitForMail(email)).subject).toBe('科研雷达：邮箱验证码');
  });

  it('answers forgot-password for any address containing @ the same way, storing nothing', async () => {
    const response = await post(
      '/api/auth/forgot-password/',
      { email: `x@'"; DROP TABLE radar.users; --.org` },
      '192.0.2.11',
    );
    expect(response.statusCode).toBe(200);
    expect(await countRows('password_reset_tokens')).toBe(1); // the lifecycle test's, already used
  });

  it('stored nothing for the refused requests', async () => {
    const users = await runtime.database.db.execute<{ email: string }>(sql`SELECT email FROM radar.users`);
    expect(users.rows.map((row) => row.email).sort()).toEqual([`o'brien+news@example.org`, 'secretive@example.org']);
  });
});

describe('when the mail server is down', () => {
  it('answers 503 and does not count the undelivered code against the cooldown', async () => {
    await smtp.stop();
    const codesBefore = await countRows('email_verification_codes');
    const response = await post('/api/auth/register/', {
      email: 'offline@example.org',
      password: PASSWORD,
      password2: PASSWORD,
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ code: 'MAIL_DELIVERY_FAILED', message: '邮件发送失败，请稍后重试' });
    expect(await countRows('email_verification_codes')).toBe(codesBefore);
  });
});

describe('token lifetime', () => {
  it('follows JWT_EXPIRES_IN and then answers 401 AUTH_EXPIRED', async () => {
    const runtimeToken = runtime.app.jwt.sign({
      sub: '00000000-0000-4000-8000-000000000000',
      ver: 0,
      sid: '00000000-0000-4000-8000-000000000001',
    });
    const [, payload] = runtimeToken.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const response = await runtime.app.inject({
      method: 'GET',
      url: '/api/auth/user/',
      headers: { authorization: `Bearer ${runtimeToken}` },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('AUTH_EXPIRED');
  });
});
