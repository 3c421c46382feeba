import { UserRepository } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, resetLinkFrom, SmtpSink } from '../../../test/smtp-sink';
import { startTestRuntime, TestClock, type TestRuntime } from '../../../test/test-runtime';

/** A registration waiting for verification cannot be taken over by registering the address again. */

let runtime: TestRuntime;
let smtp: SmtpSink;
const clock = new TestClock();
const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;
const OWNER_PASSWORD = 'owner-passw0rd';
const ATTACKER_PASSWORD = 'attacker-passw0rd';

const post = (url: string, payload: unknown) =>
  runtime.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown> });
const register = (email: string, password: string) =>
  post('/api/auth/register/', { email, password, password2: password });
const verify = (email: string, code: string) => post('/api/auth/verify-email/', { email, verification_code: code });
const login = (email: string, password: string) => post('/api/auth/login/', { email, password });

/** The owner's way back in after a repeated registration: forgot-password, then the mailed link. */
async function resetPassword(email: string, password: string): Promise<number> {
  const before = smtp.mailsTo(email).length;
  expect((await post('/api/auth/forgot-password/', { email })).statusCode).toBe(200);
  const token = resetLinkFrom(await smtp.waitForMail(email, before + 1)).searchParams.get('token');
  const reset = await post('/api/auth/reset-password/', { token, password, confirm_password: password });
  return reset.statusCode;
}

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  runtime = await startTestRuntime({ env: { SMTP_URL: smtp.url }, clock: clock.now });
});

afterAll(async () => {
  await runtime?.stop();
  await smtp?.stop();
});

describe('registering an address that is waiting for verification', () => {
  it("never lets the second registrant's password log in after the owner verifies", async () => {
    const email = 'victim@example.org';
    const first = await register(email, OWNER_PASSWORD);
    await smtp.waitForMail(email, 1);
    clock.advance(61 * SECOND);
    const repeated = await register(email, ATTACKER_PASSWORD);
    // Answered exactly like a first registration: nothing tells the attacker the address was pending.
    expect(repeated.statusCode).toBe(201);
    expect(repeated.json()).toEqual(first.json());

    // The owner uses the newest code in their mailbox, the one the attacker's registration sent.
    const newest = await smtp.waitForMail(email, 2);
    expect((await verify(email, codeFrom(newest))).statusCode).toBe(200);
    expect((await login(email, ATTACKER_PASSWORD)).json().code).toBe('INVALID_CREDENTIALS');

    // Neither password was chosen by the mailbox owner alone, so neither works; the code mail says to
    // set one with forgot-password, which proves the mailbox.
    expect((await login(email, OWNER_PASSWORD)).statusCode).toBe(400);
    expect(await resetPassword(email, 'owner-n3w-passphrase')).toBe(200);
    expect((await login(email, 'owner-n3w-passphrase')).statusCode).toBe(200);
    expect((await login(email, ATTACKER_PASSWORD)).statusCode).toBe(400);
  });

  it('does not let an earlier registrant keep a password the mailbox owner did not choose', async () => {
    const email = 'pre-hijack@example.org';
    await register(email, ATTACKER_PASSWORD);
    await smtp.waitForMail(email, 1);
    // The owner registers within the cooldown, so no new code: they verify with the one already mailed.
    await register(email, OWNER_PASSWORD);
    expect(smtp.mailsTo(email)).toHaveLength(1);
    const verified = await verify(email, codeFrom(await smtp.waitForMail(email, 1)));
    expect(verified.statusCode).toBe(200);
    expect((await login(email, ATTACKER_PASSWORD)).json().code).toBe('INVALID_CREDENTIALS');
  });

  it('keeps the password when the same registrant submits the same password again', async () => {
    const email = 'double-submit@example.org';
    await register(email, OWNER_PASSWORD);
    clock.advance(61 * SECOND);
    await register(email, OWNER_PASSWORD);
    expect((await verify(email, codeFrom(await smtp.waitForMail(email, 2)))).statusCode).toBe(200);
    expect((await login(email, OWNER_PASSWORD)).statusCode).toBe(200);
  });

  it('says in the code mail what to do when you did not register, or registered twice', async () => {
    const email = 'mail-text@example.org';
    await register(email, OWNER_PASSWORD);
    const mail = await smtp.waitForMail(email);
    expect(mail.text).toContain('如果你没有注册科研雷达，请忽略这封邮件：未完成验证的注册会在 24 小时后自动删除。');
    expect(mail.text).toContain('忘记密码');
    expect(mail.html).toContain('24 小时后自动删除');
  });

  it('treats a registration left unverified past the pending window as absent', async () => {
    const email = 'stale@example.org';
    const users = new UserRepository(runtime.database.db);
    await register(email, ATTACKER_PASSWORD);
    const stale = await users.findByEmail(email);
    clock.advance(25 * HOUR);

    await register(email, OWNER_PASSWORD);
    const fresh = await users.findByEmail(email);
    expect(fresh?.id).not.toBe(stale?.id);
    expect((await verify(email, codeFrom(await smtp.waitForMail(email, 2)))).statusCode).toBe(200);
    expect((await login(email, OWNER_PASSWORD)).statusCode).toBe(200);
    expect((await login(email, ATTACKER_PASSWORD)).statusCode).toBe(400);
  });

  it('registers an address normally after someone only asked for codes to it', async () => {
    const email = 'asked-first@example.org';
    // Resend to an address without an account keeps state (a cooldown) but mails nothing...
    expect((await post('/api/auth/resend-verification-code/', { email })).statusCode).toBe(200);
    expect(smtp.mailsTo(email)).toHaveLength(0);
    // ...and does not hold up the registration of whoever owns it.
    expect((await register(email, OWNER_PASSWORD)).statusCode).toBe(201);
    expect((await verify(email, codeFrom(await smtp.waitForMail(email, 1)))).statusCode).toBe(200);
    expect((await login(email, OWNER_PASSWORD)).statusCode).toBe(200);
  });
});
