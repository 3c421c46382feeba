import { FeedbackRepository, sql } from '@radar/db';
import {
  CONTACT_FEEDBACK_TYPE,
  CONTACT_STORED,
  contactResponseSchema,
  publicConfigResponseSchema,
} from '@radar/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpSink } from '../../../test/smtp-sink';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';
import { composeApp } from '../..';
import { CONTACT_RATE_LIMIT } from './contact.route';

/**
 * The contact page's server side, on the real runtime: GET /api/config/ (the public settings the page
 * reads) and POST /api/contact/ (a message without a login: stored as feedback of type 联系表单, mailed
 * to the operators through a real SMTP server, validated like feedback and registration, limited per
 * client address in the shared counters).
 */

const OPS = 'ops@example.org';
const SUPPORT = 'help@lab.example.edu';

let runtime: TestRuntime;
let sink: SmtpSink;
/** The same parts with SUPPORT_EMAIL and TIME_ZONE set and no FEEDBACK_TO. */
let supportApp: FastifyInstance;
/** The same parts with neither FEEDBACK_TO nor SUPPORT_EMAIL: messages are only stored. */
let unmailedApp: FastifyInstance;
let feedbackRows: FeedbackRepository;
let nextAddress = 1;
/** A client address of its own per test, so the per-address limit of one test does not spill into another. */
const freshAddress = () => `198.51.100.${nextAddress++}`;

const valid = {
  name: '  王老师 ',
  email: ' Visitor@Example.ORG ',
  title: '  无法收到验证码  ',
  description: '注册时一直收不到验证码邮件，已检查垃圾邮件箱。',
};

const send = (
  payload: unknown,
  options: { app?: FastifyInstance; headers?: Record<string, string>; from?: string } = {},
) =>
  (options.app ?? runtime.app).inject({
    method: 'POST',
    url: '/api/contact/',
    headers: { 'user-agent': 'Mozilla/5.0 (Macintosh)', ...options.headers },
    payload: payload as object,
    remoteAddress: options.from ?? freshAddress(),
  });

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function contactRows() {
  const result = await runtime.database.db.execute<{ id: number }>(
    sql`SELECT id FROM radar.feedback WHERE type = ${CONTACT_FEEDBACK_TYPE} ORDER BY id`,
  );
  return result.rows.map((row) => Number(row.id));
}

beforeAll(async () => {
  sink = await new SmtpSink().start();
  // The apps stand for instances sharing one database: their limits count there, also in embedded mode
  // (where one process would otherwise count in memory).
  runtime = await startTestRuntime({ env: { SMTP_URL: sink.url, FEEDBACK_TO: OPS }, countersInDatabase: true });
  const { parts } = runtime;
  supportApp = await composeApp(
    {
      ...parts,
      config: { ...parts.config, feedbackTo: undefined, supportEmail: SUPPORT, timeZone: 'Europe/Berlin' },
    },
    { webDistDir: '', countersInDatabase: true },
  );
  unmailedApp = await composeApp(
    { ...parts, config: { ...parts.config, feedbackTo: undefined, supportEmail: undefined } },
    { webDistDir: '', countersInDatabase: true },
  );
  feedbackRows = new FeedbackRepository(runtime.database.db);
});

afterAll(async () => {
  await unmailedApp?.close();
  await supportApp?.close();
  await runtime?.stop();
  await sink?.stop();
});

describe('GET /api/config/', () => {
  it('answers anyone with the public settings: no support address and Asia/Shanghai by default', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/config/' });
    expect(response.statusCode).toBe(200);
    expect(publicConfigResponseSchema.parse(response.json())).toEqual({
      support_email: null,
      time_zone: 'Asia/Shanghai',
      features: ['citation_export', 'followed_authors'],
      // Seeding from one's own works: ORCID and files always, OpenAlex only with OPENALEX_API_KEY.
      own_works: { orcid: true, openalex: false, library: true },
    });
    expect(response.headers['cache-control']).toBe('public, max-age=60');
  });

  it('gives SUPPORT_EMAIL and TIME_ZONE when they are set, and nothing else', async () => {
    const response = await supportApp.inject({ method: 'GET', url: '/api/config/' });
    expect(response.json()).toEqual({
      support_email: SUPPORT,
      time_zone: 'Europe/Berlin',
      features: ['citation_export', 'followed_authors'],
      own_works: { orcid: true, openalex: false, library: true },
    });
  });

  it('is in the OpenAPI document with POST /api/contact/, both without security', async () => {
    const doc = (await runtime.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.paths['/api/config/']?.get).toBeDefined();
    expect(doc.paths['/api/contact/']?.post).toBeDefined();
    expect(doc.paths['/api/config/'].get.security).toBeUndefined();
    expect(doc.paths['/api/contact/'].post.security).toBeUndefined();
  });
});

describe('POST /api/contact/', () => {
  it('stores a message without a login, marked as a contact message, and mails it to FEEDBACK_TO', async () => {
    const before = await contactRows();
    const response = await send(valid);
    expect(response.statusCode, response.body).toBe(200);
    expect(contactResponseSchema.parse(response.json())).toEqual({
      success: true,
      message: '留言已发送',
      delivery: 'mail',
    });

    const [id] = (await contactRows()).filter((rowId) => !before.includes(rowId));
    const row = await feedbackRows.findById(id as number);
    expect(row).toMatchObject({
      userId: null,
      type: '联系表单',
      title: '无法收到验证码',
      description: valid.description,
      userInfo: {
        source: 'contact',
        name: '王老师',
        email: 'visitor@example.org',
        userAgent: 'Mozilla/5.0 (Macintosh)',
      },
    });

    const mail = await sink.waitForMail(OPS);
    expect(mail.subject).toBe(`科研雷达联系表单留言 #${id}`);
    expect(mail.headers?.['reply-to']).toContain('visitor@example.org');
    expect(mail.html).toBe('');
    expect(mail.text).toContain('姓名：王老师');
    expect(mail.text).toContain('回复邮箱：visitor@example.org（由访客填写，未经验证）');
    expect(mail.text).toContain('标题：无法收到验证码');
    expect(mail.text).toContain(valid.description);
    const mailed = await waitFor(
      'mailed_at',
      async () => (await feedbackRows.findById(id as number))?.mailedAt ?? undefined,
    );
    expect(mailed).toBeInstanceOf(Date);
  });

  it('needs no login, and a token sent along (the web app sends its own) changes nothing', async () => {
    const response = await send({ ...valid, name: undefined }, { headers: { authorization: 'Bearer expired-token' } });
    expect(response.statusCode, response.body).toBe(200);
    const [last] = (await contactRows()).slice(-1);
    expect(await feedbackRows.findById(last as number)).toMatchObject({
      userId: null,
      userInfo: { source: 'contact', name: null },
    });
  });

  it('mails to SUPPORT_EMAIL when FEEDBACK_TO is not set', async () => {
    const response = await send({ ...valid, title: '给支持邮箱' }, { app: supportApp });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true, message: '留言已发送', delivery: 'mail' });
    const mail = await sink.waitForMail(SUPPORT);
    expect(mail.text).toContain('标题：给支持邮箱');
  });

  it('with neither FEEDBACK_TO nor SUPPORT_EMAIL: stored, mailed to nobody, and the answer promises no reply', async () => {
    const before = await contactRows();
    const mailsBefore = sink.messages.length;
    const response = await send({ ...valid, title: '没有通知邮箱' }, { app: unmailedApp });
    expect(response.statusCode, response.body).toBe(200);
    expect(contactResponseSchema.parse(response.json())).toEqual({
      success: true,
      message: CONTACT_STORED,
      delivery: 'stored',
    });
    expect(CONTACT_STORED).toBe('留言已保存，等待管理员查看。本站未开启留言邮件通知，管理员可能不会很快看到。');
    expect(response.body).not.toContain('回复');

    const [id] = (await contactRows()).filter((rowId) => !before.includes(rowId));
    expect(await feedbackRows.findById(id as number)).toMatchObject({
      title: '没有通知邮箱',
      mailedAt: null,
      readAt: null,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sink.messages.length).toBe(mailsBefore);

    // A bot filling the hidden field there gets the same answer, and nothing is stored.
    const bot = await send({ ...valid, website: 'http://spam.example' }, { app: unmailedApp });
    expect(bot.json()).toEqual(response.json());
    expect((await contactRows()).length).toBe(before.length + 1);
  });

  it('refuses bad input with a 400 and the message the form shows, storing nothing', async () => {
    const cases: [unknown, string][] = [
      [{ ...valid, title: '   ' }, '请填写标题和详细描述'],
      [{ ...valid, description: '' }, '请填写标题和详细描述'],
      [{ email: valid.email, description: valid.description }, '请填写标题和详细描述'],
      [{ ...valid, title: '题'.repeat(51) }, '标题不能超过 50 个字符'],
      [{ ...valid, description: 'x'.repeat(5001) }, '详细描述不能超过 5000 个字符'],
      [{ ...valid, email: undefined }, '请输入邮箱地址'],
      [{ ...valid, email: '  ' }, '请输入邮箱地址'],
      [{ ...valid, email: 'visitor@example' }, '请输入正确的邮箱格式'],
      [{ ...valid, email: `${'a'.repeat(250)}@example.org` }, '邮箱地址过长'],
      [{ ...valid, name: '名'.repeat(51) }, '姓名不能超过 50 个字符'],
      [{ ...valid, title: 'a\u0000b' }, '标题包含无效字符'],
    ];
    const before = await contactRows();
    for (const [payload, message] of cases) {
      const response = await send(payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message });
    }
    // A value of the wrong type fails two rules with one text: the field lists it once.
    const wrongType = await send({ ...valid, title: [] });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().fields).toEqual({ title: ['请填写标题和详细描述'] });
    expect(await contactRows()).toEqual(before);
  });

  it('answers a filled-in hidden field like a success, and stores and mails nothing', async () => {
    const before = await contactRows();
    const mailsBefore = sink.messages.length;
    const response = await send({ ...valid, website: 'http://spam.example' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: '留言已发送', delivery: 'mail' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await contactRows()).toEqual(before);
    expect(sink.messages.length).toBe(mailsBefore);
  });

  it('limits each client address, in the counters every instance shares', async () => {
    const from = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) {
      // Alternating between two apps over the same counters, as two server instances would.
      statuses.push((await send(valid, { from, app: i % 2 ? supportApp : runtime.app })).statusCode);
    }
    expect(statuses).toEqual(Array(CONTACT_RATE_LIMIT.max).fill(200));
    const limited = await send(valid, { from });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', remaining_seconds: expect.any(Number) });
    expect(limited.json().remaining_seconds).toBeGreaterThan(3000);
    // Another address is not affected.
    expect((await send(valid)).statusCode).toBe(200);
  });
});
