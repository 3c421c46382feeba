import { sql } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, SmtpSink } from './smtp-sink';
import { startTestRuntime, type TestRuntime } from './test-runtime';

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

const post = (url: string, payload: unknown) =>
  runtime.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown> });

type Answer = { status: number; body: unknown };
const answer = async (response: Promise<{ statusCode: number; json(): unknown }>): Promise<Answer> => {
  const settled = await response;
  return { status: settled.statusCode, body: settled.json() };
};

const calls = {
  resend: (email: string) => answer(post('/api/auth/resend-verification-code/', { email })),
  status: (email: string) =>
    answer(
      runtime.app.inject({
        method: 'GET',
        url: `/api/auth/verification-status/?email=${encodeURIComponent(email)}`,
      }),
    ),
  verify: (email: string, code: string) => answer(post('/api/auth/verify-email/', { email, verification_code: code })),
  forgot: (email: string) => answer(post('/api/auth/forgot-password/', { email })),
};

/** Makes the same call for every kind of address and expects one answer; returns it. */
async function sameForAll(call: (email: string, kind: Kind) => Promise<Answer>): Promise<Answer> {
  const answers: Answer[] = [];
  for (const kind of KINDS) answers.push(await call(ADDRESSES[kind], kind));
  for (const [index, other] of answers.entries()) expect(other, KINDS[index]).toEqual(answers[0]);
  return answers[0] as Answer;
}

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  runtime = await startTestRuntime({ env: { SMTP_URL: smtp.url }, clock: () => frozen });
  for (const email of [ADDRESSES.pending, ADDRESSES.verified]) {
    await post('/api/auth/register/', { email, password: PASSWORD, password2: PASSWORD });
  }
  const code = codeFrom(await smtp.waitForMail(ADDRESSES.verified));
  expect(
    (await post('/api/auth/verify-email/', { email: ADDRESSES.verified, verification_code: code })).statusCode,
  ).toBe(200);
  // The registration codes have expired and their cooldowns passed; what follows is a prober's first visit.
  advance(10 * 60 * SECOND);
});

afterAll(async () => {
  await runtime?.stop();
  await smtp?.stop();
});

describe('an address without an account, one waiting for verification and a verified one', () => {
  it('get the same answers from resend, verification-status, verify-email and forgot-password', async () => {
    expect(await sameForAll(calls.resend)).toEqual({
      status: 200,
      body: { message: '验证码已发送，请查收邮件', resend_available_in: 60 },
    });
    // Only the registration waiting for verification is actually mailed a code.
    const pendingCode = codeFrom(await smtp.waitForMail(ADDRESSES.pending, 2));
    expect(smtp.mailsTo(ADDRESSES.verified)).toHaveLength(1);
    expect(smtp.mailsTo(ADDRESSES.unknown)).toHaveLength(0);

    expect(await sameForAll(calls.resend)).toMatchObject({ status: 429, body: { remaining_seconds: 60 } });
    expect(await sameForAll(calls.status)).toEqual({
      status: 200,
      body: { remaining_time: 300, remaining_attempts: 5, has_verification_code: true, resend_available_in: 60 },
    });

    const wrong = String((Number(pendingCode) + 1) % 1_000_000).padStart(6, '0');
    for (const remaining of [4, 3, 2, 1]) {
      expect(await sameForAll((email) => calls.verify(email, wrong))).toEqual({
        status: 400,
        body: {
          code: 'VERIFICATION_CODE_INVALID',
          message: `验证码错误，还可尝试 ${remaining} 次`,
          remaining_attempts: remaining,
        },
      });
    }
    expect(await sameForAll((email) => calls.verify(email, wrong))).toMatchObject({
      status: 429,
      body: { code: 'VERIFICATION_LOCKED', remaining_attempts: 0, remaining_seconds: 3600 },
    });
    expect(await sameForAll(calls.status)).toMatchObject({
      body: { remaining_attempts: 0, has_verification_code: true },
    });

    advance(61 * SECOND);
    expect(await sameForAll(calls.resend)).toMatchObject({ status: 200 });
    expect(await sameForAll(calls.status)).toMatchObject({ body: { remaining_attempts: 5, remaining_time: 300 } });
    advance(6 * 60 * SECOND);
    expect(await sameForAll((email) => calls.verify(email, wrong))).toMatchObject({
      status: 400,
      body: { code: 'VERIFICATION_CODE_EXPIRED' },
    });
    expect(await sameForAll(calls.forgot)).toEqual({
      status: 200,
      body: { message: '如果该邮箱已注册，我们已向其发送重置密码邮件，请查收' },
    });
  });

  it('get the same verify-email answer when no code was ever asked for', async () => {
    // A verified account's code was used; an unknown address never had one.
    const verified = await calls.verify('verified-untouched@example.org', '123456');
    await post('/api/auth/register/', {
      email: 'verified-untouched@example.org',
      password: PASSWORD,
      password2: PASSWORD,
    });
    const code = codeFrom(await smtp.waitForMail('verified-untouched@example.org'));
    await calls.verify('verified-untouched@example.org', code);
    expect(await calls.verify('verified-untouched@example.org', '123456')).toEqual(verified);
    expect(verified).toEqual({
      status: 400,
      body: { code: 'VERIFICATION_CODE_MISSING', message: '没有有效的验证码，请先发送验证码' },
    });
  });

  it('forgot-password answers before it looks anything up: a failing lookup does not change the answer', async () => {
    const expected = await calls.forgot('someone-else@example.org');
    // With the accounts table out of reach, any lookup made before answering would fail the request.
    await runtime.database.db.execute(sql`ALTER TABLE radar.users RENAME TO users_out_of_reach`);
    let during: Answer;
    try {
      during = await calls.forgot(ADDRESSES.verified);
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
