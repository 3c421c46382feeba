import { sql } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, SmtpSink } from '../../../test/smtp-sink';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * Resend, verify-email, verification-status and forgot-password must not tell an address with no
 * account from one waiting for verification or a verified one: same status, same body, same state.
 */

let runtime: TestRuntime;
let smtp: SmtpSink;
const PASSWORD = 'tr0ub4dor-horse';
const SECOND = 1000;

/** A clock that stands still unless moved, so seconds-left values compare exactly across addresses. */
let frozen = new Date();
const advance = (ms: number) => {
  frozen = new Date(frozen.getTime() + ms);
};

const ADDRESSES = {
  unknown: 'nobody@example.org',
  pending: 'pending@example.org',
  verified: 'verified@example.org',
};
type Kind = keyof typeof ADDRESSES;
const KINDS = Object.keys(ADDRESSES) as Kind[];

type Answer = { status: number; body: unknown };
type Call = { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> };

/**
 * One browser: it keeps the cookies the server sets (per address, as a prober would keep one jar per
 * address it probes), or keeps none when `keeps` is false.
 */
class Browser {
  private readonly jar = new Map<string, string>();
  constructor(private readonly keeps = true) {}

  async call(email: string, request: Call): Promise<Answer> {
    const cookie = this.jar.get(email);
    const response = await runtime.app.inject({
      method: request.method,
      url: request.url,
      ...(request.payload ? { payload: request.payload } : {}),
      headers: cookie ? { cookie: `radar_verify=${cookie}` } : {},
    });
    const set = response.cookies.find((c) => c.name === 'radar_verify');
    if (set && this.keeps) {
      if (set.value && set.maxAge !== 0) this.jar.set(email, set.value);
      else this.jar.delete(email);
    }
    return { status: response.statusCode, body: response.json() };
  }

  register = (email: string) =>
    this.call(email, {
      method: 'POST',
      url: '/api/auth/register/',
      payload: { email, password: PASSWORD, password2: PASSWORD },
    });
  resend = (email: string) =>
    this.call(email, { method: 'POST', url: '/api/auth/resend-verification-code/', payload: { email } });
  status = (email: string) =>
    this.call(email, { method: 'GET', url: `/api/auth/verification-status/?email=${encodeURIComponent(email)}` });
  verify = (email: string, code: string) =>
    this.call(email, { method: 'POST', url: '/api/auth/verify-email/', payload: { email, verification_code: code } });
  forgot = (email: string) =>
    this.call(email, { method: 'POST', url: '/api/auth/forgot-password/', payload: { email } });
}

/** Makes the same call for every kind of address and expects one answer; returns it. */
async function sameForAll(call: (email: string, kind: Kind) => Promise<Answer>): Promise<Answer> {
  const answers: Answer[] = [];
  for (const kind of KINDS) answers.push(await call(ADDRESSES[kind], kind));
  for (const [index, other] of answers.entries()) expect(other, KINDS[index]).toEqual(answers[0]);
  return answers[0] as Answer;
}

const owner = new Browser();
let ownerCode = '';
const wrongCode = () => String((Number(ownerCode) + 1) % 1_000_000).padStart(6, '0');

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  runtime = await startTestRuntime({ env: { SMTP_URL: smtp.url }, clock: () => frozen });
  for (const email of [ADDRESSES.pending, ADDRESSES.verified]) expect((await owner.register(email)).status).toBe(201);
  const code = codeFrom(await smtp.waitForMail(ADDRESSES.verified));
  expect((await owner.verify(ADDRESSES.verified, code)).status).toBe(200);
  ownerCode = codeFrom(await smtp.waitForMail(ADDRESSES.pending));
  // The probe comes moments after the registration: its code is live and its resend cooldown running.
  advance(5 * SECOND);
});

afterAll(async () => {
  await runtime?.stop();
  await smtp?.stop();
});

describe('an address without an account, one waiting for verification and a verified one', () => {
  it('get the same answers from verification-status, verify-email, resend and forgot-password', async () => {
    for (const prober of [new Browser(false), new Browser()]) {
      expect(await sameForAll(prober.status)).toEqual({
        status: 200,
        body: { remaining_time: 0, remaining_attempts: 5, has_verification_code: false, resend_available_in: 0 },
      });
    }
    // A prober that keeps no cookies: every wrong code is its first.
    const forgetful = new Browser(false);
    for (let i = 0; i < 6; i++) {
      expect(await sameForAll((email) => forgetful.verify(email, wrongCode()))).toEqual({
        status: 400,
        body: { code: 'VERIFICATION_CODE_INVALID', message: '验证码错误，还可尝试 4 次', remaining_attempts: 4 },
      });
    }

    // A prober that keeps them sees its own attempts, then its own lock, for every address alike.
    const prober = new Browser();
    for (const remaining of [4, 3, 2, 1]) {
      expect(await sameForAll((email) => prober.verify(email, wrongCode()))).toEqual({
        status: 400,
        body: {
          code: 'VERIFICATION_CODE_INVALID',
          message: `验证码错误，还可尝试 ${remaining} 次`,
          remaining_attempts: remaining,
        },
      });
    }
    expect(await sameForAll((email) => prober.verify(email, wrongCode()))).toMatchObject({
      status: 429,
      body: { code: 'VERIFICATION_LOCKED', remaining_attempts: 0, remaining_seconds: 3600 },
    });
    expect(await sameForAll(prober.status)).toMatchObject({
      body: { remaining_attempts: 0, has_verification_code: false },
    });

    // Resend: 200 for every address although the registration's cooldown is running, then this
    // prober's own cooldown and code.
    expect(await sameForAll(prober.resend)).toEqual({
      status: 200,
      body: { message: '如果该邮箱已注册且尚未验证，验证码已发送，请查收邮件', resend_available_in: 60 },
    });
    expect(await sameForAll(prober.resend)).toMatchObject({ status: 429, body: { remaining_seconds: 60 } });
    expect(await sameForAll(prober.status)).toEqual({
      status: 200,
      body: { remaining_time: 300, remaining_attempts: 5, has_verification_code: true, resend_available_in: 60 },
    });
    advance(6 * 60 * SECOND);
    expect(await sameForAll((email) => prober.verify(email, wrongCode()))).toMatchObject({
      status: 400,
      body: { code: 'VERIFICATION_CODE_EXPIRED' },
    });
    expect(await sameForAll(prober.forgot)).toEqual({
      status: 200,
      body: { message: '如果该邮箱已注册，我们已向其发送重置密码邮件，请查收' },
    });
    // Only the registration waiting for verification was ever mailed a code (the prober's resend fell
    // inside its cooldown); the verified account got its registration code, the unknown address nothing.
    expect(smtp.mailsTo(ADDRESSES.pending)).toHaveLength(1);
    expect(smtp.mailsTo(ADDRESSES.verified).filter((mail) => mail.subject.includes('验证码'))).toHaveLength(1);
    expect(smtp.mailsTo(ADDRESSES.unknown)).toHaveLength(0);
  });

  it("show the registering browser its own code, and guessing still locks the address's real code", async () => {
    const email = 'registrant@example.org';
    const registrant = new Browser();
    await registrant.register(email);
    const code = codeFrom(await smtp.waitForMail(email));
    expect(await registrant.status(email)).toEqual({
      status: 200,
      body: { remaining_time: 300, remaining_attempts: 5, has_verification_code: true, resend_available_in: 60 },
    });
    expect(await registrant.resend(email)).toMatchObject({ status: 429, body: { remaining_seconds: 60 } });
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(await registrant.verify(email, wrong)).toMatchObject({ status: 400, body: { remaining_attempts: 4 } });
    expect(await registrant.status(email)).toMatchObject({ body: { remaining_attempts: 4 } });

    // Five wrong codes from browsers that keep nothing still lock the real code for an hour: the right
    // code is then refused, and only its holder learns why.
    for (let i = 0; i < 5; i++) await new Browser(false).verify(email, wrong);
    expect(await registrant.verify(email, code)).toMatchObject({
      status: 429,
      body: { code: 'VERIFICATION_LOCKED', remaining_attempts: 0 },
    });
    // A new code (after the cooldown) gets through.
    advance(61 * SECOND);
    expect((await registrant.resend(email)).status).toBe(200);
    const fresh = codeFrom(await smtp.waitForMail(email, 2));
    expect(await registrant.verify(email, fresh)).toMatchObject({ status: 200, body: { message: '邮箱验证成功' } });
  });

  it('forgot-password answers before it looks anything up: a failing lookup does not change the answer', async () => {
    const expected = await new Browser().forgot('someone-else@example.org');
    // With the accounts table out of reach, any lookup made before answering would fail the request.
    await runtime.database.db.execute(sql`ALTER TABLE radar.users RENAME TO users_out_of_reach`);
    let during: Answer;
    try {
      during = await new Browser().forgot(ADDRESSES.verified);
      await waitForLog('password reset mail failed');
    } finally {
      await runtime.database.db.execute(sql`ALTER TABLE radar.users_out_of_reach RENAME TO users`);
    }
    expect(during).toEqual(expected);
  });
});

async function waitForLog(text: string): Promise<void> {
  for (let waited = 0; !runtime.logLines.some((line) => line.includes(text)); waited += 20) {
    if (waited > 10_000) throw new Error(`no log line with "${text}"`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
