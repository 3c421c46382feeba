import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiError, type FakeOpenAiServer, startFakeOpenAi } from '@radar/ai/testing';
import { IngestPaperRepository, OwnWorkRepository, PaperRepository, sql, UserRepository } from '@radar/db';
import { type AppQueue, createQueue, createQueueConnection } from '@radar/jobs';
import { waitForJobState } from '@radar/jobs/testing';
import { type ReceivedMail, SmtpSink } from '@radar/mail/testing';
import {
  API_PATHS,
  articleSearchResponseSchema,
  calendarDayIn,
  DEFAULT_TIME_ZONE,
  deliveryFeedTokenResponseSchema,
  interestListResponseSchema,
  newsListResponseSchema,
  newsRecommendationResponseSchema,
  paperRecommendationResponseSchema,
  QUEUE_NAMES,
  type QueueName,
} from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/**
 * Issue 31, one rule for every channel: the rules of what a reader may be shown
 * (packages/db/src/repositories/reader-eligibility.ts) checked in every channel that shows papers or
 * news, through each channel's public entry point, on ONE shared fixture. Each channel's output is
 * computed once (beforeAll); each rule × channel is its own cell, generated from MATRIX below, where a
 * cell that does not apply says why. The matrix and the test names are in packages/recommend/README.md
 * ("Conformance matrix").
 *
 * Vectors are known: an embeddings server (OpenAI wire protocol, on 127.0.0.1) puts every text about
 * "tokamak" on one axis and moves an item's "#n" off it by 0.03·n, so every fixture item is ≥ 0.9
 * similar to the reader's summary (threshold 0.3) and published today: an item missing from a channel
 * is missing by a rule, never by the threshold or a window. The items the rules must hide are the
 * closest of all (#0), so a channel that fails to hide one shows it first, ahead of any limit.
 */

const DIMENSION = 8;
const TOPIC = 'tokamak';

/** "tokamak" → axis 0; "stellarator" (the second interest) leans towards axis 1; "#n" moves off by 0.03·n. */
function knownVector(text: string): number[] {
  const lower = text.toLowerCase();
  const vector = new Array<number>(DIMENSION).fill(0);
  if (!lower.includes(TOPIC)) {
    vector[7] = 1;
    return vector;
  }
  vector[0] = 1;
  if (lower.includes('stellarator')) vector[1] = 0.3;
  vector[3] = 0.03 * Number(/#(\d+)/.exec(text)?.[1] ?? 0);
  return vector;
}

// ---- the fixture's items -----------------------------------------------------------------------------

type Kind = 'paper' | 'news';
/** An item of the fixture; titles are unique and none is part of another (mail, feed and robot texts are searched). */
interface Item {
  kind: Kind;
  title: string;
  id: string;
}

const FOLLOWED = 'Hana Okafor';
const CONTROL_PAPERS = 8;
const CONTROL_NEWS = 7;
const code = (n: number) => `zq${String(n).padStart(2, '0')}`;
const paperTitle = (role: string, n: number, rank: number) => `Tokamak turbulence ${role} paper ${code(n)} #${rank}`;
const newsTitle = (role: string, n: number, rank: number) => `Tokamak institute ${role} news ${code(n)} #${rank}`;

const items = {
  paper: {
    /** Reader A's upload (papers.private_to = A): rule 1. */
    privateUpload: { kind: 'paper', title: paperTitle('uploaded', 1, 0), id: '' } as Item,
    dismissed: { kind: 'paper', title: paperTitle('dismissed', 2, 0), id: '' } as Item,
    disliked: { kind: 'paper', title: paperTitle('disliked', 3, 0), id: '' } as Item,
    liked: { kind: 'paper', title: paperTitle('liked', 4, 0), id: '' } as Item,
    /** Reader B's own work (user_article_states.authored_at): rule 6. */
    ownWork: { kind: 'paper', title: paperTitle('authored', 5, 0), id: '' } as Item,
    /** The record linked to the canonical one (papers.duplicate_of): rule 5. */
    duplicate: { kind: 'paper', title: paperTitle('preprint record', 6, 0), id: '' } as Item,
    canonical: { kind: 'paper', title: paperTitle('journal record', 7, 1), id: '' } as Item,
  },
  news: {
    dismissed: { kind: 'news', title: newsTitle('dismissed', 2, 0), id: '' } as Item,
    disliked: { kind: 'news', title: newsTitle('disliked', 3, 0), id: '' } as Item,
    liked: { kind: 'news', title: newsTitle('liked', 4, 0), id: '' } as Item,
  },
};
/** Public, unjudged items every channel of their kind must show: a cell never passes on an empty channel. */
const controlPapers: Item[] = Array.from({ length: CONTROL_PAPERS }, (_, i) => ({
  kind: 'paper',
  title: paperTitle('control', 10 + i, 2 + i),
  id: '',
}));
const controlNews: Item[] = Array.from({ length: CONTROL_NEWS }, (_, i) => ({
  kind: 'news',
  title: newsTitle('control', 10 + i, 2 + i),
  id: '',
}));
/** What reader B's recommending channels may list: the controls and the canonical record. */
const eligible = { paper: () => [...controlPapers, items.paper.canonical], news: () => controlNews };

// ---- channel outputs ---------------------------------------------------------------------------------

type Card = { id: string; title: string };

/** What one channel showed: item ids (JSON answers) or one text searched for titles (mail, feed, robot). */
class Listing {
  constructor(
    private readonly ids: ReadonlySet<string> | undefined,
    private readonly text: string,
  ) {}
  /** Cards of JSON answers, by kind (a paper and a news item may share an id). */
  static ofCards(cards: { paper?: Card[]; news?: Card[] }): Listing {
    const keyed = (['paper', 'news'] as const).flatMap((kind) =>
      (cards[kind] ?? []).map((card) => ({ key: `${kind}:${card.id}`, title: card.title })),
    );
    return new Listing(new Set(keyed.map((card) => card.key)), keyed.map((card) => card.title).join('\n'));
  }
  static ofText(text: string): Listing {
    return new Listing(undefined, text);
  }
  has(item: Item): boolean {
    return this.ids ? this.ids.has(`${item.kind}:${item.id}`) : this.text.includes(item.title);
  }
  get isEmpty(): boolean {
    return this.ids ? this.ids.size === 0 : this.text.trim() === '';
  }
  /** For failure messages: the titles it lists (a mail's other lines left out). */
  toString(): string {
    return this.text
      .split('\n')
      .filter((line) => line.includes('Tokamak'))
      .join('\n');
  }
}

interface Page {
  ids: string[];
  hasMore: boolean | undefined;
}

/** A channel's output: the default answer, and for the lists with paging the extra asks of rules 2-4 and 7. */
interface ChannelOutput {
  shown: Listing;
  /** The same ask with include_rated=true (rule 4). */
  withRated?: Listing;
  /** The same ask after the dismissals and 👎 were undone (rules 2, 3): computed last of all. */
  afterUndo?: Listing;
  /** top_k=5, then again with exclude_ids of what was shown, then again (rule 7). */
  pages?: [Page, Page, Page];
  /** Reader A's answer to the same search (rule 1: their own upload is theirs to find). */
  forUploader?: Listing;
}

const CHANNELS = {
  papers: { label: '/papers', kinds: ['paper'], search: false },
  news: { label: '/news', kinds: ['news'], search: false },
  interest: { label: 'interest slots', kinds: ['paper', 'news'], search: false },
  followedAuthors: { label: '关注的作者', kinds: ['paper'], search: false },
  keywordAlert: { label: 'keyword alert mail', kinds: ['paper'], search: false },
  digestMail: { label: 'digest mail', kinds: ['paper', 'news'], search: false },
  robot: { label: 'robot push', kinds: ['paper', 'news'], search: false },
  feed: { label: 'Atom feed', kinds: ['paper', 'news'], search: false },
  articleSearch: { label: 'article search', kinds: ['paper'], search: true },
  newsSearch: { label: 'news search', kinds: ['news'], search: true },
} as const satisfies Record<string, { label: string; kinds: readonly Kind[]; search: boolean }>;
type ChannelId = keyof typeof CHANNELS;

const RULES = {
  R1: "another reader's upload",
  R2: '不感兴趣',
  R3: '👎',
  R4: '👍',
  R5: 'linked duplicate',
  R6: 'own works',
  R7: 'paging',
} as const;
type RuleId = keyof typeof RULES;

/** 'rule': the channel applies the rule; 'finds': a search, which still finds what the reader judged. */
type Cell = 'rule' | 'finds' | { na: string };
const NO_PAGING = { na: 'no exclude_ids / has_more: one answer per ask (paging is a rule of /papers and /news)' };
const PAPERS_ONLY = { na: 'papers only: news items are never private, linked as duplicates, or authored' };

/**
 * Every rule × channel. The type makes a new rule or channel a compile error until each of its cells is
 * filled in here; the first test checks the same at run time.
 */
const MATRIX: Record<RuleId, Record<ChannelId, Cell>> = {
  R1: {
    papers: 'rule',
    news: PAPERS_ONLY,
    interest: 'rule',
    followedAuthors: 'rule',
    keywordAlert: 'rule',
    digestMail: 'rule',
    robot: 'rule',
    feed: 'rule',
    articleSearch: 'rule',
    newsSearch: PAPERS_ONLY,
  },
  R2: {
    papers: 'rule',
    news: 'rule',
    interest: 'rule',
    followedAuthors: 'rule',
    keywordAlert: 'rule',
    digestMail: 'rule',
    robot: 'rule',
    feed: 'rule',
    articleSearch: 'finds',
    newsSearch: 'finds',
  },
  R3: {
    papers: 'rule',
    news: 'rule',
    interest: 'rule',
    followedAuthors: 'rule',
    keywordAlert: 'rule',
    digestMail: 'rule',
    robot: 'rule',
    feed: 'rule',
    articleSearch: 'finds',
    newsSearch: 'finds',
  },
  R4: {
    papers: 'rule',
    news: 'rule',
    interest: 'rule',
    followedAuthors: 'rule',
    keywordAlert: 'rule',
    digestMail: 'rule',
    robot: 'rule',
    feed: 'rule',
    articleSearch: 'finds',
    newsSearch: 'finds',
  },
  R5: {
    papers: 'rule',
    news: PAPERS_ONLY,
    interest: 'rule',
    followedAuthors: 'rule',
    keywordAlert: 'rule',
    digestMail: 'rule',
    robot: 'rule',
    feed: 'rule',
    articleSearch: 'rule',
    newsSearch: PAPERS_ONLY,
  },
  R6: {
    papers: 'rule',
    news: PAPERS_ONLY,
    interest: 'rule',
    followedAuthors: 'rule',
    keywordAlert: 'rule',
    digestMail: 'rule',
    robot: 'rule',
    feed: 'rule',
    articleSearch: 'finds',
    newsSearch: PAPERS_ONLY,
  },
  R7: {
    papers: 'rule',
    news: 'rule',
    interest: { na: 'served within /papers and /news, whose paging R7 × /papers and R7 × /news check' },
    followedAuthors: { na: 'a section of /papers (at most 10, newest first), not paged' },
    keywordAlert: NO_PAGING,
    digestMail: NO_PAGING,
    robot: NO_PAGING,
    feed: NO_PAGING,
    articleSearch: {
      na: 'paged by page / page_size, its own contract (server/src/features/articles/articles.test.ts)',
    },
    newsSearch: { na: 'paged by page / page_size, its own contract (server/src/features/news-search/news.test.ts)' },
  },
};

// ---- the shared fixture ------------------------------------------------------------------------------

let fake: FakeOpenAiServer;
let sink: SmtpSink;
let robot: Server;
let robotOrigin: string;
const robotBodies: string[] = [];
let runtime: TestRuntime;
const outputs = {} as Record<ChannelId, ChannelOutput>;
let interestId = '';
type Headers = Record<string, string>;

const READER_A = 'uploader@example.org';
const READER_B = 'subject@example.org';
const SUMMARY = 'Tokamak plasma turbulence and transport.';
const ALL_DATES = encodeURIComponent('不限');

async function call(
  headers: Headers,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  const response = await runtime.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  expect(response.statusCode, `${method} ${url}: ${response.body.slice(0, 300)}`).toBeLessThan(300);
  return response;
}

async function reader(email: string) {
  const user = await new UserRepository(runtime.database.db).create({
    email,
    isEmailVerified: true,
    passwordHash: 'argon2id-hash',
    researchSummaryEn: SUMMARY,
  });
  return { user, headers: { authorization: `Bearer ${await runtime.app.signIn(user)}` } as Headers };
}

function queueOf(name: QueueName): AppQueue<unknown> {
  return createQueue<unknown>(
    createQueueConnection({
      redisUrl: runtime.parts.config.redisUrl,
      postgres: runtime.database.connectionConfig,
      prefix: runtime.queuePrefix,
    }),
    name,
  );
}

/** One run of a job by the runtime's own in-process worker (its mailer, secret and repositories). */
async function runJob(name: QueueName): Promise<unknown> {
  const queue = queueOf(name);
  try {
    const job = await queue.add('conformance', {});
    return (await waitForJobState(queue, String(job.id), 'completed')).returnvalue;
  } finally {
    await queue.close();
  }
}

async function untilIdle(name: QueueName): Promise<void> {
  const queue = queueOf(name);
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const counts = await queue.getJobCounts('waiting', 'active', 'prioritized');
      if (Object.values(counts).every((count) => !count)) return;
      if (Date.now() > deadline) throw new Error(`${name} did not settle: ${JSON.stringify(counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await queue.close();
  }
}

async function mailTo(address: string, subject: RegExp): Promise<ReceivedMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = sink.mailsTo(address).find((received) => subject.test(received.subject));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function buildFixture() {
  const today = calendarDayIn(new Date(), DEFAULT_TIME_ZONE);
  const uploader = await reader(READER_A);
  const subject = await reader(READER_B);
  const b = subject.headers;

  // Papers as sources store them (search_vector by the database). The followed author wrote the items
  // the rules are about and the first control: 9 papers, within the section's 10.
  const followedAuthorWrote = (item: Item) => !controlPapers.includes(item) || item === controlPapers[0];
  const paper = (item: Item, extra: Record<string, unknown> = {}) => ({
    title: item.title,
    authors: followedAuthorWrote(item) ? [FOLLOWED, 'Lars Berg'] : ['Lars Berg'],
    abstract: `We measure tokamak turbulence and edge transport (${item.title}).`,
    journalName: 'Nuclear Fusion',
    url: `https://papers.example.org/${encodeURIComponent(item.title)}`,
    publishedAt: today,
    source: 'test',
    ...extra,
  });
  const duplicateKey = 'tokamak turbulence duplicate pair|okafor';
  const all = [
    ...Object.values(items.paper).filter((item) => item !== items.paper.duplicate && item !== items.paper.canonical),
    ...controlPapers,
  ];
  const stored = await new PaperRepository(runtime.database.db).insertMany([
    ...all.map((item) =>
      paper(item, item === items.paper.privateUpload ? { source: 'own-works', privateTo: uploader.user.id } : {}),
    ),
    paper(items.paper.duplicate, {
      titleAuthorKey: duplicateKey,
      arxivId: '2611.31031',
      journalName: 'arXiv',
    }),
    paper(items.paper.canonical, { titleAuthorKey: duplicateKey, doi: '10.1088/conformance.31' }),
  ]);
  for (const row of stored) {
    const item = [...Object.values(items.paper), ...controlPapers].find((candidate) => candidate.title === row.title);
    if (item) item.id = String(row.id);
  }
  const canonicalId = await new IngestPaperRepository(runtime.database.db).linkDuplicates(duplicateKey);
  expect(String(canonicalId), 'the journal record is the canonical one').toBe(items.paper.canonical.id);
  const linked = await runtime.database.db.execute<{ duplicate_of: string | null }>(
    sql`SELECT duplicate_of::text AS duplicate_of FROM radar.papers WHERE id = ${items.paper.duplicate.id}`,
  );
  expect(linked.rows[0]?.duplicate_of).toBe(items.paper.canonical.id);
  // As an own-works import records them: A's upload, B's own (public) work.
  const ownWorks = new OwnWorkRepository(runtime.database.db);
  await ownWorks.markAuthored(uploader.user.id, [Number(items.paper.privateUpload.id)]);
  await ownWorks.markAuthored(subject.user.id, [Number(items.paper.ownWork.id)]);

  for (const item of [...Object.values(items.news), ...controlNews]) {
    const url = `https://news.example.org/${encodeURIComponent(item.title)}`;
    const result = await runtime.database.db.execute<{ id: string }>(sql`
      INSERT INTO radar.news_items (title, content, url, url_normalized, source, publish_date)
      VALUES (${item.title}, ${`The institute reports tokamak results (${item.title}).`}, ${url},
              ${url.replace('https://', '')}, 'test', now())
      RETURNING id::text AS id`);
    item.id = String(result.rows[0]?.id);
  }
  // Every paper, news item and profile on the embeddings server's known vectors.
  await runtime.parts.ai.embeddings.reembedStale();

  // B's judgements, each through its endpoint.
  await call(b, 'POST', `/articles/${items.paper.dismissed.id}/not-interested/`);
  await call(b, 'POST', `/api/news/${items.news.dismissed.id}/not-interested/`);
  await call(b, 'POST', `/articles/${items.paper.disliked.id}/rating/`, { value: -1 });
  await call(b, 'POST', `/api/news/${items.news.disliked.id}/rating/`, { value: -1 });
  await call(b, 'POST', `/articles/${items.paper.liked.id}/rating/`, { value: 1 });
  await call(b, 'POST', `/api/news/${items.news.liked.id}/rating/`, { value: 1 });

  // A keyword matching every item, with alerts; the author of every fixture paper, followed; a second interest.
  const keyword = (await call(b, 'POST', API_PATHS.addKeyword, { keyword: TOPIC })).json().keyword as { id: string };
  await call(b, 'PATCH', `/user-keywords/${keyword.id}/update/`, { alert_enabled: true });
  await call(b, 'POST', API_PATHS.followedAuthors, { paper_id: controlPapers[0]?.id, author_index: 0 });
  // The interest draws first (quota 10 against the summary's 1), so it picks from its own candidates
  // before the summary takes any of them: its slots show what its own search let through.
  const interest = await call(b, 'POST', API_PATHS.interests, {
    name: '仿星器',
    description: 'Stellarator and tokamak confinement.',
    quota: 10,
  });
  await call(b, 'PATCH', '/api/auth/interests/summary/', { quota: 1 });
  const interests = interestListResponseSchema.parse(interest.json()).interests;
  interestId = String(interests.find((entry) => entry.name === '仿星器')?.id);

  // Digest mail and robot push due now (daily at this UTC hour, set before today's slot), and a feed.
  await call(b, 'PUT', API_PATHS.deliverySettings, {
    frequency: 'daily',
    weekday: 1,
    hour: new Date().getUTCHours(),
    time_zone: 'UTC',
    email_enabled: true,
    paper_filters: { threshold: 0.3, excluded_jcr: [], date_filter: ['不限'] },
    news_filters: { threshold: 0.3, date_filter: ['不限'] },
  });
  await call(b, 'PUT', API_PATHS.deliveryWebhook, {
    platform: 'dingtalk',
    url: `${robotOrigin}/robot/send?access_token=conformance`,
  });
  await runtime.database.db.execute(
    sql`UPDATE radar.delivery_settings SET schedule_set_at = now() - interval '2 days' WHERE user_id = ${subject.user.id}::uuid`,
  );
  const feedUrl = new URL(
    deliveryFeedTokenResponseSchema.parse((await call(b, 'POST', API_PATHS.deliveryFeedToken)).json()).feed_url,
  );
  return { uploader, subject, feedUrl };
}

async function computeOutputs(fixture: Awaited<ReturnType<typeof buildFixture>>) {
  const b = fixture.subject.headers;
  const papersAsk = async (query: string) =>
    paperRecommendationResponseSchema.parse(
      (await call(b, 'GET', `${API_PATHS.paperRecommendations}?excluded_jcr=&date_filter=${ALL_DATES}${query}`)).json(),
    );
  const newsAsk = async (query: string) =>
    newsRecommendationResponseSchema.parse(
      (await call(b, 'GET', `${API_PATHS.newsRecommendations}?date_filter=${ALL_DATES}${query}`)).json(),
    );
  const pagesOf = async (ask: (query: string) => Promise<{ cards: Card[]; hasMore: boolean | undefined }>) => {
    const pages: Page[] = [];
    const shown: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { cards, hasMore } = await ask(`&top_k=5${shown.length ? `&exclude_ids=${shown.join(',')}` : ''}`);
      pages.push({ ids: cards.map((card) => card.id), hasMore });
      shown.push(...cards.map((card) => card.id));
    }
    return pages as [Page, Page, Page];
  };

  // /papers (with its section 关注的作者 and the interest's slots) and /news: the next requests after the judgements.
  const papers = await papersAsk('');
  const news = await newsAsk('');
  outputs.papers = {
    shown: Listing.ofCards({ paper: papers.recommendations }),
    withRated: Listing.ofCards({ paper: (await papersAsk('&include_rated=true')).recommendations }),
    pages: await pagesOf(async (query) => {
      const answer = await papersAsk(query);
      return { cards: answer.recommendations, hasMore: answer.has_more };
    }),
  };
  outputs.news = {
    shown: Listing.ofCards({ news: news.data }),
    withRated: Listing.ofCards({ news: (await newsAsk('&include_rated=true')).data }),
    pages: await pagesOf(async (query) => {
      const answer = await newsAsk(query);
      return { cards: answer.data, hasMore: answer.has_more };
    }),
  };
  outputs.followedAuthors = { shown: Listing.ofCards({ paper: papers.followed_author_papers ?? [] }) };
  const servedForInterest = (card: { interest?: { id: string } | undefined }) => card.interest?.id === interestId;
  outputs.interest = {
    shown: Listing.ofCards({
      paper: papers.recommendations.filter(servedForInterest),
      news: news.data.filter(servedForInterest),
    }),
  };

  // The worker's jobs, each run once by the in-process worker: keyword alerts, then the digest (mail and robot).
  await runJob(QUEUE_NAMES.keywordAlerts);
  outputs.keywordAlert = { shown: Listing.ofText((await mailTo(READER_B, /关键词提醒/)).text) };
  await runJob(QUEUE_NAMES.delivery);
  outputs.digestMail = { shown: Listing.ofText((await mailTo(READER_B, /推荐/)).text) };
  outputs.robot = { shown: Listing.ofText(robotBodies.join('\n')) };

  // The Atom feed, read without login by its secret address.
  const feed = await runtime.app.inject({ method: 'GET', url: fixture.feedUrl.pathname });
  expect(feed.statusCode).toBe(200);
  const feedTitles = [...feed.body.matchAll(/<title[^>]*>([^<]*)<\/title>/g)].map((match) => match[1]);
  outputs.feed = { shown: Listing.ofText(feedTitles.join('\n')) };

  // Search: article search for both readers, news search by keyword.
  const articleSearch = async (headers: Headers) => {
    const answer = await call(headers, 'GET', `${API_PATHS.articleSearch}?q=${TOPIC}&page_size=100`);
    return Listing.ofCards({ paper: articleSearchResponseSchema.parse(answer.json()).results });
  };
  outputs.articleSearch = { shown: await articleSearch(b), forUploader: await articleSearch(fixture.uploader.headers) };
  const newsSearch = await call(b, 'POST', API_PATHS.newsSearch, {
    query: TOPIC,
    search_type: 'keyword',
    page_size: 100,
  });
  outputs.newsSearch = { shown: Listing.ofCards({ news: newsListResponseSchema.parse(newsSearch.json()).data }) };

  // Last of all (it changes the judgements): undo 不感兴趣 and 👎, and ask /papers and /news again.
  await call(b, 'DELETE', `/articles/${items.paper.dismissed.id}/not-interested/`);
  await call(b, 'DELETE', `/api/news/${items.news.dismissed.id}/not-interested/`);
  await call(b, 'POST', `/articles/${items.paper.disliked.id}/rating/`, { value: 0 });
  await call(b, 'POST', `/api/news/${items.news.disliked.id}/rating/`, { value: 0 });
  outputs.papers.afterUndo = Listing.ofCards({ paper: (await papersAsk('')).recommendations });
  outputs.news.afterUndo = Listing.ofCards({ news: (await newsAsk('')).data });
}

beforeAll(async () => {
  fake = await startFakeOpenAi({ embeddingDimension: DIMENSION });
  fake.embeddingOf = (text) => knownVector(text);
  fake.defaultChat = () => apiError(503, 'no LLM in this test');
  sink = await new SmtpSink().start();
  robot = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      robotBodies.push(Buffer.concat(chunks).toString('utf8'));
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ errcode: 0, errmsg: 'ok' }));
    });
  });
  await new Promise<void>((resolve) => robot.listen(0, '127.0.0.1', resolve));
  robotOrigin = `http://127.0.0.1:${(robot.address() as AddressInfo).port}`;
  runtime = await startTestRuntime({
    env: {
      SMTP_URL: sink.url,
      WEBHOOK_TEST_ORIGIN: robotOrigin,
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'sk-test',
      EMBEDDING_MODEL: 'fake-embed',
      EMBEDDING_DIM: String(DIMENSION),
    },
  });
  // The worker's start-up embedding maintenance ends before the fixture's rows are written.
  await untilIdle(QUEUE_NAMES.embeddings);
  await computeOutputs(await buildFixture());
}, 120_000);

afterAll(async () => {
  await runtime?.stop();
  await sink?.stop();
  await fake?.close();
  await new Promise((resolve) => robot?.close(resolve));
});

// ---- the cells ---------------------------------------------------------------------------------------

/** The items a judgement rule is about, of the kinds the channel lists. */
const judged = (rule: 'R2' | 'R3' | 'R4', kinds: readonly Kind[]): Item[] => {
  const role = rule === 'R2' ? 'dismissed' : rule === 'R3' ? 'disliked' : 'liked';
  return kinds.map((kind) => items[kind][role]);
};

/** The channel is working: it shows the public unjudged control items of each kind it lists. */
function expectControls(channel: ChannelId, output: ChannelOutput) {
  if (channel === 'interest') {
    expect(output.shown.isEmpty, 'the second interest serves no slot').toBe(false);
    return;
  }
  for (const kind of CHANNELS[channel].kinds) {
    const control = kind === 'paper' ? controlPapers[0] : controlNews[0];
    if (control) expect(output.shown.has(control), `${control.title} in:\n${output.shown}`).toBe(true);
  }
}

const expectHidden = (listing: Listing, item: Item) =>
  expect(listing.has(item), `${item.title} must not be in:\n${listing}`).toBe(false);
const expectShown = (listing: Listing, item: Item) =>
  expect(listing.has(item), `${item.title} must be in:\n${listing}`).toBe(true);

function checkCell(rule: RuleId, channel: ChannelId, cell: 'rule' | 'finds') {
  const output = outputs[channel];
  const { kinds } = CHANNELS[channel];
  expectControls(channel, output);
  if (cell === 'finds') {
    // Search applies rules 1 and 5 only: the reader still finds what they judged or wrote.
    const subjects = rule === 'R6' ? [items.paper.ownWork] : judged(rule as 'R2' | 'R3' | 'R4', kinds);
    for (const item of subjects) expectShown(output.shown, item);
    return;
  }
  switch (rule) {
    case 'R1':
      expectHidden(output.shown, items.paper.privateUpload);
      if (output.forUploader) expectShown(output.forUploader, items.paper.privateUpload);
      return;
    case 'R2':
    case 'R3':
    case 'R4':
      for (const item of judged(rule, kinds)) {
        expectHidden(output.shown, item);
        // Undone, 不感兴趣 and 👎 items come back; 👍 ones come back with include_rated=true.
        if (rule !== 'R4' && output.afterUndo) expectShown(output.afterUndo, item);
        if (rule === 'R4' && output.withRated) expectShown(output.withRated, item);
      }
      return;
    case 'R5':
      expectHidden(output.shown, items.paper.duplicate);
      // The canonical record is listed (the interest's slots may serve it under the summary instead).
      if (channel !== 'interest') expectShown(output.shown, items.paper.canonical);
      return;
    case 'R6':
      expectHidden(output.shown, items.paper.ownWork);
      return;
    case 'R7': {
      const [first, second, third] = output.pages ?? [];
      if (!first || !second || !third) throw new Error(`${channel} has no pages`);
      const kind = kinds[0] as Kind;
      const everyEligible = eligible[kind]();
      expect(first.ids).toHaveLength(5);
      expect(first.hasMore, 'more eligible items follow the first page').toBe(true);
      for (const id of first.ids) expect(second.ids, 'exclude_ids leaves out the shown ids').not.toContain(id);
      for (const id of [...first.ids, ...second.ids]) expect(third.ids).not.toContain(id);
      expect(second.hasMore, 'has_more says whether a further page has items').toBe(third.ids.length > 0);
      const reached = new Set([...first.ids, ...second.ids, ...third.ids]);
      for (const item of everyEligible) expect(reached.has(item.id), `${item.title} reached by paging`).toBe(true);
      return;
    }
  }
}

describe('one rule, every channel (issue 31)', () => {
  it('the matrix names a cell for every rule × channel', () => {
    for (const rule of Object.keys(RULES) as RuleId[]) {
      for (const channel of Object.keys(CHANNELS) as ChannelId[]) {
        const cell = MATRIX[rule]?.[channel];
        expect(cell, `${rule} × ${channel}`).toBeDefined();
        if (cell && typeof cell === 'object')
          expect(cell.na.length, `${rule} × ${channel}: a reason`).toBeGreaterThan(0);
        if (cell === 'finds') expect(CHANNELS[channel].search, `${rule} × ${channel}: finds is for search`).toBe(true);
        // A cell that applies is about an item of a kind the channel lists (rules 1, 5 and 6 are about papers).
        const kinds: readonly Kind[] = CHANNELS[channel].kinds;
        if (cell !== undefined && typeof cell !== 'object' && ['R1', 'R5', 'R6'].includes(rule))
          expect(kinds, `${rule} × ${channel}`).toContain('paper');
      }
    }
  });

  for (const rule of Object.keys(RULES) as RuleId[]) {
    for (const channel of Object.keys(CHANNELS) as ChannelId[]) {
      const cell = MATRIX[rule][channel];
      const name = `${rule} × ${CHANNELS[channel].label}`;
      // An n/a cell is no test: the first test requires its reason, and the README's matrix shows it.
      if (typeof cell !== 'object') {
        it(`${name}${cell === 'finds' ? ' (search still finds it)' : ''}`, () => checkCell(rule, channel, cell));
      }
    }
  }
});
