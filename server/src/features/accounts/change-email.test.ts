import { EmailChangeRepository, UserAdminRepository } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, SmtpSink, waitForSubject } from '../../../test/smtp-sink';
import { startTestRuntime, TestClock, type TestRuntime } from '../../../test/test-runtime';

/*
 * Moving an account to another address: the current password, then the code mailed to the new address.
 * Real database, real SMTP server; the clock is moved for expiry.
 */

let runtime: TestRuntime;
let smtp: SmtpSink;
let changes: EmailChangeRepository;
const clock = new TestClock();
const PASSWORD = 'tr0ub4dor-horse';
const CODE_SUBJECT = '科研雷达：更改邮箱验证码';
const TAKEN_SUBJECT = '科研雷达：更改邮箱未能完成';
const CHANGED_SUBJECT = '科研雷达：账户邮箱已更改';

const post = (url: string, token: string | undefined, payload: Record<string, unknown>) =>
  runtime.app.inject({
    method: 'POST',
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    payload,
  });

async function verifiedAccount(email: string): Promise<{ id: string; token: string }> {
  await post('/api/auth/register/', undefined, { email, password: PASSWORD, password2: PASSWORD });
  const code = codeFrom(await waitForSubject(smtp, email, '科研雷达：邮箱验证码'));
  const body = (await post('/api/auth/verify-email/', undefined, { email, verification_code: code })).json();
  return { id: body.user.id, token: body.token };
}

const currentEmail = async (token: string) =>
  (
    await runtime.app.inject({ method: 'GET', url: '/api/auth/user/', headers: { authorization: `Bearer ${token}` } })
  ).json().email as string;

/** A six-digit code that is not `code`. */
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  runtime = await startTestRuntime({ env: { SMTP_URL: smtp.url }, clock: clock.now });
  changes = new EmailChangeRepository(runtime.database.db);
});

afterAll(async () => {
  await runtime?.stop();
  await smtp?.stop();
});

describe('change email', () => {
  it('mails a code to the new address, moves the account there, tells the old address; login uses the new one', async () => {
    const ada = await verifiedAccount('ada-old@example.org');
    const started = await post('/api/auth/user/email/', ada.token, {
      new_email: ' Ada-New@Example.org ',
      password: PASSWORD,
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.headers['cache-control']).toBe('no-store');
    expect(started.json()).toMatchObject({ new_email: 'ada-new@example.org', expires_in: 300 });
    // Nothing changes before the code is typed.
    expect(await currentEmail(ada.token)).toBe('ada-old@example.org');

    const code = codeFrom(await waitForSubject(smtp, 'ada-new@example.org', CODE_SUBJECT));
    const confirmed = await post('/api/auth/user/email/confirm/', ada.token, { code });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ id: ada.id, email: 'ada-new@example.org' });
    // The auth guard's cached row was dropped: the same token sees the new address at once.
    expect(await currentEmail(ada.token)).toBe('ada-new@example.org');
    expect(await changes.find(ada.id)).toBeUndefined();

    const notice = await waitForSubject(smtp, 'ada-old@example.org', CHANGED_SUBJECT);
    expect(notice.text).toContain('ada-new@example.org');
    expect(notice.text).not.toContain(code);

    const login = (email: string) => post('/api/auth/login/', undefined, { email, password: PASSWORD });
    expect((await login('ada-new@example.org')).statusCode).toBe(200);
    expect((await login('ada-old@example.org')).statusCode).toBe(400);
    // The code is used up.
    expect((await post('/api/auth/user/email/confirm/', ada.token, { code })).statusCode).toBe(400);
  });

  it('refuses a wrong password with a Chinese 400 and mails nothing', async () => {
    const bob = await verifiedAccount('bob-old@example.org');
    const refused = await post('/api/auth/user/email/', bob.token, {
      new_email: 'bob-new@example.org',
      password: 'not-the-password1',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: '密码错误，请重新输入',
      fields: { password: ['密码错误'] },
    });
    expect(await changes.find(bob.id)).toBeUndefined();
    const same = await post('/api/auth/user/email/', bob.token, {
      new_email: 'BOB-old@example.org',
      password: PASSWORD,
    });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ fields: { new_email: ['新邮箱与当前邮箱相同'] } });
    const invalid = await post('/api/auth/user/email/', bob.token, { new_email: 'not-an-address', password: PASSWORD });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().fields.new_email).toEqual(['请输入正确的邮箱格式']);
    expect(
      (await post('/api/auth/user/email/', undefined, { new_email: 'x@example.org', password: PASSWORD })).statusCode,
    ).toBe(401);
    expect(smtp.mailsTo('bob-new@example.org')).toEqual([]);
    expect(await currentEmail(bob.token)).toBe('bob-old@example.org');
  });

  it('counts wrong codes and ends the change after 5; an expired code changes nothing', async () => {
    const carol = await verifiedAccount('carol-old@example.org');
    await post('/api/auth/user/email/', carol.token, { new_email: 'carol-new@example.org', password: PASSWORD });
    const code = codeFrom(await waitForSubject(smtp, 'carol-new@example.org', CODE_SUBJECT));
    const wrong = otherCode(code);
    for (let left = 4; left >= 1; left--) {
      const refused = await post('/api/auth/user/email/confirm/', carol.token, { code: wrong });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'VERIFICATION_CODE_INVALID', remaining_attempts: left });
    }
    const fifth = await post('/api/auth/user/email/confirm/', carol.token, { code: wrong });
    expect(fifth.statusCode).toBe(400);
    expect(fifth.json().message).toBe('验证码错误次数过多，请重新提交新邮箱');
    // The right code no longer works either.
    expect((await post('/api/auth/user/email/confirm/', carol.token, { code })).statusCode).toBe(400);
    expect(await currentEmail(carol.token)).toBe('carol-old@example.org');

    await post('/api/auth/user/email/', carol.token, { new_email: 'carol-new@example.org', password: PASSWORD });
    const second = codeFrom(await waitForSubject(smtp, 'carol-new@example.org', CODE_SUBJECT, 2));
    clock.advance(6 * 60 * 1000);
    const expired = await post('/api/auth/user/email/confirm/', carol.token, { code: second });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe('验证码已过期，请重新提交新邮箱');
    expect(await currentEmail(carol.token)).toBe('carol-old@example.org');
    expect(await changes.find(carol.id)).toBeUndefined();
  });

  it('answers a taken address like a free one, mails that address a note instead of a code, and changes nothing', async () => {
    const dan = await verifiedAccount('dan@example.org');
    const erin = await verifiedAccount('erin@example.org');
    const mailsBefore = smtp.mailsTo('erin@example.org').length;
    const taken = await post('/api/auth/user/email/', dan.token, { new_email: 'erin@example.org', password: PASSWORD });
    const free = await post('/api/auth/user/email/', erin.token, {
      new_email: 'erin-free@example.org',
      password: PASSWORD,
    });
    expect(taken.statusCode).toBe(200);
    expect(free.statusCode).toBe(200);
    const strip = (body: Record<string, unknown>) => ({ ...body, message: undefined, new_email: undefined });
    expect(strip(taken.json())).toEqual(strip(free.json()));
    expect(taken.json().message).toBe('验证码已发送至 erin@example.org，请查收');

    const note = await waitForSubject(smtp, 'erin@example.org', TAKEN_SUBJECT);
    expect(note.text).not.toMatch(/\d{6}/);
    expect(smtp.mailsTo('erin@example.org').some((mail) => mail.subject === CODE_SUBJECT)).toBe(false);
    expect(smtp.mailsTo('erin@example.org').length).toBe(mailsBefore + 1);

    // Whatever dan types, the taken address is refused like a wrong code, never a 500 or a 409.
    const guess = await post('/api/auth/user/email/confirm/', dan.token, { code: '123456' });
    expect(guess.statusCode).toBe(400);
    expect(guess.json().code).toBe('VERIFICATION_CODE_INVALID');
    expect(await currentEmail(dan.token)).toBe('dan@example.org');
    expect(await currentEmail(erin.token)).toBe('erin@example.org');
  });

  it('answers 409 when the address was taken between the code and the confirmation', async () => {
    const fay = await verifiedAccount('fay@example.org');
    await post('/api/auth/user/email/', fay.token, { new_email: 'race@example.org', password: PASSWORD });
    const code = codeFrom(await waitForSubject(smtp, 'race@example.org', CODE_SUBJECT));
    const racer = await verifiedAccount('race@example.org');
    const confirmed = await post('/api/auth/user/email/confirm/', fay.token, { code });
    expect(confirmed.statusCode, confirmed.body).toBe(409);
    expect(confirmed.json()).toMatchObject({ fields: { new_email: ['该邮箱已被其他账户使用'] } });
    expect(await currentEmail(fay.token)).toBe('fay@example.org');
    expect(await currentEmail(racer.token)).toBe('race@example.org');
    expect(await changes.find(fay.id)).toBeUndefined();
  });

  it("another user cannot confirm someone's change with its code", async () => {
    const gus = await verifiedAccount('gus@example.org');
    const hal = await verifiedAccount('hal@example.org');
    await post('/api/auth/user/email/', gus.token, { new_email: 'gus-new@example.org', password: PASSWORD });
    const code = codeFrom(await waitForSubject(smtp, 'gus-new@example.org', CODE_SUBJECT));
    const stolen = await post('/api/auth/user/email/confirm/', hal.token, { code });
    expect(stolen.statusCode).toBe(400);
    expect(await currentEmail(hal.token)).toBe('hal@example.org');
    expect(await currentEmail(gus.token)).toBe('gus@example.org');
    expect((await changes.find(gus.id))?.attempts).toBe(0);
  });

  it('is removed with the account', async () => {
    const ivy = await verifiedAccount('ivy@example.org');
    await post('/api/auth/user/email/', ivy.token, { new_email: 'ivy-new@example.org', password: PASSWORD });
    expect(await changes.find(ivy.id)).toBeDefined();
    await new UserAdminRepository(runtime.database.db).deleteWithOwnedRecords(ivy.id);
    expect(await changes.find(ivy.id)).toBeUndefined();
  });
});
