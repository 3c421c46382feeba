import { createHmac } from 'node:crypto';
import { sql, UserRepository, VectorRepository } from '@radar/db';
import { MAIL_LINK_PURPOSES, MailLinkTokens } from '@radar/mail';
import { RecommendationPipeline } from '@radar/recommend';
import {
  API_PATHS,
  apiErrorSchema,
  deliveryFeedTokenResponseSchema,
  deliverySettingsSchema,
  deliveryWebhookTestResponseSchema,
} from '@radar/shared';
import sax from 'sax';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * Delivery over HTTP on the real runtime: the settings and their validation (Chinese 400s), robot
 * webhook addresses (platform hosts only, https), the test message to a local stand-in, the personal
 * Atom feed (parsed by a real XML parser and checked against RFC 4287's required elements), revoking
 * it, and the digest's unsubscribe link without login.
 */

let runtime: TestRuntime;
let dimension: number;
let modelId: number;
let robotOrigin: string;
const robotRequests: { path: string; body: Record<string, unknown> }[] = [];
let robot: import('node:http').Server;
type Headers = Record<string, string>;

const axis = (index: number, tilt = 0) =>
  Array.from({ length: dimension }, (_, i) => (i === index ? 1 : i === index + 1 ? tilt : 0));

async function signUp(email: string) {
  const user = await new UserRepository(runtime.database.db).create({
    email,
    isEmailVerified: true,
    passwordHash: 'argon2id-hash',
    researchSummaryEn: 'Protein structure prediction with diffusion models.',
  });
  await new VectorRepository(runtime.database.db).setUserVector(user.id, modelId, axis(0));
  return { user, headers: { authorization: `Bearer ${await runtime.app.signIn(user)}` } as Headers };
}

async function addPaper(title: string, vector: number[]) {
  const result = await runtime.database.db.execute<{ id: string }>(sql`
    INSERT INTO radar.papers (title, abstract, url, journal_name, source, published_at)
    VALUES (${title}, 'An abstract.', 'https://papers.example.org/a?x=1&y=2', 'Journal <of> Tests', 'test', now())
    RETURNING id::text AS id`);
  const id = String(result.rows[0]?.id);
  await new VectorRepository(runtime.database.db).setVectors('papers', modelId, [{ id, vector }]);
  return id;
}

beforeAll(async () => {
  const { createServer } = await import('node:http');
  robot = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      robotRequests.push({ path: request.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      response.setHeader('content-type', 'application/json');
      const refused = (request.url ?? '').includes('access_token=refused');
      response.end(
        JSON.stringify(refused ? { errcode: 300001, errmsg: 'token is not exist' } : { errcode: 0, errmsg: 'ok' }),
      );
    });
  });
  await new Promise<void>((resolve) => robot.listen(0, '127.0.0.1', resolve));
  const { port } = robot.address() as import('node:net').AddressInfo;
  robotOrigin = `http://127.0.0.1:${port}`;
  runtime = await startTestRuntime({ env: { RUN_WORKER: 'false', WEBHOOK_TEST_ORIGIN: robotOrigin } });
  const model = await runtime.parts.ai.embeddings.activeModel();
  dimension = model.dimension;
  modelId = model.id;
});

afterAll(async () => {
  await runtime?.stop();
  await new Promise((resolve) => robot?.close(resolve));
});

const settingsBody = {
  frequency: 'weekly',
  weekday: 5,
  hour: 7,
  time_zone: 'Asia/Shanghai',
  email_enabled: true,
  paper_filters: { threshold: 0.3, excluded_jcr: [], date_filter: ['一周内'] },
};

describe('delivery settings', () => {
  it('saves the schedule and tells when the next digest goes out', async () => {
    const { headers } = await signUp('settings@example.org');
    const empty = await runtime.app.inject({ method: 'GET', url: API_PATHS.deliverySettings, headers });
    expect(deliverySettingsSchema.parse(empty.json())).toMatchObject({
      frequency: 'off',
      feed_enabled: false,
      webhook: null,
    });

    const saved = await runtime.app.inject({
      method: 'PUT',
      url: API_PATHS.deliverySettings,
      headers,
      payload: settingsBody,
    });
    expect(saved.statusCode).toBe(200);
    const settings = deliverySettingsSchema.parse(saved.json());
    expect(settings).toMatchObject({ frequency: 'weekly', weekday: 5, hour: 7, time_zone: 'Asia/Shanghai' });
    // A Friday, 07:00 in Shanghai (23:00 UTC on Thursday), within the coming week.
    const next = new Date(settings.next_delivery_at ?? '');
    expect(next.getUTCHours()).toBe(23);
    expect(next.getUTCDay()).toBe(4);
    expect(next.getTime() - Date.now()).toBeGreaterThan(0);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(7 * 24 * 3_600_000);
  });

  it('refuses bad values with Chinese messages', async () => {
    const { headers } = await signUp('bad-settings@example.org');
    for (const [change, message] of [
      [{ frequency: 'hourly' }, '推送频率只能是 off、daily 或 weekly'],
      [{ hour: 24 }, '推送时间必须是 0 到 23 点'],
      [{ weekday: 0 }, '星期必须是 1（周一）到 7（周日）'],
      [{ time_zone: 'Mars/Olympus' }, '时区无效'],
    ] as const) {
      const response = await runtime.app.inject({
        method: 'PUT',
        url: API_PATHS.deliverySettings,
        headers,
        payload: { ...settingsBody, ...change },
      });
      expect(response.statusCode).toBe(400);
      expect(apiErrorSchema.parse(response.json()).message).toContain(message);
    }
  });
});

describe('robot webhooks', () => {
  it('refuses addresses off the platforms or without https, with Chinese 400s', async () => {
    const { headers } = await signUp('webhook-bad@example.org');
    for (const [platform, url, message] of [
      ['wecom', 'http://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k', 'Webhook 地址必须以 https:// 开头'],
      ['feishu', 'https://open.feishu.cn.attacker.example/open-apis/bot/v2/hook/x', '飞书自定义机器人的地址应形如'],
      ['dingtalk', 'https://oapi.dingtalk.com/robot/send', '钉钉自定义机器人的地址应形如'],
      ['dingtalk', 'https://169.254.169.254/robot/send?access_token=x', '钉钉自定义机器人的地址应形如'],
    ] as const) {
      const response = await runtime.app.inject({
        method: 'PUT',
        url: API_PATHS.deliveryWebhook,
        headers,
        payload: { platform, url },
      });
      expect(response.statusCode, url).toBe(400);
      expect(apiErrorSchema.parse(response.json()).message).toContain(message);
    }
    const unknown = await runtime.app.inject({
      method: 'PUT',
      url: API_PATHS.deliveryWebhook,
      headers,
      payload: { platform: 'slack', url: 'https://hooks.slack.com/x' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(apiErrorSchema.parse(unknown.json()).message).toContain('请选择平台');
  });

  it('saves a webhook, masks its key, sends a signed test message, and says when the robot refuses', async () => {
    const { user, headers } = await signUp('webhook@example.org');
    const noneYet = await runtime.app.inject({ method: 'POST', url: API_PATHS.deliveryWebhookTest, headers });
    expect(noneYet.statusCode).toBe(400);
    expect(apiErrorSchema.parse(noneYet.json()).message).toBe('请先保存机器人 Webhook 地址');

    const url = `${robotOrigin}/robot/send?access_token=abcdef123456`;
    const saved = await runtime.app.inject({
      method: 'PUT',
      url: API_PATHS.deliveryWebhook,
      headers,
      payload: { platform: 'dingtalk', url, secret: 'SECtest' },
    });
    expect(saved.statusCode).toBe(200);
    expect(deliverySettingsSchema.parse(saved.json()).webhook).toEqual({
      platform: 'dingtalk',
      url_hint: `${robotOrigin}/robot/send?access_token=abcd…`,
      has_secret: true,
    });
    expect(saved.body).not.toContain('SECtest');
    // Sealed at rest: neither the address (its token is the credential) nor the signing secret is in the row.
    const stored = await runtime.database.db.execute<{ webhook_url: string; webhook_secret: string }>(
      sql`SELECT webhook_url, webhook_secret FROM radar.delivery_settings WHERE user_id = ${user.id}::uuid`,
    );
    const row = stored.rows[0];
    expect(row?.webhook_url).toMatch(/^enc:v1:/);
    expect(row?.webhook_secret).toMatch(/^enc:v1:/);
    expect(JSON.stringify(row)).not.toContain('abcdef123456');
    expect(JSON.stringify(row)).not.toContain('SECtest');

    const test = await runtime.app.inject({ method: 'POST', url: API_PATHS.deliveryWebhookTest, headers });
    expect(test.statusCode).toBe(200);
    expect(deliveryWebhookTestResponseSchema.parse(test.json()).message).toBe('测试消息已发送到钉钉自定义机器人');
    const request = robotRequests.at(-1);
    expect(request?.body).toMatchObject({ msgtype: 'markdown', markdown: { title: '科研雷达测试消息' } });
    const query = new URL(request?.path ?? '', robotOrigin).searchParams;
    // Opened for sending: the pasted token, and DingTalk's signature made with the pasted secret.
    expect(query.get('access_token')).toBe('abcdef123456');
    const timestamp = query.get('timestamp') ?? '';
    expect(timestamp).toMatch(/^\d{13}$/);
    // DingTalk's 加签 as documented: base64(HMAC-SHA256(key = secret, timestamp + "\n" + secret)).
    expect(query.get('sign')).toBe(createHmac('sha256', 'SECtest').update(`${timestamp}\nSECtest`).digest('base64'));
    expect(runtime.logLines.join('\n')).not.toContain('abcdef123456');
    expect(runtime.logLines.join('\n')).not.toContain('SECtest');

    await runtime.app.inject({
      method: 'PUT',
      url: API_PATHS.deliveryWebhook,
      headers,
      payload: { platform: 'dingtalk', url: `${robotOrigin}/robot/send?access_token=refused` },
    });
    const refused = await runtime.app.inject({ method: 'POST', url: API_PATHS.deliveryWebhookTest, headers });
    expect(refused.statusCode).toBe(400);
    expect(apiErrorSchema.parse(refused.json()).message).toBe('测试消息发送失败：机器人拒绝了消息：token is not exist');

    const removed = await runtime.app.inject({ method: 'DELETE', url: API_PATHS.deliveryWebhook, headers });
    expect(deliverySettingsSchema.parse(removed.json()).webhook).toBeNull();
  });
});

/** The document's elements as a tree, parsed strictly by sax (a malformed document throws). */
type XmlNode = { name: string; attributes: Record<string, string>; children: XmlNode[]; text: string };
function parseXml(xml: string): XmlNode {
  const parser = sax.parser(true, { xmlns: false });
  const root: XmlNode = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlNode[] = [root];
  parser.onopentag = (tag) => {
    const node: XmlNode = {
      name: tag.name,
      attributes: tag.attributes as Record<string, string>,
      children: [],
      text: '',
    };
    stack.at(-1)?.children.push(node);
    stack.push(node);
  };
  parser.onclosetag = () => {
    stack.pop();
  };
  parser.ontext = (text) => {
    const node = stack.at(-1);
    if (node) node.text += text;
  };
  parser.onerror = (error) => {
    throw error;
  };
  parser.write(xml).close();
  const [feed] = root.children;
  if (!feed) throw new Error('no document element');
  return feed;
}
const child = (node: XmlNode, name: string) => node.children.filter((c) => c.name === name);
const isRfc3339 = (text: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text);

describe('personal Atom feed', () => {
  it('serves the top recommendations as valid Atom without login, and stops at once when regenerated', async () => {
    const { headers } = await signUp('feed@example.org');
    await addPaper('Protein diffusion & <structure> prediction', axis(0, 0.1));
    await addPaper('Coral reefs', axis(2));

    const made = await runtime.app.inject({ method: 'POST', url: API_PATHS.deliveryFeedToken, headers });
    expect(made.statusCode).toBe(200);
    const feedUrl = new URL(deliveryFeedTokenResponseSchema.parse(made.json()).feed_url);
    // Only its hash is stored.
    const token = feedUrl.pathname.split('/').at(-2) ?? '';
    const stored = await runtime.database.db.execute<{ feed_token_hash: string }>(
      sql`SELECT feed_token_hash FROM radar.delivery_settings WHERE feed_token_hash IS NOT NULL`,
    );
    expect(stored.rows.map((row) => row.feed_token_hash)).not.toContain(token);

    const response = await runtime.app.inject({ method: 'GET', url: feedUrl.pathname });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    const feed = parseXml(response.body);
    expect(feed.name).toBe('feed');
    expect(feed.attributes.xmlns).toBe('http://www.w3.org/2005/Atom');
    // RFC 4287 4.1.1: exactly one id, title, updated; an author (entries carry none).
    for (const name of ['id', 'title', 'updated']) expect(child(feed, name), name).toHaveLength(1);
    expect(child(feed, 'author')[0] && child(child(feed, 'author')[0] as XmlNode, 'name')).toHaveLength(1);
    expect(isRfc3339(child(feed, 'updated')[0]?.text ?? '')).toBe(true);
    expect(child(feed, 'link').some((link) => link.attributes.rel === 'self')).toBe(true);
    const entries = child(feed, 'entry');
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      // 4.1.2: id, title, updated; a link rel=alternate since there is no content.
      for (const name of ['id', 'title', 'updated']) expect(child(entry, name), name).toHaveLength(1);
      expect(isRfc3339(child(entry, 'updated')[0]?.text ?? '')).toBe(true);
      expect(child(entry, 'link').some((link) => link.attributes.rel === 'alternate' && link.attributes.href)).toBe(
        true,
      );
    }
    const titles = entries.map((entry) => child(entry, 'title')[0]?.text);
    expect(titles).toContain('Protein diffusion & <structure> prediction');
    expect(titles).not.toContain('Coral reefs');
    const first = entries.find((entry) => child(entry, 'title')[0]?.text?.startsWith('Protein'));
    expect(child(first as XmlNode, 'link')[0]?.attributes.href).toBe('https://papers.example.org/a?x=1&y=2');
    expect(child(first as XmlNode, 'summary')[0]?.text).toMatch(/^推荐理由：/);

    // Regenerating: the old address is gone, the new one works.
    const again = await runtime.app.inject({ method: 'POST', url: API_PATHS.deliveryFeedToken, headers });
    const newUrl = new URL(deliveryFeedTokenResponseSchema.parse(again.json()).feed_url);
    expect((await runtime.app.inject({ method: 'GET', url: feedUrl.pathname })).statusCode).toBe(404);
    expect((await runtime.app.inject({ method: 'GET', url: newUrl.pathname })).statusCode).toBe(200);
    await runtime.app.inject({ method: 'DELETE', url: API_PATHS.deliveryFeedToken, headers });
    const gone = await runtime.app.inject({ method: 'GET', url: newUrl.pathname });
    expect(gone.statusCode).toBe(404);
    expect(apiErrorSchema.parse(gone.json()).message).toContain('订阅地址无效');
    expect((await runtime.app.inject({ method: 'GET', url: '/api/delivery/feed/not-a-token/' })).statusCode).toBe(404);
  });
});

describe('feed cache', () => {
  it('runs the pipeline once for many polls, and answers If-None-Match / If-Modified-Since with 304', async () => {
    const { headers } = await signUp('polled@example.org');
    await addPaper('Protein folding by diffusion', axis(0, 0.2));
    const made = await runtime.app.inject({ method: 'POST', url: API_PATHS.deliveryFeedToken, headers });
    const { pathname } = new URL(deliveryFeedTokenResponseSchema.parse(made.json()).feed_url);
    // Counted at the service boundary: each build asks the ranking pipeline for the reader's papers once.
    const builds = vi.spyOn(RecommendationPipeline.prototype, 'recommendPapers');
    try {
      const polls = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          runtime.app.inject({ method: 'GET', url: pathname, remoteAddress: `198.51.100.${i + 1}` }),
        ),
      );
      const again = await runtime.app.inject({ method: 'GET', url: pathname });
      expect([...polls, again].map((poll) => poll.statusCode)).toEqual(Array(6).fill(200));
      expect(builds).toHaveBeenCalledTimes(1);
      expect(new Set([...polls, again].map((poll) => poll.body)).size).toBe(1);

      const { etag, 'last-modified': lastModified } = again.headers;
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(new Date(String(lastModified)).getTime()).not.toBeNaN();
      const byTag = await runtime.app.inject({
        method: 'GET',
        url: pathname,
        headers: { 'if-none-match': String(etag) },
      });
      expect(byTag.statusCode).toBe(304);
      expect(byTag.body).toBe('');
      expect(byTag.headers.etag).toBe(etag);
      const byDate = await runtime.app.inject({
        method: 'GET',
        url: pathname,
        headers: { 'if-modified-since': String(lastModified) },
      });
      expect(byDate.statusCode).toBe(304);
      // Another tag, or an older copy: the whole feed.
      const stale = await runtime.app.inject({ method: 'GET', url: pathname, headers: { 'if-none-match': '"other"' } });
      expect(stale.statusCode).toBe(200);
      const older = new Date(new Date(String(lastModified)).getTime() - 60_000).toUTCString();
      expect(
        (await runtime.app.inject({ method: 'GET', url: pathname, headers: { 'if-modified-since': older } }))
          .statusCode,
      ).toBe(200);
      expect(builds).toHaveBeenCalledTimes(1);

      // Saving new settings shows them from the next poll on: one more build.
      await runtime.app.inject({ method: 'PUT', url: API_PATHS.deliverySettings, headers, payload: settingsBody });
      expect((await runtime.app.inject({ method: 'GET', url: pathname })).statusCode).toBe(200);
      expect(builds).toHaveBeenCalledTimes(2);
    } finally {
      builds.mockRestore();
    }
  });
});

describe('digest unsubscribe link', () => {
  it('works without login: GET shows a confirmation, POST (RFC 8058 one-click) turns the mail off', async () => {
    const { user, headers } = await signUp('unsubscribe@example.org');
    await runtime.app.inject({ method: 'PUT', url: API_PATHS.deliverySettings, headers, payload: settingsBody });
    const token = new MailLinkTokens(runtime.parts.jwtSecret).sign(MAIL_LINK_PURPOSES.digestUnsubscribe, user.id);
    const url = `${API_PATHS.deliveryUnsubscribe}?token=${encodeURIComponent(token)}`;

    const page = await runtime.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('确认退订');
    expect(
      deliverySettingsSchema.parse(
        (await runtime.app.inject({ method: 'GET', url: API_PATHS.deliverySettings, headers })).json(),
      ).email_enabled,
    ).toBe(true);

    const oneClick = await runtime.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain('已退订推送邮件');
    const after = deliverySettingsSchema.parse(
      (await runtime.app.inject({ method: 'GET', url: API_PATHS.deliverySettings, headers })).json(),
    );
    expect(after).toMatchObject({ email_enabled: false, frequency: 'weekly' });

    // A keyword-alert token is not a digest token.
    const other = new MailLinkTokens(runtime.parts.jwtSecret).sign(MAIL_LINK_PURPOSES.keywordAlertUnsubscribe, user.id);
    const wrong = await runtime.app.inject({
      method: 'POST',
      url: `${API_PATHS.deliveryUnsubscribe}?token=${encodeURIComponent(other)}`,
    });
    expect(wrong.statusCode).toBe(400);
  });
});
