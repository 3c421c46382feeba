import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { FeedbackRepository, sql, UserRepository } from '@radar/db';
import { createMailer } from '@radar/mail';
import { FEEDBACK_TYPE_LABELS, feedbackResponseSchema } from '@radar/shared';
import { loadConfig } from '@radar/shared/server';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpSink } from '../../../test/smtp-sink';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';
import { composeApp } from '../..';
import { FEEDBACK_LIMITS } from './feedback.route';

/**
 * POST /api/feedback/send/ on the real runtime: stored in radar.feedback, then mailed to FEEDBACK_TO
 * through a real SMTP server started here; and stored all the same when the mail server refuses.
 */

const OPS = 'ops@example.org';
const LEAD = 'lead@example.org';

let runtime: TestRuntime;
let sink: SmtpSink;
let refusing: SMTPServer;
/** The same parts, mailing through a server that refuses every recipient. */
let refusingApp: FastifyInstance;
/** The same parts without FEEDBACK_TO. */
let storeOnlyApp: FastifyInstance;
let closeRefusingMailer: () => void;
let user: { id: string; email: string; headers: Record<string, string> };
let feedbackRows: FeedbackRepository;

const valid = {
  type: '错误报告',
  title: '  搜索结果为空  ',
  description: '搜索“图神经网络”时没有结果。<script>alert(1)</script> & <b>粗体</b>',
  userInfo: {
    email: 'ada@example.org',
    userId: '42',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    currentPage: 'http://localhost:3000/feedback',
    timestamp: '2026/11/23 16:00:00',
  },
};

const send = (payload: unknown, headers: Record<string, string> = user.headers, app = runtime.app) =>
  app.inject({ method: 'POST', url: '/api/feedback/send/', headers, payload: payload as object });

async function sendOk(payload: unknown, headers?: Record<string, string>, app?: FastifyInstance) {
  const response = await send(payload, headers, app);
  expect(response.statusCode, response.body).toBe(200);
  return feedbackResponseSchema.parse(response.json());
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  sink = await new SmtpSink().start();
  refusing = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo: (_address, _session, callback) =>
      callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 })),
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  const refusingUrl = `smtp://127.0.0.1:${(refusing.server.address() as AddressInfo).port}`;

  // The apps stand for instances sharing one database: their limits count there, also in embedded mode.
  runtime = await startTestRuntime({
    env: { SMTP_URL: sink.url, FEEDBACK_TO: `${OPS},${LEAD}` },
    countersInDatabase: true,
  });
  const { parts } = runtime;
  const refusingMailer = createMailer({
    smtpUrl: refusingUrl,
    from: parts.config.mailFrom,
    outboxDir: path.join(runtime.dataDir, 'outbox'),
  });
  closeRefusingMailer = () => refusingMailer.close();
  refusingApp = await composeApp({ ...parts, mailer: refusingMailer }, { webDistDir: '', countersInDatabase: true });
  storeOnlyApp = await composeApp(
    { ...parts, config: { ...parts.config, feedbackTo: undefined } },
    { webDistDir: '', countersInDatabase: true },
  );

  const account = await new UserRepository(runtime.database.db).create({
    email: 'Researcher@Example.org',
    isEmailVerified: true,
  });
  user = {
    id: account.id,
    email: account.email,
    headers: { authorization: `Bearer ${await runtime.app.signIn(account)}` },
  };
  feedbackRows = new FeedbackRepository(runtime.database.db);
});

afterAll(async () => {
  await refusingApp?.close();
  closeRefusingMailer?.();
  await storeOnlyApp?.close();
  await runtime?.stop();
  await sink?.stop();
  await new Promise<void>((resolve) => (refusing ? refusing.close(() => resolve()) : resolve()));
});

describe('POST /api/feedback/send/', () => {
  it('stores the feedback of a signed-in user and mails it as plain text to FEEDBACK_TO', async () => {
    const body = await sendOk(valid);
    expect(body).toEqual({ success: true, message: '感谢您的反馈', id: expect.stringMatching(/^\d+$/) });

    const row = await feedbackRows.findById(Number(body.id));
    expect(row).toMatchObject({
      userId: user.id,
      type: '错误报告',
      title: '搜索结果为空',
      description: valid.description,
      userInfo: valid.userInfo,
    });

    const [toOps, toLead] = await Promise.all([sink.waitForMail(OPS), sink.waitForMail(LEAD)]);
    expect(toLead?.text).toBe(toOps.text);
    expect(toOps.subject).toBe(`科研雷达用户反馈 #${body.id}：错误报告`);
    // Plain text: no HTML part, and what the user typed arrives exactly as typed.
    expect(toOps.html).toBe('');
    expect(toOps.text).toContain(valid.description);
    expect(toOps.text).toContain('标题：搜索结果为空');
    expect(toOps.text).toContain(`账户：${user.email}（用户编号 ${user.id}）`);
    expect(toOps.text).toContain('浏览器：Mozilla/5.0 (X11; Linux x86_64)');
    expect(toOps.text).toContain('当前页面：http://localhost:3000/feedback');

    const mailed = await waitFor(
      'mailed_at',
      async () => (await feedbackRows.findById(Number(body.id)))?.mailedAt ?? undefined,
    );
    expect(mailed).toBeInstanceOf(Date);
  });

  it('accepts each type as its Chinese label or its English id, and stores the label', async () => {
    for (const [id, label] of Object.entries(FEEDBACK_TYPE_LABELS)) {
      for (const type of [id, label]) {
        const { id: feedbackId } = await sendOk({ ...valid, type }, user.headers, storeOnlyApp);
        expect((await feedbackRows.findById(Number(feedbackId)))?.type).toBe(label);
      }
    }
  });

  it('keeps a line break in the title from faking lines of the mail', async () => {
    const { id } = await sendOk({ ...valid, title: '第一行\n账户：admin@example.org' });
    const mail = await waitFor('the mail', () =>
      sink.mailsTo(OPS).find((received) => received.subject.includes(`#${id}：`)),
    );
    expect(mail.text).toContain('标题：第一行 账户：admin@example.org');
    expect(mail.text).not.toMatch(/^账户：admin/m);
  });

  it('stores the feedback when the mail server refuses it, answers success, and logs no content', async () => {
    const secret = '只在反馈里出现的一句话';
    const { id } = await sendOk({ ...valid, description: secret }, user.headers, refusingApp);
    const logged = await waitFor('the warning', () =>
      runtime.logLines.find(
        (line) => line.includes('feedback stored but not mailed') && line.includes(`"feedbackId":${id}`),
      ),
    );
    expect(logged).not.toContain(secret);
    const row = await feedbackRows.findById(Number(id));
    expect(row).toMatchObject({ description: secret, userId: user.id, mailedAt: null });
  });

  it('only stores the feedback when FEEDBACK_TO is not set', async () => {
    const before = sink.messages.length;
    const { id } = await sendOk({ ...valid, type: 'question' }, user.headers, storeOnlyApp);
    const row = await feedbackRows.findById(Number(id));
    expect(row).toMatchObject({ type: '使用问题', mailedAt: null });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sink.messages.length).toBe(before);
  });

  it('refuses bad input with a 400 and a Chinese message', async () => {
    const cases: [unknown, string][] = [
      [{ ...valid, title: '   ' }, '请填写标题和详细描述'],
      [{ ...valid, description: '' }, '请填写标题和详细描述'],
      [{ type: valid.type, description: valid.description }, '请填写标题和详细描述'],
      [{ type: valid.type, title: valid.title }, '请填写标题和详细描述'],
      [{ ...valid, title: '题'.repeat(51) }, '标题不能超过 50 个字符'],
      [{ ...valid, description: 'x'.repeat(5001) }, '详细描述不能超过 5000 个字符'],
      [{ ...valid, type: 'praise' }, '反馈类型只能是 错误报告、功能建议、使用问题、其他'],
      [{ ...valid, type: undefined }, '请选择反馈类型'],
      [{ ...valid, title: 'a\u0000b' }, '标题包含无效字符'],
      [{ ...valid, userInfo: 'me' }, 'userInfo 必须是对象'],
      [{ ...valid, userInfo: { ...valid.userInfo, userAgent: 'x'.repeat(501) } }, '浏览器信息不能超过 500 个字符'],
      [{ ...valid, userInfo: { ...valid.userInfo, currentPage: 42 } }, '当前页面必须是文本'],
    ];
    const before = await countFeedback();
    for (const [payload, message] of cases) {
      const response = await send(payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message });
    }
    expect(await countFeedback()).toBe(before);
    // At the limits, and with the user-info box left out or null.
    await sendOk({ ...valid, title: '题'.repeat(50), userInfo: undefined }, user.headers, storeOnlyApp);
    await sendOk({ ...valid, description: 'x'.repeat(5000), userInfo: null }, user.headers, storeOnlyApp);
    await sendOk({ ...valid, userInfo: { email: '未登录', userId: null, timestamp: '' } }, user.headers, storeOnlyApp);
  });

  it('answers a bad token 401, as guarded routes do, and stores nothing', async () => {
    const before = await countFeedback();
    const invalid = await send(valid, { authorization: 'Bearer not-a-token' });
    expect(invalid.statusCode).toBe(401);
    expect(invalid.json().code).toBe('AUTH_INVALID');
    const forged = runtime.app.jwt.sign({ sub: user.id, ver: 1, sid: randomUUID() });
    expect((await send(valid, { authorization: `Bearer ${forged}` })).json().code).toBe('AUTH_INVALID');
    expect(await countFeedback()).toBe(before);
  });

  it('takes anonymous feedback, marked as not logged in, limited per client', async () => {
    const anonymous = { ...valid, userInfo: { ...valid.userInfo, email: '未登录', userId: 'unknown' } };
    const { id } = await sendOk(anonymous, {});
    expect(await feedbackRows.findById(Number(id))).toMatchObject({ userId: null, userInfo: anonymous.userInfo });
    const mail = await waitFor('the mail', () =>
      sink.mailsTo(OPS).find((received) => received.subject.includes(`#${id}：`)),
    );
    expect(mail.text).toContain('账户：未登录');

    const statuses: number[] = [];
    for (let i = 0; i < FEEDBACK_LIMITS.anonymousPerClient.max + 1; i++) {
      statuses.push((await send(anonymous, {}, storeOnlyApp)).statusCode);
    }
    // The first was sent above (the two apps share the counters' database).
    expect(statuses.filter((status) => status === 200)).toHaveLength(FEEDBACK_LIMITS.anonymousPerClient.max - 1);
    const limited = await send(anonymous, {});
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', remaining_seconds: expect.any(Number) });
    const anonymousRows = await runtime.database.db.execute<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM radar.feedback WHERE user_id IS NULL`,
    );
    expect(anonymousRows.rows[0]?.count).toBe(FEEDBACK_LIMITS.anonymousPerClient.max);
    // A signed-in user is counted per account, not per address.
    await sendOk(valid, user.headers, storeOnlyApp);
  });

  it('counts an anonymous IPv6 client by its /64, as the contact form does', async () => {
    const anonymous = { ...valid, userInfo: { ...valid.userInfo, email: '未登录', userId: 'unknown' } };
    const from = (address: string) =>
      storeOnlyApp.inject({ method: 'POST', url: '/api/feedback/send/', payload: anonymous, remoteAddress: address });
    const statuses: number[] = [];
    // Every request from another address of the same /64: one client, one budget.
    for (let i = 1; i <= FEEDBACK_LIMITS.anonymousPerClient.max + 1; i++) {
      statuses.push((await from(`2001:db8:34:6::${i.toString(16)}`)).statusCode);
    }
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await from('2001:db8:34:7::1')).statusCode).toBe(200);
  });
});

describe('FEEDBACK_TO', () => {
  it('takes one address or several, separated by commas, and refuses anything else at start-up', () => {
    expect(loadConfig({}).feedbackTo).toBeUndefined();
    expect(loadConfig({ FEEDBACK_TO: '' }).feedbackTo).toBeUndefined();
    expect(loadConfig({ FEEDBACK_TO: 'ops@example.org' }).feedbackTo).toBe('ops@example.org');
    expect(loadConfig({ FEEDBACK_TO: ' ops@example.org ,lead@example.org' }).feedbackTo).toBe(
      'ops@example.org, lead@example.org',
    );
    for (const bad of ['ops', 'ops@example.org,', 'ops@example.org; lead@example.org']) {
      expect(() => loadConfig({ FEEDBACK_TO: bad }), bad).toThrow(/FEEDBACK_TO must be an e-mail address/);
    }
  });
});

async function countFeedback(): Promise<number> {
  const result = await runtime.database.db.execute<{ count: number }>(
    sql`SELECT count(*)::int AS count FROM radar.feedback`,
  );
  return result.rows[0]?.count ?? 0;
}
