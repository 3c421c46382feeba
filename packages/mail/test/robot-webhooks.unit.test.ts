import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkRobotWebhookUrl,
  maskRobotWebhookUrl,
  type RobotDigest,
  RobotWebhookError,
  sendRobotDigest,
} from '../src';

/**
 * Robot webhooks against a local HTTP server answering as each platform does: the documented message
 * formats (WeCom markdown, Feishu post, DingTalk markdown) and signatures (Feishu in the body, DingTalk
 * in the query), recomputed here from the platforms' descriptions; refusals; and which addresses are accepted.
 */

type Received = { path: string; query: URLSearchParams; body: Record<string, unknown> };
const received: Received[] = [];
let server: Server;
let origin: string;
/** What the next request is answered with. */
let answer: { status: number; body: unknown } = { status: 200, body: { errcode: 0, errmsg: 'ok' } };

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://local');
      received.push({
        path: url.pathname,
        query: url.searchParams,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      response.statusCode = answer.status;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

const digest: RobotDigest = {
  title: '科研雷达今日推荐',
  intro: '2 篇论文',
  items: [
    {
      title: 'Protein [folding] with diffusion',
      url: 'https://papers.example.org/1',
      reason: '与你的研究方向共有：protein folding',
      summary: '中文摘要',
      label: '论文',
    },
    { title: 'Graph networks', url: 'https://papers.example.org/2', reason: '与你的研究方向整体相近', label: '论文' },
  ],
  footer: { text: '在科研雷达中查看全部推荐', url: 'http://radar.test/papers' },
};

const last = () => {
  const request = received.at(-1);
  if (!request) throw new Error('nothing received');
  return request;
};

describe('robot webhook formats and signatures', () => {
  it('WeCom: markdown msgtype, unsigned (the key in the address is the credential)', async () => {
    answer = { status: 200, body: { errcode: 0, errmsg: 'ok' } };
    await sendRobotDigest({ platform: 'wecom', url: `${origin}/cgi-bin/webhook/send?key=k-123` }, digest);
    const request = last();
    expect(request.path).toBe('/cgi-bin/webhook/send');
    expect(request.query.get('key')).toBe('k-123');
    expect(request.body.msgtype).toBe('markdown');
    const content = (request.body.markdown as { content: string }).content;
    expect(content.startsWith('## 科研雷达今日推荐\n')).toBe(true);
    // Brackets in a title cannot end the link early.
    expect(content).toContain('[Protein 【folding】 with diffusion](https://papers.example.org/1)');
    expect(content).toContain('> 与你的研究方向共有：protein folding');
    expect(Buffer.byteLength(content)).toBeLessThanOrEqual(4096);
  });

  it('Feishu: post msg_type with timestamp (seconds) and sign = base64(HMAC-SHA256(timestamp\\nsecret, ""))', async () => {
    answer = { status: 200, body: { code: 0, msg: 'success', data: {} } };
    const now = new Date('2026-11-27T00:00:00Z');
    await sendRobotDigest(
      { platform: 'feishu', url: `${origin}/open-apis/bot/v2/hook/abc-123`, secret: 's3cret' },
      digest,
      { now },
    );
    const { body } = last();
    expect(body.msg_type).toBe('post');
    expect(body.timestamp).toBe(String(now.getTime() / 1000));
    const expected = createHmac('sha256', `${body.timestamp}\ns3cret`).update('').digest('base64');
    expect(body.sign).toBe(expected);
    const post = (body.content as { post: { zh_cn: { title: string; content: Record<string, string>[][] } } }).post
      .zh_cn;
    expect(post.title).toBe('科研雷达今日推荐');
    expect(post.content.flat()).toContainEqual({
      tag: 'a',
      text: 'Protein [folding] with diffusion',
      href: 'https://papers.example.org/1',
    });
  });

  it('DingTalk: markdown msgtype, timestamp (ms) and sign = base64(HMAC-SHA256(secret, timestamp\\nsecret)) in the query', async () => {
    answer = { status: 200, body: { errcode: 0, errmsg: 'ok' } };
    const now = new Date('2026-11-27T00:00:00.123Z');
    await sendRobotDigest(
      { platform: 'dingtalk', url: `${origin}/robot/send?access_token=tok`, secret: 'SECabc' },
      digest,
      { now },
    );
    const request = last();
    expect(request.query.get('access_token')).toBe('tok');
    expect(request.query.get('timestamp')).toBe(String(now.getTime()));
    const expected = createHmac('sha256', 'SECabc').update(`${now.getTime()}\nSECabc`).digest('base64');
    // URLSearchParams decodes the URL-encoded sign back to the base64 text.
    expect(request.query.get('sign')).toBe(expected);
    expect(request.body.msgtype).toBe('markdown');
    expect(request.body.markdown).toMatchObject({ title: '科研雷达今日推荐' });
    expect((request.body.markdown as { text: string }).text).toContain('#### 科研雷达今日推荐');
  });

  it("a platform's refusal is a RobotWebhookError with its message in Chinese", async () => {
    answer = { status: 200, body: { errcode: 310000, errmsg: 'sign not match' } };
    const error = await sendRobotDigest(
      { platform: 'dingtalk', url: `${origin}/robot/send?access_token=tok`, secret: 'wrong' },
      digest,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RobotWebhookError);
    expect((error as RobotWebhookError).message).toBe('机器人拒绝了消息：sign not match');
    expect((error as RobotWebhookError).platformCode).toBe(310000);
  });
});

describe('answers that never end', () => {
  /** Bytes each answer below had written when its connection closed, by path. */
  const written = new Map<string, number>();
  let hostile: Server;
  let hostileOrigin: string;
  const timers = new Set<NodeJS.Timeout>();

  beforeAll(async () => {
    hostile = createServer((request, response) => {
      const path = request.url ?? '/';
      let bytes = 0;
      request.resume();
      response.on('close', () => written.set(path, bytes));
      response.writeHead(200, { 'content-type': 'application/json' });
      if (path.startsWith('/endless')) {
        // A body without end, as fast as the client takes it.
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (!response.destroyed && response.write(chunk)) bytes += chunk.length;
        };
        response.write('{"errcode":0,"errmsg":"');
        response.on('drain', pump);
        pump();
      } else {
        // A valid answer, a byte every 50 ms.
        const text = JSON.stringify({ errcode: 0, errmsg: 'ok'.repeat(1000) });
        const timer = setInterval(() => {
          if (response.destroyed || bytes >= text.length) return clearInterval(timer);
          response.write(text[bytes++]);
        }, 50);
        timers.add(timer);
      }
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    hostileOrigin = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const timer of timers) clearInterval(timer);
    hostile?.closeAllConnections();
    await new Promise((resolve) => hostile?.close(resolve));
  });

  const waitForClose = async (path: string) => {
    for (let i = 0; i < 200 && !written.has(path); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    return written.get(path);
  };

  it('an endless body: at most 64 kB is read, the connection is closed, the push fails', async () => {
    // A deadline far beyond the test's own timeout: only the byte cap can end this push.
    const error = await sendRobotDigest({ platform: 'wecom', url: `${hostileOrigin}/endless?key=k` }, digest, {
      timeoutMs: 600_000,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RobotWebhookError);
    expect((error as Error).message).toBe('机器人地址的回答过大（超过 64 KB），这不像机器人的回答，消息可能没有送达');
    // The sender hung up: the server stopped writing after what socket buffers hold, not gigabytes later.
    expect(await waitForClose('/endless?key=k')).toBeLessThan(32 * 1024 * 1024);
  });

  it('an answer trickling a byte at a time: the one deadline ends the push, body included', async () => {
    const error = await sendRobotDigest({ platform: 'wecom', url: `${hostileOrigin}/trickle?key=k` }, digest, {
      timeoutMs: 1_000,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RobotWebhookError);
    expect((error as Error).message).toBe('机器人地址在 1 秒内没有回答完毕，消息可能没有送达');
    expect(await waitForClose('/trickle?key=k')).toBeLessThan(2_000);
  });
});

describe('which webhook addresses are accepted', () => {
  it("accepts each platform's https endpoint", () => {
    expect(checkRobotWebhookUrl('wecom', 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=abc').ok).toBe(true);
    expect(checkRobotWebhookUrl('feishu', 'https://open.feishu.cn/open-apis/bot/v2/hook/0a1b-2c').ok).toBe(true);
    expect(checkRobotWebhookUrl('feishu', 'https://open.larksuite.com/open-apis/bot/v2/hook/0a1b').ok).toBe(true);
    expect(checkRobotWebhookUrl('dingtalk', 'https://oapi.dingtalk.com/robot/send?access_token=x').ok).toBe(true);
  });

  it('refuses http, other hosts, other paths and look-alikes, in Chinese', () => {
    const refused = [
      ['wecom', 'http://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=abc', 'Webhook 地址必须以 https:// 开头'],
      [
        'wecom',
        'https://qyapi.weixin.qq.com.evil.example/cgi-bin/webhook/send?key=abc',
        '企业微信群机器人的地址应形如',
      ],
      ['wecom', 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send', '企业微信群机器人的地址应形如'],
      ['feishu', 'https://oapi.dingtalk.com/robot/send?access_token=x', '飞书自定义机器人的地址应形如'],
      ['dingtalk', 'https://oapi.dingtalk.com:8443/robot/send?access_token=x', '钉钉自定义机器人的地址应形如'],
      ['dingtalk', 'https://user@oapi.dingtalk.com/robot/send?access_token=x', 'Webhook 地址无效'],
      ['dingtalk', 'not a url', 'Webhook 地址无效'],
      ['feishu', 'http://127.0.0.1:9/open-apis/bot/v2/hook/abc', 'Webhook 地址必须以 https:// 开头'],
    ] as const;
    for (const [platform, url, message] of refused) {
      const check = checkRobotWebhookUrl(platform, url);
      expect(check.ok, url).toBe(false);
      if (!check.ok) expect(check.message, url).toContain(message);
    }
  });

  it('accepts the test origin only when configured, with the same path rules', () => {
    const local = 'http://127.0.0.1:9';
    expect(checkRobotWebhookUrl('feishu', `${local}/open-apis/bot/v2/hook/abc`, local).ok).toBe(true);
    expect(checkRobotWebhookUrl('feishu', `${local}/elsewhere`, local).ok).toBe(false);
  });

  it('masks the credential for the settings screen', () => {
    expect(maskRobotWebhookUrl('https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7xxx')).toBe(
      'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a…',
    );
    expect(maskRobotWebhookUrl('https://open.feishu.cn/open-apis/bot/v2/hook/0a1b2c3d4e')).toBe(
      'https://open.feishu.cn/open-apis/bot/v2/hook/0a1b…',
    );
  });
});
