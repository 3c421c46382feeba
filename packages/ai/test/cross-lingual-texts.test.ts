import { apiError, type FakeOpenAiServer, startFakeOpenAi } from '@radar/ai/testing';
import { createAiRepositories, type EmbeddableRow, GistRepository, NewsRepository, sql } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { loadConfig } from '@radar/shared/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CrossLingualTexts } from '../src/cross-lingual-texts';
import { EmbeddingModels } from '../src/embedding-models';
import { isChineseText } from '../src/embedding-text';
import { createLanguageModel } from '../src/index';

/**
 * What Chinese items are embedded from, on a real database, with the LLM a real HTTP server speaking
 * the OpenAI protocol: an English gist made once per item and stored, glosses when the call fails or the
 * daily limit is spent, the text as written with a multilingual endpoint.
 */

let database: TestDatabase;
let fake: FakeOpenAiServer;
const rows: Record<string, EmbeddableRow> = {};

const GIST = 'Graph neural networks predict molecular properties for drug discovery.';
const CHINESE = {
  title: '我校团队提出新型图神经网络',
  body: '该模型在分子图上学习原子与化学键的表示，用于分子性质预测与药物发现。',
};
const ENGLISH = { title: 'Quantum error correction', body: 'Superconducting qubits with surface codes.' };

const llmConfig = (env: Record<string, string> = {}) =>
  loadConfig({ LLM_MODEL: 'gist-model', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'k', LLM_MAX_RETRIES: '0', ...env });

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeOpenAi({ embeddingDimension: 16 });
  const news = new NewsRepository(database.db);
  const inserted = await news.insertMany(
    [CHINESE, ENGLISH, { ...CHINESE, title: '另一条：图神经网络新闻' }].map((item, index) => ({
      title: item.title,
      content: item.body,
      url: `https://news.example.edu.cn/${index}`,
      urlNormalized: `news.example.edu.cn/${index}`,
      source: 'test',
    })),
  );
  ['chinese', 'english', 'second'].forEach((key, index) => {
    const row = inserted[index];
    rows[key] = { id: String(row?.id), title: row?.title ?? '', body: row?.content ?? '' };
  });
});

afterAll(async () => {
  await fake?.close();
  await database?.close();
});

beforeEach(async () => {
  fake.requests.length = 0;
  fake.defaultChat = () => ({ content: GIST });
  await database.db.execute(
    sql`UPDATE radar.news_items SET english_gist = NULL, english_gist_source = NULL, english_gist_at = NULL`,
  );
});

const texts = (env: Record<string, string> = {}) => {
  const config = llmConfig(env);
  return new CrossLingualTexts({
    multilingual: false,
    gists: new GistRepository(database.db),
    llm: createLanguageModel(config),
    gistDailyLimit: config.llm.gistDailyLimit,
  });
};

describe('isChineseText', () => {
  it('counts Chinese with English terms as Chinese, and English naming a Chinese author as English', () => {
    expect(isChineseText('本论文提出一种基于 Reservoir Computing (RC) 的量子系统')).toBe(true);
    expect(isChineseText('图神经网络')).toBe(true);
    expect(isChineseText('A study of monsoon rainfall by Zhang Wei (张伟) and colleagues over three decades.')).toBe(
      false,
    );
    expect(isChineseText('Graph neural networks')).toBe(false);
  });
});

describe('CrossLingualTexts', () => {
  it('asks the LLM once per Chinese item, stores the gist and reuses it; English items are embedded as written', async () => {
    const crossLingual = texts();
    const first = await crossLingual.documents('news', [rows.chinese as EmbeddableRow, rows.english as EmbeddableRow], {
      makeGists: true,
    });
    expect(first).toEqual([GIST, `${ENGLISH.title}. ${ENGLISH.body}`]);
    expect(fake.chatRequests()).toHaveLength(1);
    const prompt = JSON.stringify(fake.chatRequests()[0]?.body.messages);
    expect(prompt).toContain('图神经网络');

    // Another process (a re-embedding after a refit) reads the stored gist: no second call.
    const again = await texts().documents('news', [rows.chinese as EmbeddableRow], { makeGists: true });
    expect(again).toEqual([GIST]);
    expect(fake.chatRequests()).toHaveLength(1);

    // A changed text is not described by the stored gist: a new one is made.
    const changed = { ...(rows.chinese as EmbeddableRow), body: '新的内容：钙钛矿太阳能电池。' };
    await texts().documents('news', [changed], { makeGists: true });
    expect(fake.chatRequests()).toHaveLength(2);
  });

  it('glosses offline when the LLM fails, and stores nothing', async () => {
    fake.queueChat(apiError(500, 'down'));
    const [text] = await texts().documents('news', [rows.chinese as EmbeddableRow], { makeGists: true });
    expect(text).toContain('graph neural network');
    expect(text).not.toMatch(/[\u4e00-\u9fff]/);
    const stored = await database.db.execute<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM radar.news_items WHERE english_gist IS NOT NULL`,
    );
    expect(Number(stored.rows[0]?.count)).toBe(0);
  });

  it('glosses offline beyond the daily limit, and when not asked to make gists (a refit)', async () => {
    const limited = texts({ LLM_GIST_DAILY_LIMIT: '1' });
    const out = await limited.documents('news', [rows.chinese as EmbeddableRow, rows.second as EmbeddableRow], {
      makeGists: true,
    });
    expect(fake.chatRequests()).toHaveLength(1);
    expect(out.filter((text) => text === GIST)).toHaveLength(1);
    expect(out.find((text) => text !== GIST)).toContain('graph neural network');
    // The next batch within 24 hours: the limit is already spent.
    await database.db.execute(
      sql`UPDATE radar.news_items SET english_gist = NULL WHERE id = ${Number(rows.chinese?.id)}`,
    );
    await limited.documents('news', [rows.chinese as EmbeddableRow], { makeGists: true });
    expect(fake.chatRequests()).toHaveLength(1);

    await texts().documents('news', [rows.second as EmbeddableRow]);
    expect(fake.chatRequests()).toHaveLength(1);
  });

  it('embeds Chinese as written when the endpoint is multilingual, profiles included', async () => {
    const multilingual = new CrossLingualTexts({ multilingual: true, gists: new GistRepository(database.db) });
    expect(await multilingual.documents('news', [rows.chinese as EmbeddableRow], { makeGists: true })).toEqual([
      `${CHINESE.title}. ${CHINESE.body}`,
    ]);
    expect(multilingual.profile('图神经网络与分子性质预测')).toBe('图神经网络与分子性质预测');
    expect(new CrossLingualTexts({ multilingual: false }).profile('图神经网络与分子性质预测')).toBe(
      'graph neural network molecular property prediction',
    );
    expect(fake.chatRequests()).toHaveLength(0);
  });
});

describe('EMBEDDING_MULTILINGUAL', () => {
  it('is refused without EMBEDDING_MODEL', () => {
    expect(() => loadConfig({ EMBEDDING_MULTILINGUAL: 'true' })).toThrow(/EMBEDDING_MULTILINGUAL/);
  });

  it('sends Chinese as written to a multilingual endpoint, and declaring it activates another model version', async () => {
    const env = { EMBEDDING_MODEL: 'bge-m3', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'k', LLM_MAX_RETRIES: '0' };
    const plain = new EmbeddingModels({ config: loadConfig(env), repositories: createAiRepositories(database.db) });
    const before = await plain.activeModel();
    const multilingual = new EmbeddingModels({
      config: loadConfig({ ...env, EMBEDDING_MULTILINGUAL: 'true' }),
      repositories: createAiRepositories(database.db),
    });
    const { model, switched } = await multilingual.syncWithConfig();
    expect(switched).toBe(true);
    expect(model.id).not.toBe(before.id);
    expect(model.version).toMatch(/multilingual$/);
    fake.requests.length = 0;
    await multilingual.reembedStale();
    const inputs = fake.embeddingRequests().flatMap((request) => request.body.input as string[]);
    expect(inputs).toContain(`${CHINESE.title}. ${CHINESE.body}`);
    expect(fake.chatRequests()).toHaveLength(0);
  });
});
