import {
  type EmbeddingModelRow,
  EmbeddingRepository,
  FollowedAuthorRepository,
  KeywordRepository,
  NewsSearchRepository,
  PaperRepository,
  RecommendationDiagnosticsRepository,
  RecommendationRepository,
  sql,
  UserRepository,
  type UserRow,
  VectorRepository,
} from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectDigestItems, keywordAlertReasons, RecommendationPipeline } from '../src';
import { PIPELINE_OPTIONS } from '../src/pipeline';

/**
 * The pipeline on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): paper and news
 * recommendations end to end, and the one keyword rule (a keyword's phrase and none of its negative
 * terms, matched by the database) that decides both which papers a keyword alert lists and which keyword
 * a recommendation's reason names.
 */

let database: TestDatabase;
let model: EmbeddingModelRow;
let reader: UserRow;
let pipeline: RecommendationPipeline;
let relearnRequests: string[];
const ids: Record<string, number> = {};

const SUMMARY = 'Protein design with diffusion models and structure prediction.';

async function addPaper(key: string, title: string, abstract: string, vector: number[]) {
  const result = await database.db.execute<{ id: string }>(sql`
    INSERT INTO radar.papers (title, abstract, url, journal_name, source)
    VALUES (${title}, ${abstract}, ${`https://papers.example.org/${key}`}, 'Journal of Tests', 'test')
    RETURNING id::text AS id`);
  const id = String(result.rows[0]?.id);
  await new VectorRepository(database.db).setVectors('papers', model.id, [{ id, vector }]);
  ids[key] = Number(id);
}

async function addNews(key: string, title: string, content: string, vector: number[]) {
  const result = await database.db.execute<{ id: string }>(sql`
    INSERT INTO radar.news_items (title, content, url, url_normalized, source)
    VALUES (${title}, ${content}, ${`https://news.example.org/${key}`}, ${`news.example.org/${key}`}, 'test')
    RETURNING id::text AS id`);
  const id = String(result.rows[0]?.id);
  await new VectorRepository(database.db).setVectors('news', model.id, [{ id, vector }]);
  ids[key] = Number(id);
}

beforeAll(async () => {
  database = await createTestDatabase();
  const embeddings = new EmbeddingRepository(database.db);
  model = await embeddings.registerModel({ provider: 'test', name: 'axes', version: '1', dimension: 3 });
  await embeddings.activateModel(model.id);
  const users = new UserRepository(database.db);
  const created = await users.create({
    email: 'reader@example.org',
    isEmailVerified: true,
    passwordHash: 'argon2id-hash',
    researchSummaryEn: SUMMARY,
  });
  await new VectorRepository(database.db).setUserVector(created.id, model.id, [1, 0, 0]);
  reader = (await users.findById(created.id)) as UserRow;

  const keywords = new KeywordRepository(database.db);
  for (const [name, negativeTerms] of [
    ['protein', ['graph neural network']],
    ['diffusion', []],
  ] as const) {
    const result = await keywords.create(reader.id, name, 50);
    if (!('created' in result)) throw new Error(`keyword ${name} not created`);
    await keywords.updateOwned(result.created.id, reader.id, {
      alertEnabled: true,
      alertFrequency: 'daily',
      negativeTerms: [...negativeTerms],
    });
  }

  // Most similar first: gnn (0.99), folding (0.95), structure (0.9), paragraph (0.8), rocks (0.1).
  await addPaper(
    'gnn',
    'Protein design with graph neural networks',
    'Graph neural networks design proteins.',
    [0.99, 0.14, 0],
  );
  await addPaper(
    'folding',
    'Protein folding with diffusion models',
    'Diffusion models fold proteins.',
    [0.95, 0.31, 0],
  );
  await addPaper('structure', 'Protein structure prediction', 'Predicting the structure of proteins.', [0.9, 0.43, 0]);
  await addPaper(
    'paragraph',
    'Paragraph parsing for documents',
    'Parsing paragraphs of long documents.',
    [0.8, 0.6, 0],
  );
  await addPaper('rocks', 'Sediment transport in rivers', 'Rivers move sediment.', [0.1, 0, 0.99]);
  await addNews(
    'news-gnn',
    'Graph neural network designs a protein',
    'A lab used a graph neural network.',
    [0.97, 0.24, 0],
  );
  await addNews('news-diffusion', 'Diffusion models in the lab', 'Protein diffusion models at work.', [0.93, 0.37, 0]);

  relearnRequests = [];
  pipeline = new RecommendationPipeline({
    embeddings: { termWeighting: async () => undefined },
    recommendations: new RecommendationRepository(database.db),
    papers: new PaperRepository(database.db),
    news: new NewsSearchRepository(database.db),
    diagnostics: new RecommendationDiagnosticsRepository(database.db),
    contentSources: { setupOf: async () => ({ state: 'unreadable' }) },
    // The research summary's stored vector (the server computes a missing one, or answers an error).
    profileVector: async (user) => ({ model, vector: user.profileEmbedding ?? [] }),
    requestRelearn: async (userId) => {
      relearnRequests.push(userId);
    },
    logger: pino({ level: 'silent' }),
    timeZone: 'Asia/Shanghai',
  });
});

afterAll(async () => {
  await database?.close();
});

describe('paper recommendations', () => {
  it('rank by similarity to the summary, cut at the threshold, and say why', async () => {
    const result = await pipeline.recommendPapers(reader, {
      topK: 10,
      threshold: 0.5,
      dateFilter: [],
      excludedTiers: [],
    });
    expect(result.items.map((item) => item.id)).toEqual([ids.gnn, ids.folding, ids.structure, ids.paragraph]);
    expect(result.filteredOut.byThreshold).toBe(1);
    expect(result.learning).toEqual({ applied: false, signal_count: 0, classifier: false });
    expect(result.emptyExplanation).toBeNull();
    const reasonOf = (key: string) => result.items.find((item) => item.id === ids[key])?.reason;
    // 'protein' is in the title, but so is its negative term: the keyword is not named (as its alert
    // would not list the paper); the terms it shares with the summary are.
    expect(reasonOf('gnn')).toMatchObject({ kind: 'terms' });
    expect(reasonOf('gnn')?.terms.map((term) => term.toLowerCase())).toContain('protein design');
    expect(reasonOf('structure')).toMatchObject({ kind: 'keyword', terms: expect.arrayContaining(['protein']) });
    expect(reasonOf('structure')?.text).toMatch(/^匹配你的关键词「protein」/);
    expect(reasonOf('folding')?.kind).toBe('keyword');
    // Whole words only, as the search index has them: 'paragraph' is not 'graph', nor anything followed.
    expect(reasonOf('paragraph')?.kind).not.toBe('keyword');
  });

  it('explain an empty list instead of returning nothing', async () => {
    const result = await pipeline.recommendPapers(reader, {
      topK: 10,
      threshold: 0.999,
      dateFilter: [],
      excludedTiers: [],
    });
    expect(result.items).toEqual([]);
    expect(result.emptyExplanation).toMatchObject({ cause: 'below_threshold' });
  });
});

describe('news recommendations', () => {
  it('use the same steps and the same keyword rule, on the news index', async () => {
    const result = await pipeline.recommendNews(reader, {
      topK: 10,
      threshold: 0.5,
      dateFilter: [],
      page: 1,
      pageSize: 10,
    });
    expect(result.ranked.map((item) => item.id)).toEqual([ids['news-gnn'], ids['news-diffusion']]);
    expect(result.page.views.map((view) => view.id)).toEqual([ids['news-gnn'], ids['news-diffusion']]);
    expect(result.page.reasons.get(ids['news-gnn'] as number)?.kind).not.toBe('keyword');
    expect(result.page.reasons.get(ids['news-diffusion'] as number)?.text).toMatch(
      /^匹配你的关键词「(diffusion|protein)」/,
    );
  });
});

describe('keyword alerts', () => {
  it('list what the recommendation reasons call a match, and give the same kind of reason', async () => {
    const [claim] = await new KeywordRepository(database.db).claimAlertDigests([{ userId: reader.id }], {
      dueSlackMinutes: 15,
      firstLookbackDays: 7,
      maxLookbackDays: 8,
      overlapMinutes: 60,
      maxPapers: 30,
    });
    if (!claim) throw new Error('nothing was due');
    const listed = claim.papers.map((paper) => paper.id).sort((a, b) => a - b);
    expect(listed).toEqual([ids.folding, ids.structure].sort((a, b) => (a as number) - (b as number)));
    const { matchedKeywords } = await new RecommendationRepository(database.db).cards(Object.values(ids), reader.id);
    expect([...matchedKeywords.keys()].sort((a, b) => a - b)).toEqual(listed);

    const reasons = await keywordAlertReasons({ termWeighting: async () => undefined }, claim);
    const structure = reasons.get(ids.structure as number);
    expect(structure).toMatchObject({ kind: 'keyword' });
    expect(structure?.terms[0]).toBe('protein');
    expect(PIPELINE_OPTIONS['keyword-alerts']).toMatchObject({ reorders: true, explainsEmpty: false });
  });
});

describe('followed authors by a common name', () => {
  it('lists a name match only with a field or a co-author in common with the followed paper; namesakes are folded and never delivered', async () => {
    const users = new UserRepository(database.db);
    const created = await users.create({
      email: 'follows-a-common-name@example.org',
      isEmailVerified: true,
      passwordHash: 'argon2id-hash',
      researchSummaryEn: SUMMARY,
    });
    await new VectorRepository(database.db).setUserVector(created.id, model.id, [1, 0, 0]);
    const follower = (await users.findById(created.id)) as UserRow;
    // Names only (as arXiv gives them), no vectors: they reach the reader as a followed author's papers only.
    const paper = async (title: string, authors: string[], fields: string[]) => {
      const result = await database.db.execute<{ id: string }>(sql`
        INSERT INTO radar.papers (title, authors, url, source, research_fields, published_at)
        VALUES (${title}, ${JSON.stringify(authors)}::jsonb, ${`https://papers.example.org/${encodeURIComponent(title)}`},
                'test', string_to_array(${fields.join(',')}, ','), current_date)
        RETURNING id::text AS id`);
      return Number(result.rows[0]?.id);
    };
    const origin = await paper('Cell imaging origin', ['Jing Wang', 'Li Chen'], ['biology']);
    const coauthor = await paper('With Li Chen again', ['J. Wang', 'Li Chen'], []);
    const namesake = await paper('A physicist namesake', ['Jing Wang', 'Other Person'], ['physics-astronomy']);
    const follow = await new FollowedAuthorRepository(database.db).create(
      follower.id,
      { name: 'Jing Wang', paperId: origin },
      50,
    );
    expect('created' in follow).toBe(true);

    const result = await pipeline.recommendPapers(follower, {
      topK: 20,
      threshold: 0.3,
      excludedTiers: [],
      dateFilter: ['不限'],
      followedAuthorPapers: 10,
    });
    expect(result.followedAuthorPapers.map((entry) => entry.paperId).sort()).toEqual([origin, coauthor].sort());
    expect(result.followedAuthorNamesakes).toMatchObject({ count: 1, papers: [{ paperId: namesake }] });

    const digest = await collectDigestItems({ pipeline }, follower, {
      papers: { threshold: 0.3, excluded_jcr: [], date_filter: ['不限'] },
      news: null,
    });
    const delivered = digest.papers.map((item) => item.id);
    expect(delivered).toEqual(expect.arrayContaining([origin, coauthor]));
    expect(delivered).not.toContain(namesake);
    expect(digest.papers.find((item) => item.id === coauthor)?.reason).toBe(
      '关注的作者：J. Wang（按姓名匹配，与关注时的论文有共同作者）',
    );
  });
});
