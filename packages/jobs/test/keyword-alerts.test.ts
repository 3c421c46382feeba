import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { followedKeywordEnglish, type TermWeighting, termCounts, vocabularyWeighting } from '@radar/ai';
import {
  EmbeddingRepository,
  FollowedAuthorRepository,
  KeywordRepository,
  NewsSearchRepository,
  OwnWorkRepository,
  PaperRepository,
  RecommendationDiagnosticsRepository,
  RecommendationRepository,
  sql,
  UserRepository,
  VectorRepository,
} from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { testQueueConnection, waitForJobState } from '@radar/jobs/testing';
import { createMailer, MAIL_LINK_PURPOSES, type Mailer, MailLinkTokens } from '@radar/mail';
import { type ReceivedMail, SmtpSink } from '@radar/mail/testing';
import { createRecommendationPipelines } from '@radar/recommend';
import { API_PATHS, QUEUE_NAMES } from '@radar/shared';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AppQueue,
  type AppWorker,
  createKeywordAlertsProcessor,
  createQueue,
  createWorker,
  type KeywordAlertMailSettings,
  type KeywordAlertRunResult,
} from '../src';
import { keywordAlertMail } from '../src/jobs/keyword-alert-mail';

/**
 * The keyword-alert job on a real database, mailing through a real SMTP server started here: one
 * digest per user, each paper at most once across runs and concurrent workers, negative terms,
 * daily and weekly frequencies, failed sends retried, and nothing for users who cannot get mail.
 * Each paper says why it is listed: its keyword, and the terms it shares with the research summary.
 */

const WEB = 'http://radar.test';
const secret = randomBytes(32).toString('base64url');

let database: TestDatabase;
let sink: SmtpSink;
let mailer: Mailer;
let settings: KeywordAlertMailSettings;
let keywords: KeywordRepository;
let users: UserRepository;
let run: () => Promise<KeywordAlertRunResult>;
let modelId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  sink = await new SmtpSink().start();
  mailer = createMailer({
    smtpUrl: sink.url,
    from: '科研雷达 <alerts@radar.test>',
    outboxDir: path.join(os.tmpdir(), 'unused-outbox'),
  });
  settings = { mailer, webBaseUrl: () => WEB, linkSecret: secret };
  keywords = new KeywordRepository(database.db);
  users = new UserRepository(database.db);
  const processor = createKeywordAlertsProcessor({ keywords, mail: settings, logger: pino({ level: 'silent' }) });
  run = () => processor({ data: {} });
  modelId = (
    await new EmbeddingRepository(database.db).registerModel({
      provider: 'test',
      name: 'axes',
      version: '1',
      dimension: 3,
    })
  ).id;
});

afterAll(async () => {
  mailer?.close();
  await sink?.stop();
  await database?.close();
});

// ---- fixtures -------------------------------------------------------------------------------------

async function makeUser(
  email: string,
  options: { verified?: boolean; password?: boolean; vector?: number[]; summary?: string } = {},
) {
  const user = await users.create({
    email,
    isEmailVerified: options.verified ?? true,
    passwordHash: options.password === false ? null : 'argon2id-hash',
    researchSummaryEn: options.summary ?? '',
  });
  if (options.vector) await new VectorRepository(database.db).setUserVector(user.id, modelId, options.vector);
  return user;
}

async function follow(
  userId: string,
  name: string,
  settings: { enabled?: boolean; frequency?: 'daily' | 'weekly'; negative?: string[] } = {},
) {
  const result = await keywords.create(userId, name, 50);
  if (!('created' in result)) throw new Error(`keyword ${name} not created`);
  const row = await keywords.updateOwned(result.created.id, userId, {
    alertEnabled: settings.enabled ?? true,
    alertFrequency: settings.frequency ?? 'daily',
    negativeTerms: settings.negative ?? [],
  });
  if (!row) throw new Error('keyword not updated');
  return row;
}

let paperCount = 0;
async function addPaper(title: string, options: { abstract?: string; createdAgo?: string; vector?: number[] } = {}) {
  paperCount++;
  const result = await database.db.execute<{ id: string }>(sql`
    INSERT INTO radar.papers (title, abstract, url, journal_name, source, created_at)
    VALUES (${title}, ${options.abstract ?? ''}, ${`https://papers.example.org/${paperCount}`}, 'Journal of Tests', 'test',
            now() - ${options.createdAgo ?? '0 seconds'}::interval)
    RETURNING id::text AS id`);
  const id = String(result.rows[0]?.id);
  if (options.vector) {
    await new VectorRepository(database.db).setVectors('papers', modelId, [{ id, vector: options.vector }]);
  }
  return id;
}

const setLastAlerted = (userId: string, ago: string) =>
  database.db.execute(
    sql`UPDATE radar.user_keywords SET last_alerted_at = now() - ${ago}::interval WHERE user_id = ${userId}`,
  );

/** The job with the reader's learned order, as the worker wires it (the test model made active). */
async function orderedProcessor(deps: { followedAuthors?: FollowedAuthorRepository } = {}) {
  const embeddingModels = new EmbeddingRepository(database.db);
  await embeddingModels.activateModel(modelId);
  const model = await embeddingModels.getActiveModel();
  if (!model) throw new Error('model missing');
  // The pipeline as the worker builds it (createRecommendationPipelines), its parts on this database.
  const pipeline = createRecommendationPipelines({
    embeddings: { termWeighting: async () => undefined },
    recommendations: new RecommendationRepository(database.db),
    papers: new PaperRepository(database.db),
    news: new NewsSearchRepository(database.db),
    diagnostics: new RecommendationDiagnosticsRepository(database.db),
    contentSources: { setupOf: async () => ({ state: 'unreadable' }) },
    profile: {
      embeddings: { activeModel: async () => model, isCurrent: () => true, embedProfile: async () => ({}) as never },
      users,
      error: (problem) => new Error(problem),
    },
    requestRelearn: async () => {},
    logger: pino({ level: 'silent' }),
  })('UTC');
  return createKeywordAlertsProcessor({
    keywords,
    mail: settings,
    logger: pino({ level: 'silent' }),
    users,
    ranking: (user) => pipeline.alertRanking(user),
    ...deps,
  });
}

/** A paper with its authors: a plain name, or an identity (OpenAlex id, affiliation) as sources give them. */
async function addPaperBy(
  title: string,
  authors: (string | { name: string; openalexId?: string; affiliation?: string })[],
  vector?: number[],
) {
  const id = await addPaper(title, { vector });
  const names = authors.map((author) => (typeof author === 'string' ? author : author.name));
  const identities = authors.some((author) => typeof author !== 'string')
    ? authors.map((author) => (typeof author === 'string' ? { name: author } : author))
    : null;
  await database.db.execute(sql`
    UPDATE radar.papers SET authors = ${JSON.stringify(names)}::jsonb,
           author_identities = ${identities ? JSON.stringify(identities) : null}::jsonb
    WHERE id = ${id}`);
  return id;
}

/** Titles listed in a digest, in order (the lines "1. ..." of the text part). */
const listedTitles = (mail: ReceivedMail) => [...mail.text.matchAll(/^\d+\. (.+)$/gm)].map((match) => match[1]);

/** The reason lines of a digest ("与研究方向共有：a、b"), by listed title. */
const sharedTermLines = (mail: ReceivedMail) =>
  Object.fromEntries(
    [...mail.text.matchAll(/^\d+\. (.+)\n {3}匹配关键词：.+\n(?: {3}与研究方向共有：(.+)\n)?/gm)].map((match) => [
      match[1],
      match[2]?.split('、') ?? [],
    ]),
  );

/** Each named term is written in the paper, and its words and word pairs are terms of the summary. */
function expectSharedTerms(terms: string[], summary: string, paperText: string) {
  const summaryTerms = termCounts(summary);
  for (const term of terms) {
    expect(paperText.toLowerCase()).toContain(term.toLowerCase());
    for (const part of termCounts(term).keys()) expect(summaryTerms.has(part), `${term}: ${part}`).toBe(true);
  }
}

const unsubscribeLink = (mail: ReceivedMail) => {
  const match = /退订：(\S+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no unsubscribe link in: ${mail.text}`);
  return new URL(match[1]);
};

// ---- tests ----------------------------------------------------------------------------------------

describe('keyword alerts', () => {
  let alice: Awaited<ReturnType<typeof makeUser>>;
  let bob: Awaited<ReturnType<typeof makeUser>>;

  const aliceSummary =
    'I develop diffusion models for protein structure prediction, protein language models, and graph neural ' +
    'networks with equivariant message passing for drug discovery.';
  const papers = {
    molecules: {
      title: 'Graph Neural Networks for Molecule Generation',
      abstract:
        'We train graph neural networks with equivariant message passing to generate molecules for drug discovery.',
    },
    folding: {
      title: 'Protein folding with diffusion models',
      abstract: 'Diffusion models predict the protein structure from the sequence and improve protein folding.',
    },
    scaling: { title: 'Scaling protein language models', abstract: 'We revisit protein folding.' },
  };

  it('mails one digest per user with the new matching papers, ranked by profile similarity', async () => {
    alice = await makeUser('alice@example.org', { vector: [1, 0, 0], summary: aliceSummary });
    await follow(alice.id, 'graph neural network');
    await follow(alice.id, 'protein folding', { negative: ['survey'] });
    bob = await makeUser('bob@example.org');
    await follow(bob.id, 'quantum error correction');
    await follow(bob.id, '图神经网络');
    // Users who must get nothing: alerts off, unverified, a placeholder row without password.
    const carol = await makeUser('carol@example.org');
    await follow(carol.id, 'graph neural network', { enabled: false });
    const dave = await makeUser('dave@example.org', { verified: false });
    await follow(dave.id, 'graph neural network');
    const placeholder = await makeUser('placeholder@example.org', { verified: false, password: false });
    await follow(placeholder.id, 'graph neural network');

    await addPaper(papers.molecules.title, { abstract: papers.molecules.abstract, vector: [0, 1, 0] });
    await addPaper(papers.folding.title, { abstract: papers.folding.abstract, vector: [1, 0, 0] });
    await addPaper(papers.scaling.title, { abstract: papers.scaling.abstract, vector: [0.6, 0.8, 0] });
    await addPaper('A survey of protein folding methods', { vector: [1, 0, 0] });
    await addPaper('Graph neural network baselines revisited', { createdAgo: '10 days' });
    await addPaper('Surface codes for quantum error correction');
    await addPaper('基于图神经网络的分子性质预测');
    await addPaper('Unrelated: a study of coral reefs');

    const result = await run();
    expect(result).toMatchObject({ outcome: 'success', mailed: 2, papers: 5, failed: 0 });
    expect(sink.messages.flatMap((mail) => mail.to).sort()).toEqual(['alice@example.org', 'bob@example.org']);

    const [toAlice] = sink.mailsTo('alice@example.org');
    if (!toAlice) throw new Error('no mail to alice');
    expect(toAlice.subject).toBe('科研雷达：关键词提醒（3 篇新论文）');
    // Most similar to the profile first; the survey is excluded by its negative term, the old paper by age.
    expect(listedTitles(toAlice)).toEqual([
      'Protein folding with diffusion models',
      'Scaling protein language models',
      'Graph Neural Networks for Molecule Generation',
    ]);
    expect(toAlice.text).toContain('匹配关键词：graph neural network');
    expect(toAlice.text).toContain('匹配关键词：protein folding');
    expect(toAlice.text).toContain('按与你研究方向的相似度排序');
    expect(toAlice.html).toContain('href="https://papers.example.org/');
    expect(toAlice.html).toContain('Protein folding with diffusion models');
    // Why each paper is listed beyond its keyword: terms it shares with the research summary (not the keyword's own).
    const reasons = sharedTermLines(toAlice);
    expect(reasons).toEqual({
      [papers.folding.title]: ['protein structure', 'diffusion models'],
      [papers.scaling.title]: ['protein language models'],
      [papers.molecules.title]: ['equivariant message passing', 'drug discovery'],
    });
    for (const paper of Object.values(papers)) {
      expectSharedTerms(reasons[paper.title] ?? [], aliceSummary, `${paper.title}. ${paper.abstract}`);
    }
    expect(toAlice.html).toContain('与研究方向共有：equivariant message passing、drug discovery</div>');

    const [toBob] = sink.mailsTo('bob@example.org');
    if (!toBob) throw new Error('no mail to bob');
    expect(listedTitles(toBob).sort()).toEqual([
      'Surface codes for quantum error correction',
      '基于图神经网络的分子性质预测',
    ]);
    expect(toBob.text).toContain('匹配关键词：图神经网络');
    // Bob has no research summary: the keyword is the whole reason.
    expect(toBob.text).not.toContain('与研究方向共有');
    expect(toBob.html).not.toContain('与研究方向共有');

    // The unsubscribe link: the web app's address, a token for this user and purpose, also as RFC 8058 headers.
    const link = unsubscribeLink(toAlice);
    expect(`${link.origin}${link.pathname}`).toBe(`${WEB}${API_PATHS.keywordAlertUnsubscribe}`);
    const token = link.searchParams.get('token') ?? '';
    expect(new MailLinkTokens(secret).verify(MAIL_LINK_PURPOSES.keywordAlertUnsubscribe, token)).toBe(alice.id);
    expect(
      new MailLinkTokens('another secret entirely, 32+ chars').verify(
        MAIL_LINK_PURPOSES.keywordAlertUnsubscribe,
        token,
      ),
    ).toBeUndefined();
    expect(toAlice.headers?.['list-unsubscribe']).toBe(`<${link.toString()}>`);
    expect(toAlice.headers?.['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(unsubscribeLink(toBob).searchParams.get('token')).not.toBe(token);

    const recorded = await database.db.execute<{ email: string; count: number }>(sql`
      SELECT u.email, count(*)::int AS count FROM radar.keyword_alert_deliveries d JOIN radar.users u ON u.id = d.user_id
      GROUP BY u.email ORDER BY u.email`);
    expect(recorded.rows).toEqual([
      { email: 'alice@example.org', count: 3 },
      { email: 'bob@example.org', count: 2 },
    ]);
  });

  it('mails nothing more on a second run, or on two runs at once', async () => {
    const before = sink.messages.length;
    const results = await Promise.all([run(), run()]);
    expect(results.map((result) => result.mailed)).toEqual([0, 0]);
    expect(sink.messages.length).toBe(before);
  });

  it('sends a new paper when the daily alert is due again, never a paper twice, nor one the reader wrote', async () => {
    await addPaper('Equivariant graph neural networks', { vector: [1, 0, 0] });
    // Alice's own work (seeded from her ORCID record): matches her keyword, but she knows it.
    const own = await addPaper('Our graph neural network for enzymes', { vector: [1, 0, 0] });
    await new OwnWorkRepository(database.db).markAuthored(alice.id, [Number(own)]);
    // Not due yet: alice was alerted a moment ago.
    expect((await run()).mailed).toBe(0);

    // A day later the window reaches back past the first digest's papers; the deliveries keep them out.
    await setLastAlerted(alice.id, '24 hours');
    const result = await run();
    expect(result).toMatchObject({ mailed: 1, papers: 1 });
    const mails = sink.mailsTo('alice@example.org');
    expect(mails).toHaveLength(2);
    expect(listedTitles(mails[1] as ReceivedMail)).toEqual(['Equivariant graph neural networks']);
  });

  it('respects the weekly frequency', async () => {
    await database.db.execute(sql`UPDATE radar.user_keywords SET alert_frequency = 'weekly' WHERE user_id = ${bob.id}`);
    await addPaper('Decoders for quantum error correction');
    await setLastAlerted(bob.id, '2 days');
    expect((await run()).mailed).toBe(0);
    expect(sink.mailsTo('bob@example.org')).toHaveLength(1);

    await setLastAlerted(bob.id, '7 days');
    expect((await run()).mailed).toBe(1);
    const mails = sink.mailsTo('bob@example.org');
    expect(mails).toHaveLength(2);
    expect(listedTitles(mails[1] as ReceivedMail)).toEqual(['Decoders for quantum error correction']);
  });

  it('sends nothing once alerts are off (the unsubscribe link turns them off for every keyword)', async () => {
    expect(await keywords.disableAllAlerts(alice.id)).toBe(2);
    await addPaper('Graph neural network potentials for materials');
    await setLastAlerted(alice.id, '30 hours');
    expect((await run()).mailed).toBe(0);
    expect(sink.mailsTo('alice@example.org')).toHaveLength(2);
  });

  it('releases a digest whose mail could not be sent, so the next run sends it', async () => {
    const erin = await makeUser('erin@example.org');
    await follow(erin.id, 'federated learning');
    await addPaper('Federated learning with differential privacy');
    const brokenMailer = createMailer({
      // Nothing listens on port 9 (discard) here: the connection is refused at once.
      smtpUrl: 'smtp://127.0.0.1:9',
      from: 'alerts@radar.test',
      outboxDir: path.join(os.tmpdir(), 'unused-outbox'),
    });
    const broken = createKeywordAlertsProcessor({ keywords, mail: { ...settings, mailer: brokenMailer } });
    try {
      expect(await broken({ data: {} })).toMatchObject({ mailed: 0, failed: 1 });
    } finally {
      brokenMailer.close();
    }
    const state = await database.db.execute<{ last: string | null; deliveries: number }>(sql`
      SELECT (SELECT last_alerted_at::text FROM radar.user_keywords WHERE user_id = ${erin.id}) AS last,
             (SELECT count(*)::int FROM radar.keyword_alert_deliveries WHERE user_id = ${erin.id}) AS deliveries`);
    expect(state.rows[0]).toEqual({ last: null, deliveries: 0 });

    expect(await run()).toMatchObject({ mailed: 1, failed: 0 });
    expect(listedTitles((await sink.waitForMail('erin@example.org')) as ReceivedMail)).toEqual([
      'Federated learning with differential privacy',
    ]);
  });

  it("weighs the shared terms by the active model's idf when it has a vocabulary", async () => {
    const summary = 'Score-based samplers and diffusion models for protein design.';
    const ivan = await makeUser('ivan@example.org', { summary });
    await follow(ivan.id, 'protein design');
    const abstract = 'A score-based sampler built on diffusion models designs proteins.';
    await addPaper('Diffusion samplers for protein design', { abstract });
    // The fitted model knows 'scorebased' and 'sampler' but not 'diffusion' (too common in its corpus, say).
    const model: TermWeighting = vocabularyWeighting({
      terms: ['sampler', 'scorebased', 'scorebased sampler'],
      idf: Float32Array.from([3, 4, 5]),
    });
    const processor = createKeywordAlertsProcessor({
      keywords,
      mail: settings,
      embeddings: { termWeighting: async () => model },
    });
    expect(await processor({ data: {} })).toMatchObject({ mailed: 1 });
    const [mail] = sink.mailsTo('ivan@example.org');
    expect(sharedTermLines(mail as ReceivedMail)).toEqual({
      'Diffusion samplers for protein design': ['score-based sampler'],
    });
  });

  it('falls back to idf over the digest when the model weights cannot be read', async () => {
    const summary = 'Score-based samplers and diffusion models for protein docking.';
    const judy = await makeUser('judy@example.org', { summary });
    await follow(judy.id, 'protein docking');
    await addPaper('Diffusion models for protein docking', { abstract: 'Diffusion models dock proteins.' });
    const processor = createKeywordAlertsProcessor({
      keywords,
      mail: settings,
      logger: pino({ level: 'silent' }),
      embeddings: {
        termWeighting: async () => {
          throw new Error('embedder state unreadable');
        },
      },
    });
    expect(await processor({ data: {} })).toMatchObject({ mailed: 1, failed: 0 });
    const [mail] = sink.mailsTo('judy@example.org');
    expect(sharedTermLines(mail as ReceivedMail)).toEqual({
      'Diffusion models for protein docking': ['diffusion models'],
    });
  });

  it('escapes the shared terms in the HTML part', () => {
    const mail = keywordAlertMail({
      to: 'x@example.org',
      papers: [
        {
          id: 1,
          title: "The d'Alembert operator on lattices",
          abstract: '',
          url: 'https://papers.example.org/x',
          doi: null,
          journalName: '',
          publishedAt: null,
          keywordId: 1,
          keyword: 'lattice',
          similarity: null,
          sharedTerms: ["d'Alembert operator", 'wave equation'],
        },
      ],
      moreCount: 0,
      webBaseUrl: WEB,
      unsubscribeUrl: `${WEB}/unsubscribe`,
    });
    expect(mail.text).toContain("   与研究方向共有：d'Alembert operator、wave equation");
    expect(mail.html).toContain('与研究方向共有：d&#39;Alembert operator、wave equation');
  });

  it("lists a followed author's new papers first, each once, whether or not they match a keyword", async () => {
    const reader = await makeUser('follower@example.org');
    await follow(reader.id, 'zebrafish regeneration');
    const yu = { name: 'Hui Yu', openalexId: 'A5006580423', affiliation: 'University of Portsmouth' };
    const origin = await addPaperBy('Facial expression synthesis', [yu]);
    await addPaperBy('Zebrafish regeneration: a keyword match by someone else', ['Lena Fischer']);
    await addPaperBy('Zebrafish regeneration of the heart', ['Lena Fischer', yu]);
    // A namesake at another institution, and a paper older than the longest look-back: neither is listed.
    await addPaperBy('Soil microbes', [{ name: 'Hui Yu', affiliation: 'Zhejiang University, Hangzhou' }]);
    await database.db.execute(
      sql`UPDATE radar.papers SET created_at = now() - interval '30 days' WHERE id = ${origin}`,
    );
    const followed = await new FollowedAuthorRepository(database.db).create(
      reader.id,
      { ...yu, paperId: Number(origin) },
      50,
    );
    expect('created' in followed).toBe(true);
    await addPaperBy('Cardiac repair in adult fish', ['H. Yu', yu]);

    const withAuthors = createKeywordAlertsProcessor({
      keywords,
      followedAuthors: new FollowedAuthorRepository(database.db),
      mail: settings,
    });
    expect(await withAuthors({ data: {} })).toMatchObject({ mailed: 1, failed: 0 });
    const [first] = sink.mailsTo('follower@example.org');
    if (!first) throw new Error('no mail to the follower');
    expect(first.subject).toBe('科研雷达：关键词提醒（3 篇新论文）');
    // Newest first among the author's papers, then the keyword's; the shared paper once, under the author.
    expect(listedTitles(first)).toEqual([
      'Cardiac repair in adult fish',
      'Zebrafish regeneration of the heart',
      'Zebrafish regeneration: a keyword match by someone else',
    ]);
    expect(first.text).toContain('你关注的作者有 2 篇新论文');
    expect(first.text).toContain('关注的作者：Hui Yu');
    expect(first.html).toContain('关注的作者：Hui Yu');

    // The next digest lists only what is new since.
    await addPaperBy('Zebrafish fins, by the same author', [yu]);
    await setLastAlerted(reader.id, '25 hours');
    expect(await withAuthors({ data: {} })).toMatchObject({ mailed: 1 });
    const second = sink.mailsTo('follower@example.org')[1];
    if (!second) throw new Error('no second mail to the follower');
    expect(listedTitles(second)).toEqual(['Zebrafish fins, by the same author']);
  });

  it('skips the run without mail settings', async () => {
    const without = createKeywordAlertsProcessor({ keywords, mail: undefined });
    expect(await without({ data: {} })).toMatchObject({ outcome: 'skipped' });
  });
});

describe("in the reader's order, without what the reader may not be shown", () => {
  it('orders as /papers does (the field rule here) and leaves out judged papers and another reader’s upload', async () => {
    const processor = await orderedProcessor();
    const reader = await makeUser('ordered@example.org', { vector: [1, 0, 0], summary: 'Catalysis for chemistry.' });
    await database.db.execute(
      sql`UPDATE radar.users SET research_fields = '{chemistry}' WHERE id = ${reader.id}::uuid`,
    );
    const uploader = await makeUser('uploader@example.org');
    await follow(reader.id, 'zeolite catalyst');
    const fields = (id: string, field: string) =>
      database.db.execute(
        sql`UPDATE radar.papers SET research_fields = ARRAY[${field}]::text[] WHERE id = ${id}::bigint`,
      );
    // Nearest to the profile, but outside the reader's field: the field rule puts it below the in-field one.
    await fields(await addPaper('Zeolite catalyst in astrophysical dust', { vector: [1, 0, 0] }), 'physics-astronomy');
    await fields(await addPaper('Zeolite catalyst screening', { vector: [0.8, 0.6, 0] }), 'chemistry');
    const judged = {
      dismissed: await addPaper('Zeolite catalyst dismissed', { vector: [1, 0, 0] }),
      down: await addPaper('Zeolite catalyst rated down', { vector: [1, 0, 0] }),
      up: await addPaper('Zeolite catalyst rated up', { vector: [1, 0, 0] }),
    };
    await database.db.execute(sql`
      INSERT INTO radar.user_article_states (user_id, paper_id, dismissed_at, rating, rated_at)
      VALUES (${reader.id}::uuid, ${judged.dismissed}::bigint, now(), NULL, NULL),
             (${reader.id}::uuid, ${judged.down}::bigint, NULL, -1, now()),
             (${reader.id}::uuid, ${judged.up}::bigint, NULL, 1, now())`);
    const upload = await addPaper('Zeolite catalyst upload with a phishing link', { vector: [1, 0, 0] });
    await database.db.execute(
      sql`UPDATE radar.papers SET private_to = ${uploader.id}::uuid WHERE id = ${upload}::bigint`,
    );

    expect(await processor({ data: {} })).toMatchObject({ mailed: 1, papers: 2 });
    const [mail] = sink.mailsTo('ordered@example.org');
    expect(listedTitles(mail as ReceivedMail)).toEqual([
      'Zeolite catalyst screening',
      'Zeolite catalyst in astrophysical dust',
    ]);
  });
});

describe('a keyword followed in Chinese', () => {
  it('alerts the English papers its glossary English names, as search finds them, and the Chinese ones', async () => {
    const reader = await makeUser('chinese-keyword@example.org');
    const result = await keywords.create(reader.id, '肠道菌群', 50, followedKeywordEnglish('肠道菌群'));
    if (!('created' in result)) throw new Error('keyword not created');
    await keywords.updateOwned(result.created.id, reader.id, { alertEnabled: true, alertFrequency: 'daily' });
    await addPaper('The gut microbiome shapes intestinal immunity');
    await addPaper('肠道菌群调控宿主代谢');
    await addPaper('Gut barrier function after injury');

    expect(await run()).toMatchObject({ mailed: 1, papers: 2 });
    const [mail] = sink.mailsTo('chinese-keyword@example.org');
    expect(listedTitles(mail as ReceivedMail).sort()).toEqual([
      'The gut microbiome shapes intestinal immunity',
      '肠道菌群调控宿主代谢',
    ]);
    expect((mail as ReceivedMail).text).toContain('匹配关键词：肠道菌群');
  });
});

describe('through the queue, with two workers', () => {
  let queue: AppQueue<unknown>;
  const workers: AppWorker<unknown>[] = [];

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await queue?.obliterate({ force: true }).catch(() => {});
    await queue?.close();
  });

  it('mails each user once when two workers run the job at the same time', async () => {
    const connection = testQueueConnection(database);
    queue = createQueue<unknown>(connection, QUEUE_NAMES.keywordAlerts);
    for (let i = 0; i < 2; i++) {
      const processor = createKeywordAlertsProcessor({ keywords, mail: settings });
      workers.push(createWorker(connection, QUEUE_NAMES.keywordAlerts, processor) as AppWorker<unknown>);
    }
    const frank = await makeUser('frank@example.org');
    await follow(frank.id, 'sparse attention');
    const grace = await makeUser('grace@example.org');
    await follow(grace.id, 'sparse attention');
    await addPaper('Sparse attention for long documents');
    await addPaper('Sparse attention kernels on GPUs');

    const jobs = await Promise.all([queue.add('send', {}), queue.add('send', {})]);
    const done = await Promise.all(jobs.map((job) => waitForJobState(queue, String(job.id), 'completed')));
    const results = done.map((job) => job.returnvalue as KeywordAlertRunResult);
    expect(results.reduce((sum, result) => sum + result.mailed, 0)).toBe(2);
    for (const address of ['frank@example.org', 'grace@example.org']) {
      const mails = sink.mailsTo(address);
      expect(mails, address).toHaveLength(1);
      expect(listedTitles(mails[0] as ReceivedMail).sort()).toEqual([
        'Sparse attention for long documents',
        'Sparse attention kernels on GPUs',
      ]);
    }
  });
});

describe('readers in one batch', () => {
  it('get the same mails as the same readers alerted one at a time', async () => {
    const yu = { name: 'Mei Lin', openalexId: 'A5011122233', affiliation: 'University of Leeds' };
    const origin = await addPaperBy('Perovskite grain boundaries', [yu], [0.5, 0.5, 0.7]);
    await database.db.execute(
      sql`UPDATE radar.papers SET created_at = now() - interval '30 days' WHERE id = ${origin}`,
    );
    const dismissed = await addPaper('Perovskite solar cell stability outdoors', { vector: [0, 0, 1] });
    // Five readers, each with a twin (same profile, summary, keywords, judgements and follows): one run
    // takes the five in one batch, then each twin is alerted alone.
    const readers = [
      { vector: [1, 0, 0], summary: 'Perovskite solar cell efficiency.', keywords: [['perovskite solar cell', []]] },
      {
        vector: [0.6, 0.8, 0],
        summary: 'Tandem cells and perovskite passivation.',
        keywords: [
          ['perovskite solar cell', ['review']],
          ['tandem cell', []],
        ],
      },
      { vector: [0, 1, 0], summary: '', keywords: [['tandem cell', []]] },
      {
        vector: [0, 0, 1],
        summary: 'Stability of solar cells.',
        keywords: [['perovskite solar cell', []]],
        dismiss: true,
      },
      { vector: [0.5, 0.5, 0.7], summary: 'Grain boundaries.', keywords: [['perovskite', []]], follow: true },
    ] as const;
    const makeReader = async (email: string, reader: (typeof readers)[number]) => {
      const user = await makeUser(email, { vector: [...reader.vector], summary: reader.summary });
      for (const [name, negative] of reader.keywords) await follow(user.id, name, { negative: [...negative] });
      if ('dismiss' in reader) {
        await database.db.execute(sql`
          INSERT INTO radar.user_article_states (user_id, paper_id, dismissed_at) VALUES (${user.id}::uuid, ${dismissed}::bigint, now())`);
      }
      if ('follow' in reader) {
        const followed = await new FollowedAuthorRepository(database.db).create(
          user.id,
          { ...yu, paperId: Number(origin) },
          50,
        );
        expect('created' in followed).toBe(true);
      }
      return user;
    };
    const pairs = [];
    for (const [index, reader] of readers.entries()) {
      const batched = await makeReader(`batch-alert-${index}@example.org`, reader);
      const single = await makeReader(`single-alert-${index}@example.org`, reader);
      // The twins wait until the batch is done.
      await database.db.execute(sql`UPDATE radar.user_keywords SET alert_enabled = false WHERE user_id = ${single.id}`);
      pairs.push({ batched, single });
    }
    await addPaper('Perovskite solar cell passivation layers', { vector: [1, 0, 0] });
    await addPaper('Perovskite solar cell review of passivation', { vector: [0.6, 0.8, 0] });
    await addPaper('Monolithic tandem cell with a perovskite top cell', { vector: [0.7, 0.7, 0] });
    await addPaper('Tandem cell current matching', { vector: [0, 1, 0] });
    await addPaperBy('Perovskite grain growth by Lin', [yu], [0.5, 0.5, 0.7]);

    const processor = await orderedProcessor({ followedAuthors: new FollowedAuthorRepository(database.db) });
    const before = sink.messages.length;
    const { result: batch, texts } = await database.roundTrips.recordTexts(() => processor({ data: {} }));
    expect(batch).toMatchObject({ users: 5, mailed: 5, failed: 0 });
    // The five readers' keywords locked in one statement and their candidates found in one message.
    expect(texts.filter((text) => text.includes('FOR UPDATE OF k SKIP LOCKED'))).toHaveLength(1);
    const candidateMessages = texts.filter((text) => text.includes('WITH compiled AS MATERIALIZED'));
    expect(candidateMessages).toHaveLength(1);
    expect(candidateMessages[0]?.split('WITH compiled AS MATERIALIZED')).toHaveLength(1 + 5);
    for (const { single } of pairs) {
      await database.db.execute(sql`UPDATE radar.user_keywords SET alert_enabled = true WHERE user_id = ${single.id}`);
      expect(await processor({ data: {} })).toMatchObject({ users: 1, mailed: 1, failed: 0 });
    }

    // The same mail but for the address and the unsubscribe token.
    const sent = sink.messages.slice(before);
    const mailOf = (address: string) => {
      const mails = sent.filter((mail) => mail.to.includes(address));
      expect(mails, address).toHaveLength(1);
      const mail = mails[0];
      const anonymous = (text: string) => text.replaceAll(address, '<reader>').replace(/token=[^\s"'&<>]+/g, 'token=');
      return { subject: mail?.subject, text: anonymous(mail?.text ?? ''), html: anonymous(mail?.html ?? '') };
    };
    const listed = [];
    for (const { batched, single } of pairs) {
      const mail = mailOf(batched.email);
      expect(mail).toEqual(mailOf(single.email));
      listed.push(listedTitles(sent.find((entry) => entry.to.includes(batched.email)) as ReceivedMail));
    }
    // Each reader's own rules held in the batch: the negative term, the dismissed paper, the followed author first.
    expect(listed[1]).not.toContain('Perovskite solar cell review of passivation');
    expect(listed[0]).toContain('Perovskite solar cell review of passivation');
    expect(listed[3]).not.toContain('Perovskite solar cell stability outdoors');
    expect(listed[0]).toContain('Perovskite solar cell stability outdoors');
    expect(listed[4]?.[0]).toBe('Perovskite grain growth by Lin');
    expect(mailOf(pairs[4]?.batched.email ?? '').text).toContain('关注的作者：Mei Lin');
  });
});
