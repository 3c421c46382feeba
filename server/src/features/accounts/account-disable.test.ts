import { UserAdminRepository } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, resetLinkFrom, SmtpSink } from '../../../test/smtp-sink';
import { startTestRuntime, TestClock, type TestRuntime } from '../../../test/test-runtime';

/*
 * An account disabled by an operator (`radar users disable`, UserAdminRepository): login is refused
 * with 403, the tokens it holds get 401 on guarded routes from the next request on, a password reset
 * does not enable it again, and `radar users enable` restores it. The writes are made as the CLI makes
 * them, on the database and not through the server, which hears them through the change trigger.
 */

let runtime: TestRuntime;
let smtp: SmtpSink;
let admin: UserAdminRepository;
const clock = new TestClock();
const PASSWORD = 'tr0ub4dor-horse';
const DISABLED = { code: 'ACCOUNT_DISABLED', message: '该账户已被停用，请联系管理员' };

const post = (url: string, payload: unknown, token?: string) =>
  runtime.app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
const get = (url: string, token: string) =>
  runtime.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
const login = (email: string, password = PASSWORD) => post('/api/auth/login/', { email, password });

async function verifiedAccount(email: string): Promise<{ id: string; token: string }> {
  await post('/api/auth/register/', { email, password: PASSWORD, password2: PASSWORD });
  const code = codeFrom(await smtp.waitForMail(email));
  const body = (await post('/api/auth/verify-email/', { email, verification_code: code })).json();
  return { id: body.user.id, token: body.token };
}

/** As the CLI does it, then wait until the server's listener has heard the change. */
async function asOperator(change: (admin: UserAdminRepository) => Promise<unknown>): Promise<void> {
  await change(admin);
  await runtime.parts.userChanges?.sync();
}

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  // No in-process worker: the mails go out from the requests, nothing here runs a job, and the worker's
  // start is most of a runtime's boot.
  runtime = await startTestRuntime({ env: { SMTP_URL: smtp.url, RUN_WORKER: 'false' }, clock: clock.now });
  admin = new UserAdminRepository(runtime.database.db);
});

afterAll(async () => {
  await runtime?.stop();
  await smtp?.stop();
});

describe('a disabled account', () => {
  it('cannot log in (403), its tokens get 401 on guarded routes, and enabling restores both', async () => {
    const { id, token } = await verifiedAccount('disabled@example.org');
    // Cached by the guard now: the disable must reach the cache, not only the database.
    expect((await get('/api/auth/user/', token)).statusCode).toBe(200);

    await asOperator((repository) => repository.disable(id));
    const refused = await login('disabled@example.org');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(DISABLED);
    for (const [method, url] of [
      ['GET', '/api/auth/user/'],
      ['GET', '/user-keywords/'],
      ['POST', '/user-keywords/add/'],
    ] as const) {
      const response = method === 'GET' ? await get(url, token) : await post(url, { keyword: 'graphene' }, token);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual(DISABLED);
    }

    await asOperator((repository) => repository.enable(id));
    expect((await get('/api/auth/user/', token)).statusCode).toBe(200);
    const again = await login('disabled@example.org');
    expect(again.statusCode).toBe(200);
    expect((await get('/api/auth/user/', again.json().token)).statusCode).toBe(200);
  });

  it('answers a wrong password as for any account, so guessing does not reveal the disable', async () => {
    const { id } = await verifiedAccount('guessed@example.org');
    await asOperator((repository) => repository.disable(id));
    const wrong = await login('guessed@example.org', 'not-the-passw0rd');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
  });

  it('stays disabled after a password reset', async () => {
    const email = 'reset-disabled@example.org';
    const { id } = await verifiedAccount(email);
    await asOperator((repository) => repository.disable(id));
    expect((await post('/api/auth/forgot-password/', { email })).statusCode).toBe(200);
    const resetToken = resetLinkFrom(await smtp.waitForMail(email, 2)).searchParams.get('token');
    const newPassword = 'c0rrect-battery-staple';
    const reset = await post('/api/auth/reset-password/', {
      token: resetToken,
      password: newPassword,
      confirm_password: newPassword,
    });
    expect(reset.statusCode).toBe(200);
    const refused = await login(email, newPassword);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(DISABLED);
    expect((await admin.find(email))?.disabledAt).toBeInstanceOf(Date);
  });
});
