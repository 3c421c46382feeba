import { documentEmbeddingText } from '@radar/ai';
import { apiError, type FakeOpenAiServer, startFakeOpenAi } from '@radar/ai/testing';
import {
  type EmbeddingModelRow,
  EmbeddingRepository,
  type NewNewsItemRow,
  NewsRepository,
  UserRepository,
  VectorRepository,
} from '@radar/db';
import { calendarDayIn, DEFAULT_TIME_ZONE, RESEARCH_DIRECTION_NOT_SET } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';
import { SEMANTIC_SEARCH_FAILED_MESSAGE, SEMANTIC_SEARCH_TIMEOUT_MESSAGE } from './news-search.service';

/**
 * GET /api/news/recommendations/ and POST /api/news/search/ over HTTP on the real runtime, with a small
 * news corpus written through the repositories: first with the built-in embedder, then with an
 * OpenAI-compatible embeddings server started by the test (provider failures).
 */

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
/** The calendar day (YYYY-MM-DD) of `days` days ago in the readers' zone (the default), as date_from/date_to take it. */
const dayOf = (days: number) => calendarDayIn(daysAgo(days), DEFAULT_TIME_ZONE);

type Headers = Record<string, string>;

async function signUp(runtime: TestRuntime, email: string, researchSummaryEn = '') {
  const user = await new UserRepository(runtime.database.db).create({
    email,
    isEmailVerified: true,
    researchSummaryEn,
  });
  return {
    user,
    headers: { authorization: `Bearer ${await runtime.app.signIn(user)}` },
  };
}

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] ?? 0) * (b[i] ?? 0);
    normA += (a[i] ?? 0) ** 2;
    normB += (b[i] ?? 0) ** 2;
  }
  return dot / Math.sqrt(normA * normB);
};

const SUMMARY = 'I study quantum error correction and superconducting qubits.';

describe('with the built-in embedder', () => {
  let runtime: TestRuntime;
  let model: EmbeddingModelRow;
  let reader: Awaited<ReturnType<typeof signUp>>;
  /** Item ids by the names used below. */
  const id: Record<string, string> = {};
  /** Every stored vector of the active model, by item id: the ground truth of similarity. */
  const vectors = new Map<string, number[]>();

  const recommend = (headers: Headers, query = '') =>
    runtime.app.inject({ method: 'GET', url: `/api/news/recommendations/${query}`, headers });
  const search = (headers: Headers, payload: Record<string, unknown>) =>
    runtime.app.inject({ method: 'POST', url: '/api/news/search/', headers, payload });
  const ids = (body: { data: { id: string }[] }) => body.data.map((item) => item.id);
  const names = (...keys: string[]) => keys.map((key) => id[key]);

  /** Text items for search, all dated outside the default week, with vectors of their text. */
  const TEXT_ITEMS = [
    {
      key: 'tsinghua',
      title: '清华大学发布量子计算新成果',
      content: '研究团队在超导量子芯片上实现了纠错。',
      institute: '清华大学',
      publishDaysAgo: 20,
    },
    {
      key: 'peking',
      title: '北京大学量子材料研究进展',
      content: '新型拓扑材料的实验观测。',
      institute: '北京大学',
      publishDaysAgo: 22,
    },
    {
      key: 'mit',
      title: 'Quantum error correction milestone at MIT',
      content: 'Researchers demonstrate quantum error correction with superconducting qubits.',
      institute: 'Massachusetts Institute of Technology',
      publishDaysAgo: 21,
    },
    {
      key: 'protein',
      title: 'New protein folding model released',
      content: 'A deep learning model predicts protein structures.',
      institute: 'Stanford University',
      publishDaysAgo: 23,
    },
    {
      key: 'fudan',
      title: '复旦大学举办人工智能论坛',
      content: '论坛讨论了大模型与科学研究。',
      institute: '复旦大学',
      publishDaysAgo: 24,
    },
    {
      key: 'measure',
      title: '精密测量实验室揭牌',
      content: '该实验室将开展量子精密测量研究。',
      institute: '中国科学技术大学',
      publishDaysAgo: 25,
    },
    {
      key: 'sensing',
      title: 'Quantum sensing for medical imaging',
      content: 'Quantum sensors improve magnetic resonance imaging.',
      institute: 'Stanford University',
      // No publish date: the crawl date stands in for it.
      publishDaysAgo: null,
      crawlDaysAgo: 26,
    },
  ] as const;

  /** Semantic queries of the tests, embedded up front to keep their dimensions off the profile's. */
  const SEMANTIC_QUERIES = ['quantum error correction with superconducting qubits', 'protein structure'];

  /**
   * Items for recommendations: vectors in the plane of two dimensions no text above uses, so their
   * similarity to the profile (along the first) is exactly cos(angle) and 0 for every text item.
   */
  const PLANE_ITEMS = [
    { key: 'r95', similarity: 0.95, publishDaysAgo: 0.5 },
    { key: 'r85', similarity: 0.85, publishDaysAgo: null, crawlDaysAgo: 2 },
    { key: 'r75', similarity: 0.75, publishDaysAgo: 3 },
    { key: 'r65', similarity: 0.65, publishDaysAgo: 5 },
    { key: 'r55', similarity: 0.55, publishDaysAgo: 6 },
    { key: 'r45', similarity: 0.45, publishDaysAgo: 6.5 },
    { key: 'r35', similarity: 0.35, publishDaysAgo: 2 },
    { key: 'below', similarity: 0.25, publishDaysAgo: 0.5 },
    { key: 'lastMonth', similarity: 0.9, publishDaysAgo: 10 },
    // Crawled yesterday, but published long ago: the publish date decides.
    { key: 'oldPublished', similarity: 0.92, publishDaysAgo: 40, crawlDaysAgo: 1 },
  ] as const;

  beforeAll(async () => {
    // No worker: its start-up re-embedding would give vectors to the rows that must not have one.
    runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
    const { ai } = runtime.parts;
    model = await ai.embeddings.activeModel();
    const provider = await ai.embeddings.active();
    const news = new NewsRepository(runtime.database.db);
    const vectorRepository = new VectorRepository(runtime.database.db);

    const textVectors = await provider.embed([
      ...TEXT_ITEMS.map((item) => documentEmbeddingText(item.title, item.content)),
      ...SEMANTIC_QUERIES.map((query) => documentEmbeddingText(query, '')),
    ]);
    const free = Array.from({ length: model.dimension }, (_, index) => index).filter((index) =>
      textVectors.every((vector) => vector[index] === 0),
    );
    const [x, y] = free;
    if (x === undefined || y === undefined) throw new Error('no free dimensions for the plane');
    const plane = (similarity: number) => {
      const vector = new Array<number>(model.dimension).fill(0);
      vector[x] = similarity;
      vector[y] = Math.sqrt(1 - similarity ** 2);
      return vector;
    };

    const row = (key: string, item: { publishDaysAgo: number | null; crawlDaysAgo?: number }): NewNewsItemRow => ({
      title: `Item ${key}`,
      url: `https://news.example.org/${key}`,
      urlNormalized: `news.example.org/${key}`,
      source: 'test',
      publishDate: item.publishDaysAgo === null ? null : daysAgo(item.publishDaysAgo),
      crawlDate: daysAgo(item.crawlDaysAgo ?? item.publishDaysAgo ?? 0),
    });
    const textRows = [];
    for (const item of TEXT_ITEMS) {
      textRows.push({
        ...row(item.key, item),
        title: item.title,
        content: item.content,
        instituteId: await news.ensureInstitute(item.institute),
      });
    }
    const inserted = await news.insertMany([
      ...textRows,
      ...PLANE_ITEMS.map((item) => row(item.key, item)),
      { ...row('otherModel', { publishDaysAgo: 1 }), title: 'Embedded by another model' },
      { ...row('noVector', { publishDaysAgo: 1 }), title: 'Not embedded yet' },
    ]);
    const keys = [
      ...TEXT_ITEMS.map((item) => item.key),
      ...PLANE_ITEMS.map((item) => item.key),
      'otherModel',
      'noVector',
    ];
    keys.forEach((key, index) => {
      id[key] = String(inserted[index]?.id);
    });

    TEXT_ITEMS.forEach((item, index) => {
      vectors.set(id[item.key] as string, textVectors[index] as number[]);
    });
    for (const item of PLANE_ITEMS) vectors.set(id[item.key] as string, plane(item.similarity));
    await vectorRepository.setVectors(
      'news',
      model.id,
      [...vectors].map(([itemId, vector]) => ({ id: itemId, vector })),
    );
    // Nearly identical to the profile, but another model's vector: never compared.
    const otherModel = await new EmbeddingRepository(runtime.database.db).registerModel({
      provider: 'test',
      name: 'other',
      version: '1',
      dimension: 8,
    });
    await vectorRepository.setVectors('news', otherModel.id, [
      { id: id.otherModel as string, vector: [1, 0, 0, 0, 0, 0, 0, 0] },
    ]);
    await news.analyze();

    reader = await signUp(runtime, 'reader@example.org', SUMMARY);
    await vectorRepository.setUserVector(reader.user.id, model.id, plane(1));
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('documents both endpoints in the OpenAPI description', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = response.json().paths;
    expect(paths['/api/news/recommendations/'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['top_k', 'similarity_threshold', 'date_filter', 'page', 'page_size']),
    );
    expect(
      Object.keys(paths['/api/news/search/'].post.requestBody.content['application/json'].schema.properties),
    ).toEqual(
      expect.arrayContaining(['query', 'search_type', 'institute_name', 'date_from', 'date_to', 'page', 'page_size']),
    );
  });

  describe('GET /api/news/recommendations/', () => {
    it('needs a login', async () => {
      const response = await recommend({});
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('AUTH_REQUIRED');
    });

    it('answers research_direction_not_set without a research summary', async () => {
      const { headers } = await signUp(runtime, 'no-summary@example.org');
      const response = await recommend(headers);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 'RESEARCH_DIRECTION_NOT_SET',
        message: RESEARCH_DIRECTION_NOT_SET.error,
        success: false,
        error: RESEARCH_DIRECTION_NOT_SET.error,
        error_type: RESEARCH_DIRECTION_NOT_SET.errorType,
        details: RESEARCH_DIRECTION_NOT_SET.details,
      });
    });

    it('computes a missing profile vector from the summary on request', async () => {
      const { user, headers } = await signUp(runtime, 'no-vector@example.org', SUMMARY);
      const response = await recommend(headers, '?date_filter=不限&similarity_threshold=0');
      expect(response.statusCode).toBe(200);
      const stored = await new UserRepository(runtime.database.db).findById(user.id);
      expect(stored?.profileEmbeddingModelId).toBe(model.id);
    });

    it('recommends by the defaults: top 20 of the last week at similarity 0.3 or more, most similar first', async () => {
      const response = await recommend(reader.headers);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(ids(body)).toEqual(names('r95', 'r85', 'r75', 'r65', 'r55', 'r45', 'r35'));
      expect(body.pagination).toEqual({ total_count: 7, current_page: 1, page_size: 20, total_pages: 1 });
      const [first] = body.data;
      expect(first).toMatchObject({
        id: id.r95,
        title: 'Item r95',
        content: '',
        institute_name: '',
        url: 'https://news.example.org/r95',
        is_recommended: true,
      });
      expect(first.recommendation_score).toBeCloseTo(0.95, 5);
      expect(first.similarity_score).toBe(first.recommendation_score);
      expect(new Date(first.publish_date).getTime()).toBeCloseTo(daysAgo(0.5).getTime(), -5);
      // No publish date: the crawl date put it in the window.
      const undated = body.data.find((item: { id: string }) => item.id === id.r85);
      expect(undated.publish_date).toBeNull();
      expect(typeof undated.crawl_date).toBe('string');
    });

    it('widens and narrows the window with date_filter (the widest label wins; empty is 不限)', async () => {
      const month = (await recommend(reader.headers, '?date_filter=一天内,一月内')).json();
      expect(ids(month)).toEqual(names('r95', 'lastMonth', 'r85', 'r75', 'r65', 'r55', 'r45', 'r35'));
      const all = (await recommend(reader.headers, `?date_filter=${encodeURIComponent('不限')}`)).json();
      expect(ids(all)).toEqual(names('r95', 'oldPublished', 'lastMonth', 'r85', 'r75', 'r65', 'r55', 'r45', 'r35'));
      expect(ids((await recommend(reader.headers, '?date_filter=')).json())).toEqual(ids(all));
      const day = (await recommend(reader.headers, '?date_filter=一天内')).json();
      expect(ids(day)).toEqual(names('r95'));
    });

    it('takes the top_k nearest first, then the threshold: total_count is what is left', async () => {
      const top = (await recommend(reader.headers, '?top_k=5&similarity_threshold=0.7')).json();
      expect(ids(top)).toEqual(names('r95', 'r85', 'r75'));
      expect(top.pagination.total_count).toBe(3);
      const lower = (await recommend(reader.headers, '?top_k=10&similarity_threshold=0.2')).json();
      expect(ids(lower)).toEqual(names('r95', 'r85', 'r75', 'r65', 'r55', 'r45', 'r35', 'below'));
    });

    it('answers an empty list when no item meets the threshold', async () => {
      const response = await recommend(reader.headers, '?similarity_threshold=0.99&date_filter=不限');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        data: [],
        pagination: { total_count: 0, current_page: 1, page_size: 20, total_pages: 0 },
        empty_explanation: { cause: 'below_threshold' },
      });
      // The closest item (0.95, in float32) passes at the offered threshold, on the slider's 5 % grid.
      const offered = Number(response.json().empty_explanation.change.similarity_threshold);
      expect([0.9, 0.95]).toContain(offered);
      expect(offered).toBeLessThanOrEqual(0.95);
    });

    it('pages through the recommended set; a page past the end is empty', async () => {
      const second = (await recommend(reader.headers, '?page=2&page_size=3')).json();
      expect(ids(second)).toEqual(names('r65', 'r55', 'r45'));
      expect(second.pagination).toEqual({ total_count: 7, current_page: 2, page_size: 3, total_pages: 3 });
      const last = (await recommend(reader.headers, '?page=3&page_size=3')).json();
      expect(ids(last)).toEqual(names('r35'));
      const beyond = await recommend(reader.headers, '?page=9&page_size=3');
      expect(beyond.statusCode).toBe(200);
      expect(beyond.json()).toMatchObject({
        data: [],
        pagination: { total_count: 7, current_page: 9, page_size: 3, total_pages: 3 },
        // A page past the end of a non-empty set is not an empty result to explain.
        empty_explanation: null,
      });
      expect((await recommend(reader.headers, '?page_size=100')).statusCode).toBe(200);
    });

    it('refuses bad parameters with a 400 naming the parameter', async () => {
      for (const [query, fragment] of [
        ['?top_k=4', 'top_k 必须是 5 到 50'],
        ['?top_k=51', 'top_k'],
        ['?top_k=ten', 'top_k'],
        ['?top_k=5.5', 'top_k'],
        ['?similarity_threshold=1.5', 'similarity_threshold 必须是 0 到 1'],
        ['?similarity_threshold=-0.1', 'similarity_threshold'],
        ['?date_filter=明天', 'date_filter 只能是'],
        ['?page=0', 'page 必须是 1 到 10000 之间的整数'],
        ['?page=-1', 'page'],
        ['?page_size=0', 'page_size 必须是 1 到 100 之间的整数'],
        ['?page_size=10000', 'page_size'],
        ['?page=1&page=2', 'page'],
      ]) {
        const response = await recommend(reader.headers, query);
        expect(response.statusCode, query).toBe(400);
        expect(response.json().code, query).toBe('VALIDATION_ERROR');
        expect(response.json().message, query).toContain(fragment);
      }
    });
  });

  describe('POST /api/news/search/ (keyword)', () => {
    const keyword = (query: string, extra: Record<string, unknown> = {}) => search(reader.headers, { query, ...extra });

    it('needs a login', async () => {
      const response = await search({}, { query: '量子' });
      expect(response.statusCode).toBe(401);
    });

    it('finds Chinese news by a two-character word, title matches before content matches', async () => {
      const response = await keyword('超导');
      expect(response.statusCode).toBe(200);
      // 超导 -> "superconductivity": no English item says it (they say "superconducting"), so only
      // the bigram match of 清华's content.
      expect(ids(response.json())).toEqual(names('tsinghua'));
      const body = (await keyword('量子')).json();
      // 清华: title and content; 北大: title; 测量: content only; and through the gloss "quantum" the
      // English items with it in title and content (MIT, sensing): the content-only match last.
      expect(new Set(ids(body).slice(0, 4))).toEqual(new Set(names('tsinghua', 'peking', 'mit', 'sensing')));
      expect(ids(body)[4]).toBe(id.measure);
      expect(body.pagination).toEqual({ total_count: 5, current_page: 1, page_size: 20, total_pages: 1 });
      expect(body.data.find((item: { id: string }) => item.id === id.tsinghua)).toMatchObject({
        title: '清华大学发布量子计算新成果',
        institute_name: '清华大学',
        is_recommended: false,
        recommendation_score: null,
        similarity_score: null,
      });
    });

    it('matches a longer Chinese word as a phrase of its bigrams', async () => {
      expect(ids((await keyword('量子计算')).json())).toEqual(names('tsinghua'));
      expect(ids((await keyword('计算量子')).json())).toEqual([]);
    });

    it('finds English words whatever their case', async () => {
      expect(new Set(ids((await keyword('Quantum')).json()))).toEqual(new Set(names('mit', 'sensing')));
      expect(ids((await keyword('PROTEIN')).json())).toEqual(names('protein'));
    });

    it('requires every keyword (AND), Chinese and English alike; quotes make a phrase', async () => {
      expect(ids((await keyword('quantum correction')).json())).toEqual(names('mit'));
      expect(ids((await keyword('量子 清华')).json())).toEqual(names('tsinghua'));
      expect(ids((await keyword('量子 protein')).json())).toEqual([]);
      expect(ids((await keyword('"error correction"')).json())).toEqual(names('mit'));
      expect(ids((await keyword('"correction error"')).json())).toEqual([]);
    });

    it('reaches English news through the English glosses of a Chinese keyword, keywords still ANDed', async () => {
      // 量子纠错 -> "quantum error correction"; 量子传感 -> "quantum sensing" (prefix words: "sensors" too).
      expect(ids((await keyword('量子纠错')).json())).toEqual(names('mit'));
      expect(ids((await keyword('量子传感')).json())).toEqual(names('sensing'));
      expect(ids((await keyword('蛋白质折叠')).json())).toEqual(names('protein'));
      // Mixed: each keyword by itself or its gloss, all required.
      expect(ids((await keyword('量子 imaging')).json())).toEqual(names('sensing'));
      expect(ids((await keyword('量子 清华')).json())).toEqual(names('tsinghua'));
      // 量子计算 ("quantum computing") is in 清华's title only: no English item has the phrase.
      expect(ids((await keyword('量子计算')).json())).toEqual(names('tsinghua'));
      // No gloss for the whole keyword: its bigrams only, as before.
      expect(ids((await keyword('清华')).json())).toEqual(names('tsinghua'));
    });

    it('finds a one-character Chinese query as a substring, newest first', async () => {
      // 量 is inside 量子 (title of 清华 and 北大) and 测量 (title of the lab).
      const body = (await keyword('量')).json();
      expect(ids(body)).toEqual(names('tsinghua', 'peking', 'measure'));
      // 测 is in the lab's title and in 观测 of 北大's content: title hits first.
      expect(ids((await keyword('测')).json())).toEqual(names('measure', 'peking'));
    });

    it('filters by institute name, contained and ignoring case', async () => {
      expect(ids((await keyword('量子', { institute_name: '北京' })).json())).toEqual(names('peking'));
      expect(ids((await keyword('quantum', { institute_name: 'stanford' })).json())).toEqual(names('sensing'));
      expect(ids((await keyword('quantum', { institute_name: '100%' })).json())).toEqual([]);
    });

    it('bounds the date (publish date, else crawl date) by date_from and date_to, both inclusive', async () => {
      const window = { date_from: dayOf(22), date_to: dayOf(21) };
      expect(ids((await keyword('quantum', window)).json())).toEqual(names('mit'));
      expect(new Set(ids((await keyword('量子', window)).json()))).toEqual(new Set(names('peking', 'mit')));
      expect(ids((await keyword('quantum', { date_to: dayOf(25) })).json())).toEqual(names('sensing'));
      expect(ids((await keyword('quantum', { date_from: dayOf(20) })).json())).toEqual([]);
    });

    it('pages through the matches; a page past the end is empty with the total', async () => {
      const first = (await keyword('量', { page_size: 2 })).json();
      expect(ids(first)).toEqual(names('tsinghua', 'peking'));
      expect(first.pagination).toEqual({ total_count: 3, current_page: 1, page_size: 2, total_pages: 2 });
      const second = (await keyword('量', { page: 2, page_size: '2' })).json();
      expect(ids(second)).toEqual(names('measure'));
      const beyond = await keyword('量', { page: 5, page_size: 2 });
      expect(beyond.statusCode).toBe(200);
      expect(beyond.json()).toEqual({
        data: [],
        pagination: { total_count: 3, current_page: 5, page_size: 2, total_pages: 2 },
      });
    });

    it('takes null and empty optional fields as left out', async () => {
      const response = await keyword('protein', {
        search_type: null,
        institute_name: null,
        date_from: '',
        date_to: null,
        page: null,
      });
      expect(response.statusCode).toBe(200);
      expect(ids(response.json())).toEqual(names('protein'));
    });

    it('refuses bad requests with a Chinese message', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{}, '请输入搜索关键词'],
        [{ query: '   ' }, '请输入搜索关键词'],
        [{ query: null }, '请输入搜索关键词'],
        [{ query: 42 }, '搜索关键词必须是文本'],
        [{ query: 'x'.repeat(201) }, '搜索关键词不能超过 200 个字符'],
        [{ query: '!!! ，。' }, '搜索关键词需包含文字或数字'],
        [{ query: Array.from({ length: 11 }, (_, i) => `w${i}`).join(' ') }, '搜索关键词最多 10 个'],
        [{ query: '量子', search_type: 'fuzzy' }, 'search_type 只能是 keyword 或 semantic'],
        [{ query: '量子', date_from: '2026-13-01' }, '开始日期格式应为 YYYY-MM-DD'],
        [{ query: '量子', date_to: '2026/01/01' }, '结束日期格式应为 YYYY-MM-DD'],
        [{ query: '量子', date_from: '2026-02-30' }, '开始日期格式应为 YYYY-MM-DD'],
        [{ query: '量子', date_from: '2026-03-02', date_to: '2026-03-01' }, '开始日期不能晚于结束日期'],
        [{ query: '量子', page: 0 }, 'page 必须是 1 到 10000 之间的整数'],
        [{ query: '量子', page: 1.5 }, 'page 必须是 1 到 10000'],
        [{ query: '量子', page: true }, 'page 必须是整数'],
        [{ query: '量子', page_size: 0 }, 'page_size 必须是 1 到 100 之间的整数'],
        [{ query: '量子', page_size: 10_000 }, 'page_size'],
        [{ query: '量子', institute_name: 'x'.repeat(101) }, '机构名称不能超过 100 个字符'],
      ];
      for (const [payload, fragment] of cases) {
        const response = await search(reader.headers, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().code).toBe('VALIDATION_ERROR');
        expect(response.json().message, JSON.stringify(payload)).toContain(fragment);
      }
    });
  });

  describe('POST /api/news/search/ (semantic)', () => {
    /** What the API should answer: computed here from the stored vectors and the query's embedding. */
    async function expected(query: string, keep: (itemId: string) => boolean = () => true) {
      const provider = await runtime.parts.ai.embeddings.active();
      const [queryVector] = await provider.embed([documentEmbeddingText(query, '')]);
      return [...vectors]
        .filter(([itemId]) => keep(itemId))
        .map(([itemId, vector]) => ({ id: itemId, similarity: cosine(queryVector as number[], vector) }))
        .filter((item) => item.similarity >= 0.1)
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, 100);
    }

    it('ranks the items embedded by the active model by similarity to the query', async () => {
      const query = SEMANTIC_QUERIES[0] as string;
      const response = await search(reader.headers, { query, search_type: 'semantic' });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      const truth = await expected(query);
      expect(truth[0]?.id).toBe(id.mit);
      expect(ids(body)).toEqual(truth.map((item) => item.id));
      expect(ids(body)).not.toContain(id.otherModel);
      expect(body.pagination.total_count).toBe(truth.length);
      body.data.forEach((item: { recommendation_score: number; similarity_score: number }, index: number) => {
        expect(item.recommendation_score).toBeCloseTo(truth[index]?.similarity ?? Number.NaN, 4);
        expect(item.similarity_score).toBe(item.recommendation_score);
      });
    });

    it('applies the institute and date filters before ranking', async () => {
      const query = SEMANTIC_QUERIES[1] as string;
      const stanford = new Set(names('protein', 'sensing'));
      const response = await search(reader.headers, {
        query,
        search_type: 'semantic',
        institute_name: 'Stanford',
      });
      const truth = await expected(query, (itemId) => stanford.has(itemId));
      expect(truth[0]?.id).toBe(id.protein);
      expect(ids(response.json())).toEqual(truth.map((item) => item.id));
      const dated = await search(reader.headers, { query, search_type: 'semantic', date_to: dayOf(30) });
      expect(ids(dated.json())).toEqual([]);
    });
  });
});

describe('with an embeddings server that fails', () => {
  let fake: FakeOpenAiServer;
  let runtime: TestRuntime;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    runtime = await startTestRuntime({
      env: {
        RUN_WORKER: 'false',
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: 'sk-test',
        LLM_TIMEOUT_MS: '1000',
        LLM_MAX_RETRIES: '0',
        EMBEDDING_MODEL: 'fake-embed',
        EMBEDDING_DIM: '24',
      },
    });
  });
  afterAll(async () => {
    await runtime?.stop();
    await fake?.close();
  });

  it('answers research_direction_not_set (vector pending) when the profile vector cannot be computed', async () => {
    const { headers } = await signUp(runtime, 'pending@example.org', SUMMARY);
    fake.queueEmbeddings(apiError(500, 'down'));
    const response = await runtime.app.inject({ method: 'GET', url: '/api/news/recommendations/', headers });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'RESEARCH_DIRECTION_NOT_SET',
      error: RESEARCH_DIRECTION_NOT_SET.error,
      error_type: RESEARCH_DIRECTION_NOT_SET.errorType,
      details: RESEARCH_DIRECTION_NOT_SET.detailsVectorPending,
    });
  });

  it('answers 502 or 504 to a semantic search the provider fails, and keyword search still works', async () => {
    const { headers } = await signUp(runtime, 'searcher@example.org');
    const semantic = () =>
      runtime.app.inject({
        method: 'POST',
        url: '/api/news/search/',
        headers,
        payload: { query: 'quantum', search_type: 'semantic' },
      });
    fake.queueEmbeddings(apiError(503, 'overloaded'));
    const failed = await semantic();
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: SEMANTIC_SEARCH_FAILED_MESSAGE });
    fake.queueEmbeddings({ hang: true });
    const slow = await semantic();
    expect(slow.statusCode).toBe(504);
    expect(slow.json().message).toBe(SEMANTIC_SEARCH_TIMEOUT_MESSAGE);
    // The provider answers again: the model's vectors (none stored) are searched.
    const recovered = await semantic();
    expect(recovered.statusCode).toBe(200);
    expect(recovered.json().data).toEqual([]);
    const keyword = await runtime.app.inject({
      method: 'POST',
      url: '/api/news/search/',
      headers,
      payload: { query: 'quantum' },
    });
    expect(keyword.statusCode).toBe(200);
  });
});
