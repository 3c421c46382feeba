import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { LanguageModel } from '@radar/ai';
import {
  ArticleRepository,
  createIngestRepositories,
  DeliveryRepository,
  type EmbeddingModelRow,
  EmbeddingRepository,
  FollowedAuthorRepository,
  NewsSearchRepository,
  OwnWorkRepository,
  PaperRepository,
  RecommendationDiagnosticsRepository,
  RecommendationRepository,
  StoredSecrets,
  sql,
  UserRepository,
  VectorRepository,
} from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { summarizePapers } from '@radar/ingest';
import { createMailer, feishuSignature, MAIL_LINK_PURPOSES, type Mailer, MailLinkTokens } from '@radar/mail';
import { SmtpSink } from '@radar/mail/testing';
import { RecommendationPipeline } from '@radar/recommend';
import { API_PATHS } from '@radar/shared';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryDeps, deliverDueDigests } from '../src';
import { publishedPreprintsOf } from '../src/jobs/delivery.job';

/**
 * The delivery job on a real database, mailing through a real SMTP server started here and pushing to a
 * local HTTP server that answers as Feishu's robot endpoint: at the reader's hour in their time zone,
 * once per slot, each item at most once per channel, with the reason and the LLM's Chinese summary.
 */

const WEB = 'http://radar.test';
const secret = randomBytes(32).toString('base64url');
const FEISHU_SECRET = 'feishu-signing-secret';
const HOUR = 3_600_000;

let database: TestDatabase;
let sink: SmtpSink;
let mailer: Mailer;
let robot: Server;
let robotUrl: string;
const pushes: { url: string; body: Record<string, unknown> }[] = [];
let model: EmbeddingModelRow;
let deps: DeliveryDeps;
let clock = new Date();
let alice: { id: string };
let berlin: { id: string };

const logger = pino({ level: 'silent' });
const chineseLlm: LanguageModel = {
  model: 'test-llm',
  generateText: async () => '本文用扩散模型预测蛋白质结构。',
  generateJson: async () => {
    throw new Error('not used');
  },
};

async function addPaper(title: string, vector: number[]) {
  const result = await database.db.execute<{ id: string }>(sql`
    INSERT INTO radar.papers (title, abstract, url, journal_name, source)
    VALUES (${title}, ${`${title}. An abstract.`}, ${`https://papers.example.org/${encodeURIComponent(title)}`},
            'Journal of Tests', 'test')
    RETURNING id::text AS id`);
  const id = String(result.rows[0]?.id);
  await new VectorRepository(database.db).setVectors('papers', model.id, [{ id, vector }]);
  return Number(id);
}

async function addNews(title: string, vector: number[]) {
  const result = await database.db.execute<{ id: string }>(sql`
    INSERT INTO radar.news_items (title, content, url, url_normalized, source)
    VALUES (${title}, 'Content.', ${`https://news.example.org/${encodeURIComponent(title)}`},
            ${`news.example.org/${encodeURIComponent(title)}`}, 'test')
    RETURNING id::text AS id`);
  const id = String(result.rows[0]?.id);
  await new VectorRepository(database.db).setVectors('news', model.id, [{ id, vector }]);
  return Number(id);
}

async function makeReader(email: string) {
  const users = new UserRepository(database.db);
  const user = await users.create({
    email,
    isEmailVerified: true,
    passwordHash: 'argon2id-hash',
    researchSummaryEn: 'Protein structure prediction with diffusion models.',
  });
  await new VectorRepository(database.db).setUserVector(user.id, model.id, [1, 0, 0]);
  return user;
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

beforeAll(async () => {
  database = await createTestDatabase();
  sink = await new SmtpSink().start();
  mailer = createMailer({
    smtpUrl: sink.url,
    from: '科研雷达 <digest@radar.test>',
    outboxDir: path.join(os.tmpdir(), 'unused-outbox'),
  });
  robot = createServer(async (request, response) => {
    pushes.push({ url: request.url ?? '', body: JSON.parse(await readBody(request)) });
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ code: 0, msg: 'success', data: {} }));
  });
  await new Promise<void>((resolve) => robot.listen(0, '127.0.0.1', resolve));
  robotUrl = `http://127.0.0.1:${(robot.address() as AddressInfo).port}/open-apis/bot/v2/hook/test-hook-id`;

  const embeddings = new EmbeddingRepository(database.db);
  model = await embeddings.registerModel({ provider: 'test', name: 'axes', version: '1', dimension: 3 });
  await embeddings.activateModel(model.id);
  const deliveries = new DeliveryRepository(database.db, new StoredSecrets(secret));
  deps = {
    deliveries,
    users: new UserRepository(database.db),
    pipelineFor: (timeZone) =>
      new RecommendationPipeline({
        embeddings: { termWeighting: async () => undefined },
        recommendations: new RecommendationRepository(database.db),
        papers: new PaperRepository(database.db),
        news: new NewsSearchRepository(database.db),
        diagnostics: new RecommendationDiagnosticsRepository(database.db),
        contentSources: { setupOf: async () => ({ state: 'unreadable' }) },
        profileVector: async (user) => ({ model, vector: user.profileEmbedding ?? [] }),
        requestRelearn: async () => {},
        logger,
        timeZone,
      }),
    mail: { mailer, webBaseUrl: () => WEB, linkSecret: secret },
    summarizePapers: async (ids) => {
      await summarizePapers(createIngestRepositories(database.db), chineseLlm, { ids }, { language: 'zh', logger });
    },
    // As the worker wires it: the reader's favourited or saved preprints published since the last digest.
    publishedPreprints: publishedPreprintsOf(new ArticleRepository(database.db)),
    logger,
    now: () => clock,
  };

  alice = await makeReader('alice@example.org');
  berlin = await makeReader('berlin@example.org');
  const allDates = { threshold: 0.3, excluded_jcr: [], date_filter: ['不限'] };
  await deliveries.saveSchedule(alice.id, {
    frequency: 'daily',
    weekday: 1,
    hour: 8,
    timeZone: 'Asia/Shanghai',
    emailEnabled: true,
    paperFilters: allDates,
    newsFilters: { threshold: 0.3, date_filter: ['不限'] },
  });
  await deliveries.saveWebhook(alice.id, { platform: 'feishu', url: robotUrl, secret: FEISHU_SECRET });
  // Sealed at rest (the push below is signed with the secret as pasted, so it opens again).
  const stored = await database.db.execute<{ webhook_url: string; webhook_secret: string }>(
    sql`SELECT webhook_url, webhook_secret FROM radar.delivery_settings WHERE user_id = ${alice.id}::uuid`,
  );
  expect(stored.rows[0]?.webhook_url).toMatch(/^enc:v1:/);
  expect(JSON.stringify(stored.rows[0])).not.toContain('test-hook-id');
  expect(JSON.stringify(stored.rows[0])).not.toContain(FEISHU_SECRET);
  await deliveries.saveSchedule(berlin.id, {
    frequency: 'daily',
    weekday: 1,
    hour: 8,
    timeZone: 'Europe/Berlin',
    emailEnabled: true,
    paperFilters: allDates,
  });
  // A webhook saved before addresses were sealed: still read (and sealed when first read).
  await database.db.execute(
    sql`UPDATE radar.delivery_settings SET webhook_platform = 'feishu',
          webhook_url = ${robotUrl.replace('test-hook-id', 'berlin-hook-id')}, webhook_secret = NULL
        WHERE user_id = ${berlin.id}::uuid`,
  );
  for (let index = 0; index < 12; index++) await addPaper(`Protein diffusion paper ${index}`, [1, 0.01 * index, 0]);
  await addPaper('Coral reef ecology', [0, 0, 1]);
  // Alice's own work, the closest of all to her profile: never delivered back to her.
  const own = await addPaper('Protein diffusion paper Alice wrote', [1, 0, 0]);
  await new OwnWorkRepository(database.db).markAuthored(alice.id, [own]);
  await addNews('Diffusion models at the institute', [0.95, 0.3, 0]);
});

afterAll(async () => {
  mailer?.close();
  await sink?.stop();
  await new Promise((resolve) => robot?.close(resolve));
  await database?.close();
});

/** Midnight UTC two days from now: 08:00 in Shanghai (UTC+8 all year), after the schedules were saved. */
const shanghaiEight = () => {
  const day = new Date();
  day.setUTCHours(0, 0, 0, 0);
  return new Date(day.getTime() + 2 * 24 * HOUR);
};

describe('digest delivery', () => {
  it("sends nothing before the reader's hour in their time zone", async () => {
    clock = new Date(shanghaiEight().getTime() - 0.5 * HOUR); // 07:30 in Shanghai
    const result = await deliverDueDigests(deps);
    expect(result).toMatchObject({ readers: 0, mailed: 0, pushed: 0 });
    expect(sink.messages).toHaveLength(0);
  });

  it('mails and pushes the top recommendations at that hour, with reasons and the Chinese summary', async () => {
    clock = new Date(shanghaiEight().getTime() + 5 * 60_000); // 08:05 in Shanghai, 01:05 in Berlin
    const result = await deliverDueDigests(deps);
    expect(result).toMatchObject({ readers: 1, mailed: 1, pushed: 1, failed: 0 });
    expect(sink.messages).toHaveLength(1);
    const mail = sink.messages[0];
    if (!mail) throw new Error('no mail');
    expect(mail.to).toEqual(['alice@example.org']);
    expect(mail.subject).toBe('科研雷达：今日推荐（10 篇论文、1 条资讯）');
    // The ten most similar papers, not the unrelated one; the news item; reasons and summaries.
    expect(mail.text).toContain('Protein diffusion paper 0');
    expect(mail.text).not.toContain('Coral reef');
    expect(mail.text).not.toContain('Alice wrote');
    expect(mail.text).toContain('Diffusion models at the institute');
    expect(mail.text).toMatch(/推荐理由：\S+/);
    expect(mail.text).toContain('AI 摘要：本文用扩散模型预测蛋白质结构。');
    expect(mail.html).toContain('AI 摘要：本文用扩散模型预测蛋白质结构。');
    // One-click unsubscribe: the header pair, and a link whose token names the reader.
    expect(mail.headers?.['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const link = /<(.+)>/.exec(mail.headers?.['list-unsubscribe'] ?? '')?.[1] ?? '';
    expect(link.startsWith(`${WEB}${API_PATHS.deliveryUnsubscribe}?token=`)).toBe(true);
    const token = new URL(link).searchParams.get('token') ?? '';
    expect(new MailLinkTokens(secret).verify(MAIL_LINK_PURPOSES.digestUnsubscribe, token)).toBe(alice.id);

    // Feishu: a signed "post" message to the pasted address.
    expect(pushes).toHaveLength(1);
    const push = pushes[0];
    expect(push?.url).toBe('/open-apis/bot/v2/hook/test-hook-id');
    const body = push?.body as {
      msg_type: string;
      timestamp: string;
      sign: string;
      content: { post: { zh_cn: { title: string; content: { tag: string; text: string }[][] } } };
    };
    expect(body.msg_type).toBe('post');
    expect(body.content.post.zh_cn.title).toBe('科研雷达今日推荐');
    expect(Math.abs(Number(body.timestamp) - Date.now() / 1000)).toBeLessThan(3600);
    expect(body.sign).toBe(feishuSignature(body.timestamp, FEISHU_SECRET));
    const texts = body.content.post.zh_cn.content.flat().map((element) => element.text);
    expect(texts).toContain('Protein diffusion paper 0');
    expect(texts).not.toContain('Protein diffusion paper Alice wrote');
    expect(texts.some((text) => text.startsWith('推荐理由：'))).toBe(true);
  });

  it('sends nothing more for the same slot, and only new items at the next one', async () => {
    clock = new Date(shanghaiEight().getTime() + 50 * 60_000);
    expect(await deliverDueDigests(deps)).toMatchObject({ readers: 0, mailed: 0, pushed: 0 });
    expect(sink.messages).toHaveLength(1);

    // The next day: the two papers left over and a new one, never one mailed before.
    const fresh = await addPaper('Protein diffusion paper, new today', [1, 0.2, 0]);
    clock = new Date(shanghaiEight().getTime() + 24 * HOUR + 5 * 60_000);
    expect(await deliverDueDigests(deps)).toMatchObject({ readers: 1, mailed: 1, pushed: 1 });
    const second = sink.messages[1];
    expect(second?.subject).toBe('科研雷达：今日推荐（3 篇论文）');
    expect(second?.text).toContain('Protein diffusion paper, new today');
    expect(second?.text).not.toContain('Protein diffusion paper 0\n');
    const delivered = await database.db.execute<{ channel: string; n: number }>(
      sql`SELECT channel, count(*)::int AS n FROM radar.delivered_items WHERE user_id = ${alice.id} GROUP BY channel ORDER BY channel`,
    );
    expect(delivered.rows).toEqual([
      { channel: 'email', n: 14 },
      { channel: 'webhook', n: 14 },
    ]);
    expect(fresh).toBeGreaterThan(0);
  });

  it('reaches the Berlin reader at 08:00 Berlin time, a different instant, and her webhook saved in clear before sealing', async () => {
    // 08:00 in Berlin in winter is 07:00 UTC (UTC+1); in summer 06:00 UTC. Either way a run at 08:05
    // local finds her due, and the Shanghai reader not.
    const berlinEight = new Date(
      `${shanghaiEight().toISOString().slice(0, 10)}T08:00:00${offsetOf('Europe/Berlin', shanghaiEight())}`,
    );
    clock = new Date(berlinEight.getTime() + 5 * 60_000);
    const before = sink.messages.length;
    const pushedBefore = pushes.length;
    expect(await deliverDueDigests(deps)).toMatchObject({ readers: 1, mailed: 1, pushed: 1 });
    expect(sink.messages.slice(before).map((mail) => mail.to[0])).toEqual(['berlin@example.org']);
    // Her webhook stored in clear was pushed to, and is sealed now.
    expect(pushes.slice(pushedBefore).map((push) => push.url)).toEqual(['/open-apis/bot/v2/hook/berlin-hook-id']);
    const stored = await database.db.execute<{ webhook_url: string }>(
      sql`SELECT webhook_url FROM radar.delivery_settings WHERE user_id = ${berlin.id}::uuid`,
    );
    expect(stored.rows[0]?.webhook_url).toMatch(/^enc:v1:/);
    // Under another server secret (JWT_SECRET changed) it cannot be opened: read as no address, never pushed.
    const otherKey = new DeliveryRepository(database.db, new StoredSecrets('another server secret, 32+ chars long'));
    expect(await otherKey.findSettings(berlin.id)).toMatchObject({ webhookPlatform: 'feishu', webhookUrl: null });
    expect((await deps.deliveries.findSettings(berlin.id))?.webhookUrl).toContain('berlin-hook-id');
  });

  it("names a favourited preprint whose journal version arrived since the reader's last digest", async () => {
    const preprint = await addPaper('A preprint on coral genomics', [0, 0, 1]);
    const dayThree = new Date(shanghaiEight().getTime() + 48 * HOUR);
    await database.db.execute(
      sql`INSERT INTO radar.user_article_states (user_id, paper_id, is_favorited) VALUES (${alice.id}::uuid, ${preprint}, true)`,
    );
    await database.db.execute(sql`
      UPDATE radar.papers SET journal_version_at = ${new Date(dayThree.getTime() - HOUR).toISOString()}::timestamptz,
        journal_name = 'Coral Reefs', doi = '10.1007/coral-1' WHERE id = ${preprint}`);
    clock = new Date(dayThree.getTime() + 5 * 60_000);
    const before = sink.messages.length;
    expect(await deliverDueDigests(deps)).toMatchObject({ mailed: 1 });
    const mail = sink.messages.slice(before).find((message) => message.to[0] === 'alice@example.org');
    expect(mail?.text).toContain('【你收藏的预印本已正式发表】');
    expect(mail?.text).toContain('- A preprint on coral genomics（Coral Reefs）\n  https://doi.org/10.1007/coral-1');
    // Told once: the next day's digest does not name it again.
    clock = new Date(dayThree.getTime() + 24 * HOUR + 5 * 60_000);
    const later = sink.messages.length;
    await deliverDueDigests(deps);
    for (const message of sink.messages.slice(later))
      expect(message.text).not.toContain('coral genomics（Coral Reefs）');
  });

  it("puts a followed author's new paper first, however far from the profile, with who wrote it, once", async () => {
    const coral = await addPaper('Coral spawning under heat stress', [0, 0.1, 1]);
    await database.db.execute(
      sql`UPDATE radar.papers SET authors = '["Mei Lin", "Ada Okafor"]'::jsonb WHERE id = ${coral}`,
    );
    const earlier = await addPaper('Reef survey methods', [0, 0.2, 1]);
    await database.db.execute(
      sql`UPDATE radar.papers SET authors = '["Ada Okafor", "Mei Lin"]'::jsonb WHERE id = ${earlier}`,
    );
    // The same name with nobody and nothing in common with the paper she was followed from: a namesake.
    const namesake = await addPaper('Volcanic ash chemistry', [0, 0.15, 1]);
    await database.db.execute(
      sql`UPDATE radar.papers SET authors = '["Ada Okafor", "Tom Berg"]'::jsonb WHERE id = ${namesake}`,
    );
    await new FollowedAuthorRepository(database.db).create(alice.id, { name: 'Ada Okafor', paperId: earlier }, 50);

    const dayFive = new Date(shanghaiEight().getTime() + 4 * 24 * HOUR + 5 * 60_000);
    clock = dayFive;
    const before = sink.messages.length;
    const pushedBefore = pushes.length;
    await deliverDueDigests(deps);
    const mail = sink.messages.slice(before).find((message) => message.to[0] === 'alice@example.org');
    const text = mail?.text ?? '';
    // Both of her papers, ahead of every recommendation, each with the followed name as the paper gives it.
    expect(text).toContain('Coral spawning under heat stress');
    expect(text).toContain('Reef survey methods');
    // Matched by name, with a co-author in common with the paper followed from; the namesake never comes.
    expect(text).toContain('推荐理由：关注的作者：Ada Okafor（按姓名匹配，与关注时的论文有共同作者）');
    expect(text).not.toContain('Volcanic ash chemistry');
    const firstRecommendation = text.indexOf('Protein diffusion');
    if (firstRecommendation >= 0) expect(text.indexOf('Coral spawning')).toBeLessThan(firstRecommendation);
    const push = pushes.slice(pushedBefore).find((entry) => entry.url.endsWith('test-hook-id'));
    expect(JSON.stringify(push?.body)).toContain('关注的作者：Ada Okafor');

    // The next day neither comes again.
    clock = new Date(dayFive.getTime() + 24 * HOUR);
    const later = sink.messages.length;
    await deliverDueDigests(deps);
    for (const message of sink.messages.slice(later)) expect(message.text).not.toContain('Ada Okafor');
  });
});

describe('readers in one batch', () => {
  it('get the same digests as the same readers delivered one at a time', async () => {
    // Five profiles; each reader has a twin with the same vector. The first of each pair is due at 08:00
    // in Shanghai (one run takes them all in one batch), the twin at 09:00, 10:00, ... (one per run).
    const profiles = [
      [1, 0, 0],
      [0.9, 0.2, 0],
      [0.6, 0.6, 0.1],
      [0, 0.1, 1],
      [0.95, 0.3, 0],
    ];
    const deliveries = new DeliveryRepository(database.db, new StoredSecrets(secret));
    const schedule = (hour: number) => ({
      frequency: 'daily' as const,
      weekday: 1,
      hour,
      timeZone: 'Asia/Shanghai',
      emailEnabled: true,
      paperFilters: { threshold: 0.3, excluded_jcr: [], date_filter: ['不限'] },
      newsFilters: { threshold: 0.3, date_filter: ['不限'] },
    });
    const pairs = [];
    for (const [index, vector] of profiles.entries()) {
      const batched = await makeReader(`batched-${index}@example.org`);
      const single = await makeReader(`single-${index}@example.org`);
      for (const reader of [batched, single]) {
        await new VectorRepository(database.db).setUserVector(reader.id, model.id, vector);
      }
      await deliveries.saveSchedule(batched.id, schedule(8));
      await deliveries.saveSchedule(single.id, schedule(9 + index));
      pairs.push({ batched, single });
    }

    const dayTen = shanghaiEight().getTime() + 8 * 24 * HOUR;
    const before = sink.messages.length;
    clock = new Date(dayTen + 5 * 60_000);
    const batch = await deliverDueDigests(deps);
    // The five, and Alice (due at 08:00 in Shanghai too).
    expect(batch).toMatchObject({ readers: 6, failed: 0 });
    for (const index of profiles.keys()) {
      clock = new Date(dayTen + (1 + index) * HOUR + 5 * 60_000);
      expect(await deliverDueDigests(deps)).toMatchObject({ readers: 1, mailed: 1, failed: 0 });
    }

    // The same mail but for the address and the unsubscribe token.
    const sent = sink.messages.slice(before);
    const digestOf = (address: string) => {
      const mails = sent.filter((mail) => mail.to.includes(address));
      expect(mails).toHaveLength(1);
      const mail = mails[0];
      const anonymous = (text: string) => text.replaceAll(address, '<reader>').replace(/token=[^\s"'&<>]+/g, 'token=');
      return { subject: mail?.subject, text: anonymous(mail?.text ?? ''), html: anonymous(mail?.html ?? '') };
    };
    for (const { batched, single } of pairs) {
      const digest = digestOf(batched.email);
      expect(digest.text).toMatch(/推荐理由：/);
      expect(digest).toEqual(digestOf(single.email));
    }
  });
});

/** The zone's UTC offset on that day, as "+01:00". */
function offsetOf(timeZone: string, day: Date): string {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(day)
      .find((part) => part.type === 'timeZoneName')?.value ?? 'GMT+00:00';
  const offset = name.replace('GMT', '');
  return offset === '' ? '+00:00' : offset;
}
