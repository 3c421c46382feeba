import { seededRandom } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmbeddingModelRow,
  EmbeddingRepository,
  NewsRepository,
  NewsSearchRepository,
  planKeywordMatch,
  VectorRepository,
} from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/**
 * radar.cjk_bigrams (migration 0005) on the database of the run, the news search_vector made with it,
 * and NewsSearchRepository: keyword matching (including the lone-CJK-character fallback) and the
 * nearest-neighbour routes agreeing with each other.
 */

let database: TestDatabase;
let news: NewsRepository;
let search: NewsSearchRepository;

/** The tokens cjk_bigrams leaves, in order (its output is space-separated). */
async function bigrams(text: string): Promise<string[]> {
  const result = await database.pool.query<{ out: string }>('SELECT radar.cjk_bigrams($1) AS out', [text]);
  return (result.rows[0]?.out ?? '').split(/\s+/).filter(Boolean);
}

beforeAll(async () => {
  database = await createTestDatabase();
  news = new NewsRepository(database.db);
  search = new NewsSearchRepository(database.db);
});

afterAll(async () => {
  await database?.close();
});

describe(`radar.cjk_bigrams (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('splits a Chinese run into overlapping bigrams and leaves Latin text alone', async () => {
    expect(await bigrams('清华大学发布量子计算新成果')).toEqual([
      '清华',
      '华大',
      '大学',
      '学发',
      '发布',
      '布量',
      '量子',
      '子计',
      '计算',
      '算新',
      '新成',
      '成果',
    ]);
    expect(await bigrams('Deep learning 深度学习 model v2.0')).toEqual([
      'Deep',
      'learning',
      '深度',
      '度学',
      '学习',
      'model',
      'v2.0',
    ]);
  });

  it('keeps a lone CJK character as a unigram, also next to Latin letters', async () => {
    expect(await bigrams('量')).toEqual(['量']);
    expect(await bigrams('A股')).toEqual(['A', '股']);
  });

  it('turns CJK and full-width punctuation into spaces, so no bigram spans it', async () => {
    expect(await bigrams('你好，世界！')).toEqual(['你好', '世界']);
    expect(await bigrams('《自然》“量子”、新闻')).toEqual(['自然', '量子', '新闻']);
  });

  it('treats kana and Hangul as CJK: a kanji-kana run is one run', async () => {
    expect(await bigrams('东京タワー')).toEqual(['东京', '京タ', 'タワ', 'ワー']);
    expect(await bigrams('ひらがな')).toEqual(['ひら', 'らが', 'がな']);
    expect(await bigrams('한국어 자연어처리')).toEqual(['한국', '국어', '자연', '연어', '어처', '처리']);
  });

  it('returns NULL for NULL and nothing for empty text', async () => {
    const result = await database.pool.query<{ a: string | null; b: string }>(
      "SELECT radar.cjk_bigrams(NULL) AS a, radar.cjk_bigrams('') AS b",
    );
    expect(result.rows[0]?.a).toBeNull();
    expect(result.rows[0]?.b.trim()).toBe('');
  });
});

describe('news keyword search', () => {
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    const rows = await news.insertMany(
      [
        { key: 'tsinghua', title: '清华大学发布量子计算新成果', content: '研究团队实现了新的纠错方案。' },
        { key: 'measure', title: '精密测量实验室揭牌', content: '实验室将开展基础研究。' },
        { key: 'english', title: 'Quantum sensing lab opens', content: 'A new lab for quantum sensors.' },
        { key: 'stock', title: 'A股市场点评', content: '市场情绪回暖。' },
      ].map(({ key, title, content }) => ({
        title,
        content,
        url: `https://news.example.org/${key}`,
        urlNormalized: `news.example.org/${key}`,
        source: 'test',
      })),
    );
    for (const [index, key] of ['tsinghua', 'measure', 'english', 'stock'].entries()) {
      ids[key] = rows[index]?.id ?? 0;
    }
  });

  const find = async (...keywords: string[]) =>
    (await search.keywordSearch({ keywords, limit: 10, offset: 0 })).ids.sort((a, b) => a - b);

  it('matches the stored search_vector through the same function, as a phrase', async () => {
    expect(await find('量子计算')).toEqual([ids.tsinghua]);
    expect(await find('计算量子')).toEqual([]);
    expect(await find('quantum')).toEqual([ids.english]);
    expect(await find('QUANTUM', 'sensors')).toEqual([ids.english]);
  });

  it('finds a lone CJK character anywhere in a run, also where no bigram starts with it', async () => {
    // 量 starts the bigram 量子 in one title and ends the bigram 测量 in another.
    expect(planKeywordMatch(['量'])).toEqual({ phrases: [], substrings: ['量'] });
    expect(await find('量')).toEqual([ids.tsinghua ?? 0, ids.measure ?? 0].sort((a, b) => a - b));
    expect(await find('A股')).toEqual([ids.stock]);
  });

  it('splits keywords at CJK punctuation and ignores pieces without letters or digits', async () => {
    expect(planKeywordMatch(['清华，量子', '+++', '“量子”'])).toEqual({
      phrases: ['清华', '量子', '量子'],
      substrings: [],
    });
    expect(await find('清华，量子')).toEqual([ids.tsinghua]);
    expect(await find('+++')).toEqual([]);
  });

  it('takes ILIKE pattern characters literally', async () => {
    expect(planKeywordMatch(['量%'])).toEqual({ phrases: [], substrings: ['量%'] });
    expect(await find('量%')).toEqual([]);
    expect(await find('量_')).toEqual([]);
  });
});

describe("news keyword search: a Chinese keyword's English", () => {
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    const rows = await news.insertMany(
      [
        {
          key: 'policy',
          title: 'Double First-Class universities report',
          content: 'SMA actuators and sodium-ion batteries.',
        },
        { key: 'small', title: 'Small smart devices', content: 'Smaller ions, ionic liquids.' },
      ].map(({ key, title, content }) => ({
        title,
        content,
        url: `https://news.example.org/${key}`,
        urlNormalized: `news.example.org/${key}`,
        source: 'test',
      })),
    );
    ids.policy = rows[0]?.id ?? 0;
    ids.small = rows[1]?.id ?? 0;
  });

  /** The keyword searched with the English the glossary gives for it (here given as the caller would). */
  const findAs = async (keyword: string, english: string[][]) =>
    (await search.keywordSearch({ keywords: [keyword], english: () => english, limit: 10, offset: 0 })).ids.sort(
      (a, b) => a - b,
    );

  it('parses the English as the documents were: a hyphenated name keeps its parts in place', async () => {
    expect(await findAs('双一流', [['Double First-Class']])).toEqual([ids.policy]);
  });

  it('takes a longer word as a prefix (its plural matches) and a word of three letters or fewer exactly', async () => {
    expect(await findAs('钠离子电池', [['sodium-ion battery', 'sodium-ion batteries']])).toEqual([ids.policy]);
    expect(await findAs('形状记忆合金', [['shape memory alloy', 'SMA']])).toEqual([ids.policy]);
    // 'ion' is a whole word of "sodium-ion", not a prefix of "ionic" or "ions".
    expect(await findAs('离子', [['ion']])).toEqual([ids.policy]);
    expect(await findAs('小型', [['small']])).toEqual([ids.small]);
  });
});

describe('nearest news', () => {
  const DIMENSION = 16;
  let model: EmbeddingModelRow;
  const rand = seededRandom(7);
  const topics = Array.from({ length: 4 }, () => Array.from({ length: DIMENSION }, () => rand() * 2 - 1));
  const near = (topic: number[], spread: number) => topic.map((value) => value + (rand() * 2 - 1) * spread);

  beforeAll(async () => {
    model = await new EmbeddingRepository(database.db).registerModel({
      provider: 'test',
      name: 'news-clustered',
      version: '1',
      dimension: DIMENSION,
    });
    const now = Date.now();
    const rows = await news.insertMany(
      Array.from({ length: 300 }, (_, index) => ({
        title: `News ${index}`,
        url: `https://news.example.org/n/${index}`,
        urlNormalized: `news.example.org/n/${index}`,
        source: 'test',
        // Every fifth has no publish date: its crawl date stands in.
        publishDate: index % 5 === 0 ? null : new Date(now - (index % 60) * 86_400_000),
        crawlDate: new Date(now - (index % 30) * 86_400_000),
      })),
    );
    await new VectorRepository(database.db).setVectors(
      'news',
      model.id,
      rows.map((row, index) => ({ id: String(row.id), vector: near(topics[index % topics.length] ?? [], 0.5) })),
    );
    await news.analyze();
  });

  it('uses the model’s HNSW index on the index route', async () => {
    const plan = await search.explainNearest(
      { model, vector: near(topics[0] ?? [], 0.2), topK: 20, threshold: -1 },
      'index',
    );
    expect(plan).toContain(`news_items_embedding_m${model.id}_hnsw`);
  });

  it('returns the same items on every route, within the date window, most similar first', async () => {
    const since = new Date(Date.now() - 20 * 86_400_000);
    for (let probe = 0; probe < 4; probe++) {
      const query = { model, vector: near(topics[probe] ?? [], 0.2), topK: 15, threshold: -1, filters: { since } };
      const exact = await search.nearest({ ...query, strategy: 'exact' });
      const indexed = await search.nearest({ ...query, strategy: 'index' });
      const auto = await search.nearest(query);
      expect(exact.items).toHaveLength(15);
      expect(indexed.items.map((item) => item.id)).toEqual(exact.items.map((item) => item.id));
      expect(auto.items.map((item) => item.id)).toEqual(exact.items.map((item) => item.id));
      const similarities = exact.items.map((item) => item.similarity);
      expect([...similarities].sort((a, b) => b - a)).toEqual(similarities);
      const views = await search.findViews(exact.items.map((item) => item.id));
      for (const view of views) {
        expect((view.publishDate ?? view.crawlDate).getTime()).toBeGreaterThanOrEqual(since.getTime());
      }
    }
  });

  it('applies the threshold to the top k: one nobody meets returns nothing', async () => {
    const query = { model, vector: near(topics[1] ?? [], 0.2), topK: 10 };
    const all = await search.nearest({ ...query, threshold: -1 });
    const cut = all.items[4]?.similarity ?? 1;
    const some = await search.nearest({ ...query, threshold: cut });
    expect(some.items.map((item) => item.id)).toEqual(all.items.slice(0, 5).map((item) => item.id));
    expect((await search.nearest({ ...query, threshold: 1.01 })).items).toEqual([]);
  });

  it('rejects a vector of the wrong dimension', async () => {
    await expect(search.nearest({ model, vector: [1, 2, 3], topK: 5, threshold: 0 })).rejects.toThrow(RangeError);
  });
});
