import { createHmac } from 'node:crypto';

/**
 * Group robot webhooks a reader pastes: WeCom (企业微信群机器人), Feishu/Lark (飞书自定义机器人) and
 * DingTalk (钉钉自定义机器人). The only module that talks to them: which addresses are accepted, the
 * platforms' documented message formats, their signatures, and what their answers mean. Sources of the
 * formats and signatures are in docs/decisions.md ("Issue 24: delivery").
 */

export type RobotPlatform = 'wecom' | 'feishu' | 'dingtalk';

interface PlatformRule {
  hosts: readonly string[];
  /** Whether the path (and query) is the platform's robot endpoint. */
  isEndpoint: (url: URL) => boolean;
  /** The Chinese message for an address that is not this platform's. */
  expected: string;
}

const PLATFORM_RULES: Record<RobotPlatform, PlatformRule> = {
  wecom: {
    hosts: ['qyapi.weixin.qq.com'],
    isEndpoint: (url) => url.pathname === '/cgi-bin/webhook/send' && Boolean(url.searchParams.get('key')),
    expected: '企业微信群机器人的地址应形如 https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…',
  },
  feishu: {
    hosts: ['open.feishu.cn', 'open.larksuite.com'],
    isEndpoint: (url) => /^\/open-apis\/bot\/v2\/hook\/[A-Za-z0-9-]+$/.test(url.pathname),
    expected:
      '飞书自定义机器人的地址应形如 https://open.feishu.cn/open-apis/bot/v2/hook/…（Lark 为 open.larksuite.com）',
  },
  dingtalk: {
    hosts: ['oapi.dingtalk.com'],
    isEndpoint: (url) => url.pathname === '/robot/send' && Boolean(url.searchParams.get('access_token')),
    expected: '钉钉自定义机器人的地址应形如 https://oapi.dingtalk.com/robot/send?access_token=…',
  },
};

export type RobotUrlCheck = { ok: true; url: string } | { ok: false; message: string };

/**
 * Whether a pasted address is the platform's robot endpoint: https, on the platform's host (default port,
 * no user name), with its endpoint's path. `testOrigin` (WEBHOOK_TEST_ORIGIN, tests only) is accepted in
 * place of the host, with the same path rules.
 */
export function checkRobotWebhookUrl(platform: RobotPlatform, pasted: string, testOrigin?: string): RobotUrlCheck {
  const rule = PLATFORM_RULES[platform];
  let url: URL;
  try {
    url = new URL(pasted.trim());
  } catch {
    return { ok: false, message: `Webhook 地址无效：${rule.expected}` };
  }
  const isTestOrigin = testOrigin !== undefined && url.origin === testOrigin;
  if (!isTestOrigin) {
    if (url.protocol !== 'https:') return { ok: false, message: 'Webhook 地址必须以 https:// 开头' };
    if (!rule.hosts.includes(url.hostname) || url.port !== '') return { ok: false, message: rule.expected };
  }
  if (url.username || url.password || url.hash) return { ok: false, message: `Webhook 地址无效：${rule.expected}` };
  if (!rule.isEndpoint(url)) return { ok: false, message: rule.expected };
  return { ok: true, url: url.toString() };
}

/** The address with its credential (key, access token, hook id) cut to its first characters, for the settings screen. */
export function maskRobotWebhookUrl(stored: string): string {
  try {
    const url = new URL(stored);
    const cut = (value: string) => (value.length > 6 ? `${value.slice(0, 4)}…` : '…');
    for (const name of ['key', 'access_token']) {
      const value = url.searchParams.get(name);
      if (value) url.searchParams.set(name, cut(value));
    }
    const parts = url.pathname.split('/');
    if (url.pathname.includes('/bot/v2/hook/')) parts[parts.length - 1] = cut(parts[parts.length - 1] ?? '');
    return decodeURIComponent(`${url.origin}${parts.join('/')}${url.search}`);
  } catch {
    return '…';
  }
}

/** What a push says, in any platform's format. */
export interface RobotDigest {
  title: string;
  /** One line above the items (e.g. the count). */
  intro: string;
  items: { title: string; url: string; reason: string; summary?: string | null | undefined; label?: string }[];
  /** A closing link (the site's recommendations page). */
  footer?: { text: string; url: string } | undefined;
}

/** WeCom's markdown content is at most 4096 bytes; DingTalk and Feishu take more, kept alike for one reading. */
const MAX_MARKDOWN_BYTES = 4000;
const MAX_SUMMARY_CHARS = 160;

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** Link text must not close the markdown link early. */
const mdText = (text: string) => text.replace(/[[\]]/g, (c) => (c === '[' ? '【' : '】')).replace(/\s+/g, ' ');

function markdownOf(digest: RobotDigest, heading: '##' | '####'): string {
  const head = `${heading} ${digest.title}\n${digest.intro}\n`;
  const foot = digest.footer ? `\n[${mdText(digest.footer.text)}](${digest.footer.url})` : '';
  const blocks: string[] = [];
  let size = Buffer.byteLength(head + foot);
  for (const [index, item] of digest.items.entries()) {
    const label = item.label ? `【${item.label}】` : '';
    const title = item.url ? `[${mdText(item.title)}](${item.url})` : mdText(item.title);
    const lines = [`**${index + 1}. ${label}${title}**`, `> ${mdText(item.reason)}`];
    if (item.summary) lines.push(`> ${mdText(shorten(item.summary, MAX_SUMMARY_CHARS))}`);
    const block = `\n${lines.join('\n')}\n`;
    if (size + Buffer.byteLength(block) > MAX_MARKDOWN_BYTES) break;
    size += Buffer.byteLength(block);
    blocks.push(block);
  }
  return head + blocks.join('') + foot;
}

/** Feishu's rich text ("post"): paragraphs of text and link elements. */
function feishuPostOf(digest: RobotDigest) {
  const paragraphs: ({ tag: 'text'; text: string } | { tag: 'a'; text: string; href: string })[][] = [
    [{ tag: 'text', text: digest.intro }],
  ];
  for (const [index, item] of digest.items.entries()) {
    const label = item.label ? `【${item.label}】` : '';
    paragraphs.push([
      { tag: 'text', text: `${index + 1}. ${label}` },
      item.url ? { tag: 'a', text: item.title, href: item.url } : { tag: 'text', text: item.title },
    ]);
    paragraphs.push([{ tag: 'text', text: `推荐理由：${item.reason}` }]);
    if (item.summary) paragraphs.push([{ tag: 'text', text: `摘要：${shorten(item.summary, MAX_SUMMARY_CHARS)}` }]);
  }
  if (digest.footer) paragraphs.push([{ tag: 'a', text: digest.footer.text, href: digest.footer.url }]);
  return { post: { zh_cn: { title: digest.title, content: paragraphs } } };
}

/** Feishu: sign = base64(HMAC-SHA256(key = timestamp + "\n" + secret, message = "")), timestamp in seconds. */
export function feishuSignature(timestampSeconds: string, secret: string): string {
  return createHmac('sha256', `${timestampSeconds}\n${secret}`).update('').digest('base64');
}

/** DingTalk: sign = base64(HMAC-SHA256(key = secret, message = timestamp + "\n" + secret)), timestamp in ms (URL-encoded by the caller). */
function dingtalkSignature(timestampMs: string, secret: string): string {
  return createHmac('sha256', secret).update(`${timestampMs}\n${secret}`).digest('base64');
}

/** The request a push makes: where to, and the JSON body. */
function robotRequestOf(
  webhook: { platform: RobotPlatform; url: string; secret?: string | null | undefined },
  digest: RobotDigest,
  now: Date = new Date(),
): { url: string; body: Record<string, unknown> } {
  const secret = webhook.secret?.trim() || undefined;
  switch (webhook.platform) {
    case 'wecom':
      // WeCom group robots are not signed: the key in the address is the credential.
      return { url: webhook.url, body: { msgtype: 'markdown', markdown: { content: markdownOf(digest, '##') } } };
    case 'feishu': {
      const body: Record<string, unknown> = { msg_type: 'post', content: feishuPostOf(digest) };
      if (secret) {
        const timestamp = String(Math.floor(now.getTime() / 1000));
        body.timestamp = timestamp;
        body.sign = feishuSignature(timestamp, secret);
      }
      return { url: webhook.url, body };
    }
    case 'dingtalk': {
      const url = new URL(webhook.url);
      if (secret) {
        const timestamp = String(now.getTime());
        url.searchParams.set('timestamp', timestamp);
        url.searchParams.set('sign', dingtalkSignature(timestamp, secret));
      }
      return {
        url: url.toString(),
        body: { msgtype: 'markdown', markdown: { title: digest.title, text: markdownOf(digest, '####') } },
      };
    }
  }
}

/** A push the platform refused or that did not arrive; `message` is Chinese, for the reader. */
export class RobotWebhookError extends Error {
  constructor(
    message: string,
    /** The platform's own code, when it answered. */
    readonly platformCode?: number,
  ) {
    super(message);
    this.name = 'RobotWebhookError';
  }
}

const SEND_TIMEOUT_MS = 10_000;
/**
 * The most of a platform's answer read. Their answers are a small JSON object (`{"errcode":0,...}`);
 * an address that answers with more is not a robot, and reading all of it held the process's memory
 * (1.2 GB in one probe) and ran past the timeout.
 */
const MAX_ANSWER_BYTES = 64 * 1024;

const SEND_MESSAGES = {
  unreachable: '无法连接机器人地址，请检查网络或地址是否正确',
  timedOut: (seconds: number) => `机器人地址在 ${seconds} 秒内没有回答完毕，消息可能没有送达`,
  tooLarge: '机器人地址的回答过大（超过 64 KB），这不像机器人的回答，消息可能没有送达',
} as const;

/**
 * At most `maxBytes` of a body; `truncated` when there was more. The rest is never downloaded: the
 * stream is cancelled, which closes the connection.
 */
async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean }> {
  if (!body) return { text: '', truncated: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
      if (size > maxBytes) {
        truncated = true;
        break;
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return { text: Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8'), truncated };
}

/**
 * Posts a digest to a robot webhook. Resolves when the platform accepted it (errcode 0, Feishu code 0);
 * throws RobotWebhookError otherwise. Redirects are refused (the address was checked, where it leads
 * was not), and the address is never put in the error (it carries the credential). One deadline
 * (`timeoutMs`) covers connecting, the headers and the answer's body, of which at most MAX_ANSWER_BYTES
 * are read: a slow or endless answer ends the push with a failure, it cannot hold the process.
 */
export async function sendRobotDigest(
  webhook: { platform: RobotPlatform; url: string; secret?: string | null | undefined },
  digest: RobotDigest,
  options: { now?: Date; timeoutMs?: number } = {},
): Promise<void> {
  const request = robotRequestOf(webhook, digest, options.now);
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const failure = () =>
    new RobotWebhookError(
      deadline.aborted ? SEND_MESSAGES.timedOut(Math.max(1, Math.round(timeoutMs / 1000))) : SEND_MESSAGES.unreachable,
    );
  let status: number;
  let read: { text: string; truncated: boolean };
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(request.body),
      redirect: 'error',
      signal: deadline,
    });
    status = response.status;
    // The same signal errors the body's stream when the deadline passes while it is read.
    read = await readCapped(response.body, MAX_ANSWER_BYTES);
  } catch {
    throw failure();
  }
  if (read.truncated) throw new RobotWebhookError(SEND_MESSAGES.tooLarge);
  let answer: { errcode?: number; errmsg?: string; code?: number; msg?: string; StatusCode?: number } | undefined;
  try {
    answer = JSON.parse(read.text);
  } catch {
    answer = undefined;
  }
  const code = answer?.errcode ?? answer?.code ?? answer?.StatusCode;
  if (status >= 200 && status < 300 && code === 0) return;
  const said = answer?.errmsg ?? answer?.msg;
  throw new RobotWebhookError(
    said ? `机器人拒绝了消息：${shorten(said, 200)}` : `机器人没有接受消息（HTTP ${status}）`,
    typeof code === 'number' ? code : undefined,
  );
}
