import { CLASSIFIER_MIN_SIGNALS, learnedProfileVector } from '@radar/ai';
import {
  InterestRepository,
  LearningRepository,
  NewsRepository,
  PaperRepository,
  sql,
  UserRepository,
  VectorRepository,
} from '@radar/db';
import { learnProfile } from '@radar/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * Explicit ratings and the reader's classifier (issue 23), over HTTP on the real runtime, on a corpus
 * whose order is known: the profile is e0, and each paper leans from e0 toward e1, e2 or e3 by a known
 * angle, so its plain similarity is its e0 component. The reader rates e1 papers 👍 and e2 papers 👎.
 * No worker runs (its start-up re-embedding would replace the constructed vectors); the learning job's
 * function (learnProfile) is called where the worker would run it.
 */

const SUMMARY = 'We develop graph neural networks for protein structure prediction.';
const BASES = [0.92, 0.82, 0.72, 0.62];
const SIDES = [1, 2, 3] as const;
/** Key `${side}-${base index}`, e.g. '1-0' is the e1 paper with plain similarity 0.92. */
const CORPUS = SIDES.flatMap((side) => BASES.map((base, i) => ({ key: `${side}-${i}`, base, side })));

let runtime: TestRuntime;
let dimension: number;
let modelId: number;
let newsId: number;
const idOf = new Map<string, number>();
const keyOf = new Map<number, string>();
const vectorOf = new Map<string, number[]>();

const unit = (index: number) => Array.from({ length: dimension }, (_, i) => (i === index ? 1 : 0));
const dot = (a: readonly number[], b: readonly number[]) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

async function signUp(email: string) {
  const user = await new UserRepository(runtime.database.db).create({ email, researchSummaryEn: SUMMARY });
  await new VectorRepository(runtime.database.db).setUserVector(user.id, modelId, unit(0));
  return { id: user.id, headers: { authorization: `Bearer ${await runtime.app.signIn(user)}` } };
}
type Reader = Awaited<ReturnType<typeof signUp>>;

/** /papers for the reader; `includeRated`: the chip 含已评价 (👍 papers stay; 👎 never come back). */
async function recommend(reader: Reader, options: { includeRated?: boolean } = {}) {
  const response = await runtime.app.inject({
    method: 'GET',
    url: `/api/auth/recommendations/papers/?excluded_jcr=&date_filter=不限&similarity_threshold=0${options.includeRated ? '&include_rated=true' : ''}`,
    headers: reader.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const keys = (body: { recommendations: { id: string }[] }) =>
  body.recommendations.map((paper) => keyOf.get(Number(paper.id)) as string);

const rate = (reader: Reader, url: string, payload: unknown) =>
  runtime.app.inject({ method: 'POST', url, headers: reader.headers, payload: payload as object });
const ratePaper = (reader: Reader, key: string, value: 1 | -1 | 0) =>
  rate(reader, `/articles/${idOf.get(key)}/rating/`, { value });

const learn = (reader: Reader) =>
  learnProfile(
    {
      learning: new LearningRepository(runtime.database.db),
      users: new UserRepository(runtime.database.db),
      embeddings: runtime.parts.ai.embeddings,
    },
    reader.id,
  );

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
  const model = await runtime.parts.ai.embeddings.activeModel();
  dimension = model.dimension;
  modelId = model.id;
  const papers = new PaperRepository(runtime.database.db);
  const rows = await papers.insertMany(
    CORPUS.map((paper) => ({
      title: `Paper ${paper.key} on graph networks`,
      abstract: `Side ${paper.side} of the test corpus.`,
      authors: ['Ada Lovelace'],
      journalName: 'Journal of Tests',
      jcrTier: 3,
      publishedAt: new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10),
      source: 'test',
    })),
  );
  rows.forEach((row, index) => {
    const paper = CORPUS[index] as (typeof CORPUS)[number];
    idOf.set(paper.key, row.id);
    keyOf.set(row.id, paper.key);
    vectorOf.set(
      paper.key,
      Array.from({ length: dimension }, (_, i) =>
        i === 0 ? paper.base : i === paper.side ? Math.sqrt(1 - paper.base ** 2) : 0,
      ),
    );
  });
  const vectors = new VectorRepository(runtime.database.db);
  await vectors.setVectors(
    'papers',
    modelId,
    CORPUS.map((paper) => ({ id: String(idOf.get(paper.key)), vector: vectorOf.get(paper.key) as number[] })),
  );
  await papers.analyze();
  const [news] = await new NewsRepository(runtime.database.db).insertMany([
    {
      title: 'Institute opens a protein lab',
      content: 'News.',
      url: 'https://example.org/n1',
      urlNormalized: 'example.org/n1',
      source: 'test',
      crawlDate: new Date(),
    },
  ]);
  newsId = Number(news?.id);
  await vectors.setVectors('news', modelId, [{ id: String(newsId), vector: vectorOf.get('1-0') as number[] }]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('ratings', () => {
  it('stores 👍 and 👎 per reader, undoes with 0, and refuses bad values and unknown ids', async () => {
    const reader = await signUp('rater@example.org');
    const other = await signUp('other-rater@example.org');
    const up = await ratePaper(reader, '1-0', 1);
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toEqual({ success: true, id: String(idOf.get('1-0')), rating: 1 });
    expect((await ratePaper(reader, '1-0', -1)).json()).toMatchObject({ rating: -1 });

    // A 👎 paper leaves the reader's list, 含已评价 or not; nobody else's. Search still finds it, rated.
    const card = (body: { recommendations: { id: string; rating?: unknown }[] }) =>
      body.recommendations.find((paper) => paper.id === String(idOf.get('1-0')));
    expect(card(await recommend(reader))).toBeUndefined();
    expect(card(await recommend(reader, { includeRated: true }))).toBeUndefined();
    expect(card(await recommend(other))?.rating).toBeNull();
    const search = await runtime.app.inject({
      method: 'GET',
      url: '/articles/search/?q=graph',
      headers: reader.headers,
    });
    expect(search.json().results.find((p: { id: string }) => p.id === String(idOf.get('1-0')))?.rating).toBe(-1);

    // A 👍 paper leaves the list too (the next visit brings unseen papers first), and stays with 含已评价.
    expect((await ratePaper(reader, '1-0', 1)).json()).toMatchObject({ rating: 1 });
    expect(card(await recommend(reader))).toBeUndefined();
    expect(card(await recommend(reader, { includeRated: true }))?.rating).toBe(1);
    expect((await ratePaper(reader, '1-0', 0)).json()).toMatchObject({ rating: null });
    expect(card(await recommend(reader))?.rating).toBeNull();

    for (const payload of [{ value: 2 }, { value: '1' }, {}, { value: 0.5 }]) {
      const bad = await rate(reader, `/articles/${idOf.get('1-0')}/rating/`, payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.body).toContain('评分 value 只能是 1');
    }
    const unknown = await rate(reader, '/articles/999999999/rating/', { value: 1 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message ?? unknown.body).toContain('论文不存在');
    expect((await rate(reader, '/articles/abc/rating/', { value: 1 })).statusCode).toBe(404);

    const news = await rate(reader, `/api/news/${newsId}/rating/`, { value: 1 });
    expect(news.json()).toEqual({ success: true, id: String(newsId), rating: 1 });
    expect((await rate(reader, '/api/news/999999999/rating/', { value: 1 })).statusCode).toBe(404);
    const newsCard = async (query: string) => {
      const list = await runtime.app.inject({
        method: 'GET',
        url: `/api/news/recommendations/?similarity_threshold=0${query}`,
        headers: reader.headers,
      });
      expect(list.statusCode, list.body).toBe(200);
      return list.json().data.find((item: { id: string }) => item.id === String(newsId));
    };
    expect(await newsCard('')).toBeUndefined();
    expect((await newsCard('&include_rated=true'))?.rating).toBe(1);

    const anonymous = await runtime.app.inject({
      method: 'POST',
      url: `/articles/${idOf.get('1-0')}/rating/`,
      payload: { value: 1 },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("the reader's classifier", () => {
  it('orders by Rocchio below the minimum and by the fitted classifier from it on; the similarity stays the profile', async () => {
    const reader = await signUp('classified@example.org');
    expect(keys(await recommend(reader))).toEqual(
      [...CORPUS].sort((a, b) => b.base - a.base || a.side - b.side).map((paper) => paper.key),
    );
    const ratings: [string, 1 | -1][] = [
      ['1-2', 1],
      ['2-0', -1],
      ['1-3', 1],
      ['2-1', -1],
      ['2-2', -1],
    ];
    expect(ratings.length).toBeGreaterThanOrEqual(CLASSIFIER_MIN_SIGNALS);
    const below = ratings.slice(0, CLASSIFIER_MIN_SIGNALS - 1);
    for (const [key, value] of below) expect((await ratePaper(reader, key, value)).statusCode).toBe(200);
    expect(await learn(reader)).toMatchObject({ outcome: 'learned', classifier: false });
    const rocchio = await recommend(reader, { includeRated: true });
    expect(rocchio.learning).toEqual({ applied: true, signal_count: below.length, classifier: false });
    const profile = learnedProfileVector(
      unit(0),
      below.filter(([, v]) => v === 1).map(([key]) => vectorOf.get(key) as number[]),
      below.filter(([, v]) => v === -1).map(([key]) => vectorOf.get(key) as number[]),
    );
    // 👎 papers never come back; 含已评价 keeps the 👍 ones, in the learned order.
    const byScore = (score: (key: string) => number, rated: [string, 1 | -1][]) =>
      CORPUS.map((paper) => paper.key)
        .filter((key) => !rated.some(([ratedKey, value]) => ratedKey === key && value === -1))
        .sort((a, b) => score(b) - score(a));
    expect(keys(rocchio)).toEqual(byScore((key) => dot(profile, vectorOf.get(key) as number[]), below));
    expect(rocchio.recommendations[0].reason.text).not.toContain('根据你的评分学习排序');

    for (const [key, value] of ratings.slice(CLASSIFIER_MIN_SIGNALS - 1))
      expect((await ratePaper(reader, key, value)).statusCode).toBe(200);
    expect(await learn(reader)).toMatchObject({ outcome: 'learned', classifier: true });
    const stored = await runtime.database.db.execute<{ weights: string; bias: number; signal_count: number }>(
      sql`SELECT weights::text, bias, signal_count FROM radar.reader_classifiers WHERE user_id = ${reader.id}::uuid AND embedding_model_id = ${modelId}`,
    );
    expect(stored.rows).toHaveLength(1);
    expect(Number(stored.rows[0]?.signal_count)).toBe(ratings.length);
    const weights = JSON.parse(stored.rows[0]?.weights as string) as number[];
    const learned = await recommend(reader, { includeRated: true });
    expect(learned.learning).toEqual({ applied: true, signal_count: ratings.length, classifier: true });
    // Without 含已评价 the rated papers are gone: the list brings unseen ones first.
    expect(keys(await recommend(reader)).filter((key) => ratings.some(([rated]) => rated === key))).toEqual([]);
    // The database orders exactly by the stored classifier's w·x ...
    const classifierOrder = byScore((key) => dot(weights, vectorOf.get(key) as number[]), ratings);
    expect(keys(learned)).toEqual(classifierOrder);
    // ... which is not what Rocchio would give from the same ratings.
    const rocchioAll = learnedProfileVector(
      unit(0),
      ratings.filter(([, v]) => v === 1).map(([key]) => vectorOf.get(key) as number[]),
      ratings.filter(([, v]) => v === -1).map(([key]) => vectorOf.get(key) as number[]),
    );
    expect(keys(learned)).not.toEqual(byScore((key) => dot(rocchioAll, vectorOf.get(key) as number[]), ratings));
    // ... which has learned the reader's sides: every e1 paper above every e2 paper of the same angle,
    // and the e1 papers first.
    const order = keys(learned);
    for (const i of [0, 1, 2, 3]) {
      if (order.includes(`2-${i}`)) expect(order.indexOf(`1-${i}`)).toBeLessThan(order.indexOf(`2-${i}`));
    }
    expect(order.slice(0, 4).sort()).toEqual(['1-0', '1-1', '1-2', '1-3']);
    for (const paper of learned.recommendations) {
      const entry = CORPUS.find((candidate) => candidate.key === keyOf.get(Number(paper.id)));
      expect(paper.similarity_score).toBeCloseTo(entry?.base as number, 4);
      expect(paper.reason.text.startsWith('根据你的评分学习排序')).toBe(true);
    }

    // Undo ratings until below the minimum again: the classifier is dropped and Rocchio orders.
    for (const [key] of ratings.slice(CLASSIFIER_MIN_SIGNALS - 1))
      expect((await ratePaper(reader, key, 0)).json()).toMatchObject({ rating: null });
    expect((await recommend(reader)).learning.classifier).toBe(false);
    expect(await learn(reader)).toMatchObject({ outcome: 'learned', classifier: false });
    const dropped = await runtime.database.db.execute(
      sql`SELECT 1 FROM radar.reader_classifiers WHERE user_id = ${reader.id}::uuid`,
    );
    expect(dropped.rows).toHaveLength(0);
  });

  it('with another interest: the summary learns from its own signals, and only its cards say the order was learned', async () => {
    const reader = await signUp('two-interests-rated@example.org');
    const created = await rate(reader, '/api/auth/interests/', {
      name: '第三方向',
      description: 'Side three of the corpus',
    });
    expect(created.statusCode, created.body).toBe(201);
    const interestId = created.json().interests[1].id as string;
    // The interest points along e3: the e3 papers leaning furthest from e0 are nearer to it than to the summary.
    await new InterestRepository(runtime.database.db).setVector(Number(interestId), modelId, unit(3));
    const signals: [string, 1 | -1][] = [
      ['1-2', 1],
      ['1-3', 1],
      ['2-0', -1],
      // 0.78 to e3 against 0.62 to e0: it teaches the interest, not the summary.
      ['3-3', 1],
    ];
    for (const [key, value] of signals) expect((await ratePaper(reader, key, value)).statusCode).toBe(200);
    expect(await learn(reader)).toMatchObject({ outcome: 'learned', classifier: true });
    const stored = await runtime.database.db.execute<{ signal_count: number }>(
      sql`SELECT signal_count FROM radar.reader_classifiers WHERE user_id = ${reader.id}::uuid`,
    );
    expect(Number(stored.rows[0]?.signal_count)).toBe(3);
    const learned = await new LearningRepository(runtime.database.db).learnedVector(reader.id, {
      id: modelId,
      dimension,
    });
    const ownProfile = learnedProfileVector(
      unit(0),
      [vectorOf.get('1-2') as number[], vectorOf.get('1-3') as number[]],
      [vectorOf.get('2-0') as number[]],
    );
    expect(learned).toHaveLength(dimension);
    for (const [i, x] of (learned ?? []).entries()) expect(x).toBeCloseTo(ownProfile[i] as number, 5);

    const body = await recommend(reader, { includeRated: true });
    expect(body.learning).toMatchObject({ applied: true, classifier: true });
    const cards = body.recommendations as {
      id: string;
      interest?: { id: string; name: string };
      reason: { kind: string; text: string };
    }[];
    const ofInterest = cards.filter((card) => card.interest?.id === interestId);
    const ofSummary = cards.filter((card) => card.interest?.id === 'summary');
    // Equal quotas over the 11 papers left (the 👎 one never comes back): five or six cards each.
    expect(ofSummary.length + ofInterest.length).toBe(11);
    expect(Math.abs(ofSummary.length - ofInterest.length)).toBeLessThanOrEqual(1);
    for (const card of ofSummary) expect(card.reason.text.startsWith('根据你的评分学习排序；')).toBe(true);
    for (const card of ofInterest) {
      expect(card.reason.kind).toBe('interest');
      expect(card.reason.text.startsWith('来自你的研究兴趣「第三方向」')).toBe(true);
      expect(card.reason.text).not.toContain('根据你的评分学习排序');
    }
    // The interest's cards are in its own order (similarity to e3, which they show), untouched by the classifier.
    expect(keyOf.get(Number(ofInterest[0]?.id))).toBe('3-3');
    const shown = ofInterest.map((card) => (card as unknown as { similarity_score: number }).similarity_score);
    expect(shown).toEqual([...shown].sort((a, b) => b - a));
    expect(shown[0]).toBeCloseTo(Math.sqrt(1 - 0.62 ** 2), 4);
  });

  it('suggests the highest threshold keeping 90% of the 👍, from enough ratings', async () => {
    const reader = await signUp('threshold@example.org');
    const get = async () => {
      const response = await runtime.app.inject({
        method: 'GET',
        url: '/api/auth/recommendations/rating-threshold/',
        headers: reader.headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    expect(await get()).toMatchObject({ liked_count: 0, disliked_count: 0, buckets: [], suggested_threshold: null });
    // 👍 at 0.92, 0.82, 0.72, 0.62 (e1) and 0.92 (e3); 👎 at 0.92, 0.82, 0.72 (e2) and 0.62 (e3).
    for (const key of ['1-0', '1-1', '1-2', '1-3']) await ratePaper(reader, key, 1);
    for (const key of ['2-0', '2-1', '2-2']) await ratePaper(reader, key, -1);
    expect(await get()).toMatchObject({ liked_count: 4, disliked_count: 3, suggested_threshold: null });
    await ratePaper(reader, '3-0', 1);
    await ratePaper(reader, '3-3', -1);
    const body = await get();
    expect(body).toMatchObject({ liked_count: 5, disliked_count: 4, min_liked: 5, min_disliked: 3 });
    // 90% of five 👍 keeps all five: the lowest 👍 (0.62) bounds it, rounded down to two decimals.
    expect(body.suggested_threshold).toBeGreaterThanOrEqual(0.61);
    expect(body.suggested_threshold).toBeLessThanOrEqual(0.62);
    expect(body.liked_kept).toBe(1);
    expect(body.disliked_filtered).toBe(0);
    expect(body.buckets[0]).toMatchObject({ from: 0.6, to: 0.65, liked: 1, disliked: 1 });
    expect(body.buckets.at(-1)).toMatchObject({ from: 0.9, to: 0.95, liked: 2, disliked: 1 });
    const counted = body.buckets.reduce(
      (sum: { liked: number; disliked: number }, b: { liked: number; disliked: number }) => ({
        liked: sum.liked + b.liked,
        disliked: sum.disliked + b.disliked,
      }),
      { liked: 0, disliked: 0 },
    );
    expect(counted).toEqual({ liked: 5, disliked: 4 });

    // Without a research summary: nothing to spread the ratings over, an empty answer (not an error).
    const cleared = await runtime.app.inject({
      method: 'POST',
      url: '/api/auth/research-direction/confirm/',
      headers: reader.headers,
      payload: { research_summary_en: '' },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await get()).toMatchObject({ buckets: [], suggested_threshold: null });
  });
});
