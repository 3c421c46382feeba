import { learnedProfileVector } from '@radar/ai';
import {
  KeywordRepository,
  LearningRepository,
  NewsRepository,
  PaperRepository,
  UserRepository,
  VectorRepository,
} from '@radar/db';
import { learnProfile } from '@radar/jobs';
import { LEARNING_TEXTS } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * Recommendations that learn from the reader and explain themselves (issue 13), over HTTP on the real
 * runtime. The corpus is built so the right order is known: the profile is e0 and each paper leans from
 * e0 toward e1 or toward e2 by a known angle, so plain similarity is its e0 component, and after liking a
 * paper on the e1 side and dismissing one on the e2 side every e1 paper must rise above its e2 twin.
 * No worker runs (its start-up re-embedding would replace the constructed vectors); the learning job's
 * function (learnProfile) is called where the worker would run it.
 */

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);

const SUMMARY =
  'We develop graph neural networks for protein structure prediction and molecular dynamics simulation of enzymes.';

interface CorpusPaper {
  key: string;
  title: string;
  abstract: string;
  /** e0 component: the plain similarity. */
  base: number;
  side: 1 | 2;
}

const CORPUS: CorpusPaper[] = [
  {
    key: 'X1',
    title: 'Graph neural networks predict protein structure',
    abstract: 'A message passing graph neural network predicts protein structure from sequence.',
    base: 0.8,
    side: 1,
  },
  {
    key: 'X2',
    title: 'Quantum annealing schedules for spin glasses',
    abstract: 'We study annealing schedules on spin glass instances.',
    base: 0.8,
    side: 2,
  },
  {
    key: 'Y1',
    title: 'Equivariant message passing for molecules',
    abstract: 'Equivariant networks model molecular dynamics of small enzymes.',
    base: 0.7,
    side: 1,
  },
  {
    key: 'Y2',
    title: 'Superconducting qubit calibration',
    abstract: 'Calibration of superconducting qubits with reinforcement learning.',
    base: 0.7,
    side: 2,
  },
  {
    key: 'Z1',
    title: 'Coarse-grained molecular dynamics with learned potentials',
    abstract: 'Learned potentials speed up molecular dynamics simulation of proteins.',
    base: 0.6,
    side: 1,
  },
  {
    key: 'Z2',
    title: 'Topological codes under biased noise',
    abstract: 'Surface codes tailored to biased noise channels.',
    base: 0.6,
    side: 2,
  },
];

let runtime: TestRuntime;
let dimension: number;
let modelId: number;
const idOf = new Map<string, number>();
const keyOf = new Map<number, string>();
const vectorOf = new Map<string, number[]>();

const paperVector = (paper: CorpusPaper) =>
  Array.from({ length: dimension }, (_, i) =>
    i === 0 ? paper.base : i === paper.side ? Math.sqrt(1 - paper.base ** 2) : 0,
  );
const unit = (index: number) => Array.from({ length: dimension }, (_, i) => (i === index ? 1 : 0));
const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

async function signUp(email: string, summary = SUMMARY) {
  const users = new UserRepository(runtime.database.db);
  const user = await users.create({ email, researchSummaryEn: summary });
  await new VectorRepository(runtime.database.db).setUserVector(user.id, modelId, unit(0));
  return { id: user.id, headers: { authorization: `Bearer ${await runtime.app.signIn(user)}` } };
}

type Reader = Awaited<ReturnType<typeof signUp>>;

const EVERYTHING = '?excluded_jcr=&date_filter=不限&similarity_threshold=0';

async function recommend(reader: Reader, query = EVERYTHING) {
  const response = await runtime.app.inject({
    method: 'GET',
    url: `/api/auth/recommendations/papers/${query}`,
    headers: reader.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const keys = (body: { recommendations: { id: string }[] }) =>
  body.recommendations.map((paper) => keyOf.get(Number(paper.id)));

const post = (reader: Reader, url: string, method: 'POST' | 'DELETE' = 'POST', payload?: object) =>
  runtime.app.inject({ method, url, headers: reader.headers, ...(payload ? { payload } : {}) });

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
      title: paper.title,
      abstract: paper.abstract,
      authors: ['Ada Lovelace'],
      journalName: 'Journal of Tests',
      jcrTier: 3,
      publishedAt: daysAgo(10),
      source: 'test',
    })),
  );
  rows.forEach((row, index) => {
    const paper = CORPUS[index] as CorpusPaper;
    idOf.set(paper.key, row.id);
    keyOf.set(row.id, paper.key);
    vectorOf.set(paper.key, paperVector(paper));
  });
  await new VectorRepository(runtime.database.db).setVectors(
    'papers',
    modelId,
    CORPUS.map((paper) => ({ id: String(idOf.get(paper.key)), vector: vectorOf.get(paper.key) as number[] })),
  );
  await papers.analyze();
});

afterAll(async () => {
  await runtime?.stop();
});

describe('learning from favourites and "not interested"', () => {
  it('ranks by the summary alone until there are signals, then by the learned profile', async () => {
    const reader = await signUp('learner@example.org');
    const plain = await recommend(reader);
    expect(keys(plain)).toEqual(['X1', 'X2', 'Y1', 'Y2', 'Z1', 'Z2']);
    expect(plain.learning).toEqual({ applied: false, signal_count: 0, classifier: false });

    expect((await post(reader, `/articles/${idOf.get('X1')}/favorite/`)).json()).toMatchObject({ is_favorited: true });
    const dismissed = await post(reader, `/articles/${idOf.get('X2')}/not-interested/`);
    expect(dismissed.statusCode).toBe(200);
    expect(dismissed.json()).toEqual({ success: true, id: String(idOf.get('X2')), not_interested: true });

    // Before the worker ran: the dismissed paper is gone at once, the order is still the plain one.
    const beforeLearning = await recommend(reader);
    expect(keys(beforeLearning)).toEqual(['X1', 'Y1', 'Y2', 'Z1', 'Z2']);
    expect(beforeLearning.learning).toEqual({ applied: false, signal_count: 2, classifier: false });

    const status = async () =>
      (
        await runtime.app.inject({ method: 'GET', url: '/api/auth/recommendations/learning/', headers: reader.headers })
      ).json();
    expect(await status()).toMatchObject({ signal_count: 2, applied: false, updated_at: null });

    expect(await learn(reader)).toMatchObject({ outcome: 'learned', liked: 1, dismissed: 1 });
    expect(await status()).toMatchObject({ signal_count: 2, liked_count: 1, dismissed_count: 1, applied: true });
    const learned = await recommend(reader);
    expect(learned.learning).toEqual({ applied: true, signal_count: 2, classifier: false });
    // The learned profile is Rocchio over the stored vectors; the database must rank exactly by it.
    const profile = learnedProfileVector(unit(0), [vectorOf.get('X1') as number[]], [vectorOf.get('X2') as number[]]);
    const expected = CORPUS.filter((paper) => paper.key !== 'X2')
      .map((paper) => ({ key: paper.key, score: dot(profile, vectorOf.get(paper.key) as number[]) }))
      .sort((a, b) => b.score - a.score)
      .map((entry) => entry.key);
    expect(keys(learned)).toEqual(expected);
    // Every paper on the liked side now ranks above its twin on the dismissed side.
    const order = keys(learned);
    expect(order.indexOf('Y1')).toBeLessThan(order.indexOf('Y2'));
    expect(order.indexOf('Z1')).toBeLessThan(order.indexOf('Z2'));
    // The shown similarity (and the threshold) stay about the research summary: learning only reorders.
    for (const paper of learned.recommendations) {
      const entry = CORPUS.find((candidate) => candidate.key === keyOf.get(Number(paper.id))) as CorpusPaper;
      expect(paper.similarity_score).toBeCloseTo(entry.base, 4);
    }
    // So a threshold keeps the same papers, in the learned order: Z1 and Z2 (0.6) fall below 0.65.
    expect(keys(await recommend(reader, '?excluded_jcr=&date_filter=不限&similarity_threshold=0.65'))).toEqual(
      expected.filter((key) => key !== 'Z1' && key !== 'Z2'),
    );
    // The summary's own vector is untouched: learning never replaces it.
    const user = await new UserRepository(runtime.database.db).findById(reader.id);
    expect(user?.profileEmbedding).toEqual(unit(0));
    expect(user?.researchSummaryEn).toBe(SUMMARY);
  });

  it('never returns a dismissed paper, under any filter, until the undo', async () => {
    const reader = await signUp('dismisser@example.org');
    await post(reader, `/articles/${idOf.get('Y1')}/not-interested/`);
    await learn(reader);
    for (const query of [EVERYTHING, '?excluded_jcr=&date_filter=一月内&similarity_threshold=0&top_k=50']) {
      expect(keys(await recommend(reader, query))).not.toContain('Y1');
    }
    // Twice is the same as once; undo brings it back.
    expect((await post(reader, `/articles/${idOf.get('Y1')}/not-interested/`)).json().not_interested).toBe(true);
    const undo = await post(reader, `/articles/${idOf.get('Y1')}/not-interested/`, 'DELETE');
    expect(undo.json()).toEqual({ success: true, id: String(idOf.get('Y1')), not_interested: false });
    await learn(reader);
    const after = await recommend(reader);
    expect(keys(after)).toContain('Y1');
    expect(after.learning).toEqual({ applied: false, signal_count: 0, classifier: false });
  });

  it('reset goes back to the summary alone; dismissed papers stay hidden', async () => {
    const reader = await signUp('resetter@example.org');
    await post(reader, `/articles/${idOf.get('Z1')}/save/`);
    await post(reader, `/articles/${idOf.get('Y1')}/read/`, 'POST', { progress: 60 });
    await post(reader, `/articles/${idOf.get('Z2')}/not-interested/`);
    await learn(reader);
    const status = (
      await runtime.app.inject({ method: 'GET', url: '/api/auth/recommendations/learning/', headers: reader.headers })
    ).json();
    expect(status).toMatchObject({
      success: true,
      signal_count: 3,
      liked_count: 2,
      dismissed_count: 1,
      applied: true,
      reset_at: null,
    });
    expect(LEARNING_TEXTS.adjusted(status.signal_count)).toBe('推荐已根据你的 3 次收藏/评分/不感兴趣调整');
    expect(keys(await recommend(reader))).not.toEqual(['X1', 'X2', 'Y1', 'Y2', 'Z1']);

    const reset = await post(reader, '/api/auth/recommendations/learning/reset/');
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({ signal_count: 0, liked_count: 0, dismissed_count: 0, applied: false });
    expect(reset.json().reset_at).toEqual(expect.any(String));
    const plain = await recommend(reader);
    expect(plain.learning).toEqual({ applied: false, signal_count: 0, classifier: false });
    expect(keys(plain)).toEqual(['X1', 'X2', 'Y1', 'Y2', 'Z1']);
    // A learning run after the reset (a job queued before it) finds no signals and keeps it plain.
    expect(await learn(reader)).toMatchObject({ outcome: 'plain', reason: 'no-signals' });
    expect(keys(await recommend(reader))).toEqual(['X1', 'X2', 'Y1', 'Y2', 'Z1']);
  });

  it('a reset made while the profile was computed wins; a re-embedded summary asks for a recomputation', async () => {
    const reader = await signUp('racer@example.org');
    await post(reader, `/articles/${idOf.get('X1')}/favorite/`);
    const learning = new LearningRepository(runtime.database.db);
    const before = await learning.state(reader.id);
    if (!before) throw new Error('no state');
    await post(reader, '/api/auth/recommendations/learning/reset/');
    const stale = { modelId, vector: unit(1) };
    expect(await learning.saveLearned(reader.id, stale, before)).toBe(false);
    expect((await recommend(reader)).learning).toEqual({ applied: false, signal_count: 0, classifier: false });

    // A new signal, learned; then the summary is re-embedded: the learned profile is behind it.
    await post(reader, `/articles/${idOf.get('Y1')}/favorite/`);
    await learn(reader);
    expect((await learning.state(reader.id))?.changedSinceLearned).toBe(false);
    await new VectorRepository(runtime.database.db).setUserVector(reader.id, modelId, unit(0));
    expect((await learning.state(reader.id))?.changedSinceLearned).toBe(true);
    const queue = runtime.parts.queues.profileLearning;
    await queue.drain();
    await recommend(reader);
    const waiting = await queue.getJobs(['waiting', 'prioritized', 'delayed']);
    expect(waiting.map((job) => job.data)).toContainEqual({ userId: reader.id });
  });

  it("leaves the feed's order alone for a keyword's negative terms, which are for its alerts only", async () => {
    const reader = await signUp('negative@example.org');
    const plain = await recommend(reader);
    const keywords = new KeywordRepository(runtime.database.db);
    const created = await keywords.create(reader.id, 'protein', 20);
    if (!('created' in created)) throw new Error('keyword not created');
    await keywords.updateOwned(created.created.id, reader.id, { negativeTerms: ['graph neural network'] });
    const body = await recommend(reader);
    // X1 (0.8) says 'graph neural network': still first, with its own reason, as without the keyword.
    expect(keys(body)).toEqual(keys(plain));
    expect(keys(body)[0]).toBe('X1');
    const x1 = body.recommendations.find((paper: { id: string }) => paper.id === String(idOf.get('X1')));
    expect(x1.similarity_score).toBeCloseTo(0.8, 5);
    expect(x1.reason.text).not.toContain('排除词');
  });

  it('refuses unknown, malformed and unauthenticated "not interested" calls', async () => {
    const reader = await signUp('strict@example.org');
    expect((await post(reader, '/articles/999999999/not-interested/')).statusCode).toBe(404);
    expect((await post(reader, '/articles/abc/not-interested/')).statusCode).toBe(404);
    expect((await post(reader, '/api/news/999999999/not-interested/', 'DELETE')).statusCode).toBe(404);
    const anonymous = await runtime.app.inject({ method: 'POST', url: `/articles/${idOf.get('X1')}/not-interested/` });
    expect(anonymous.statusCode).toBe(401);
    expect(
      (await runtime.app.inject({ method: 'POST', url: '/api/auth/recommendations/learning/reset/' })).statusCode,
    ).toBe(401);
  });
});

describe('reasons', () => {
  const textOf = (key: string) => {
    const paper = CORPUS.find((entry) => entry.key === key) as CorpusPaper;
    return `${paper.title} ${paper.abstract}`.toLowerCase();
  };
  const stemIn = (term: string, text: string) =>
    term
      .toLowerCase()
      .split(/\s+/)
      .every((word) => text.includes(word.replace(/s$/, '')));

  it('name profile terms the paper really shares with the research summary', async () => {
    const reader = await signUp('reasons@example.org');
    const body = await recommend(reader);
    const x1 = body.recommendations.find((paper: { id: string }) => paper.id === String(idOf.get('X1')));
    expect(x1.reason.kind).toBe('terms');
    expect(x1.reason.terms.length).toBeGreaterThan(0);
    for (const term of x1.reason.terms) {
      expect(stemIn(term, textOf('X1')), term).toBe(true);
      expect(stemIn(term, SUMMARY.toLowerCase()), term).toBe(true);
      expect(x1.reason.text).toContain(term);
    }
    // A paper that shares no word with the summary is explained as a whole-profile likeness.
    const z2 = body.recommendations.find((paper: { id: string }) => paper.id === String(idOf.get('Z2')));
    expect(z2.reason).toEqual({ kind: 'profile', text: expect.any(String), terms: [] });
  });

  it('name the followed keyword a paper matches', async () => {
    const reader = await signUp('keyword-reasons@example.org');
    await new KeywordRepository(runtime.database.db).create(reader.id, 'qubits', 20);
    const body = await recommend(reader);
    const y2 = body.recommendations.find((paper: { id: string }) => paper.id === String(idOf.get('Y2')));
    expect(y2.reason.kind).toBe('keyword');
    expect(y2.reason.terms[0]).toBe('qubits');
    expect(y2.reason.text).toContain('qubits');
  });

  it('name the saved paper that drove a recommendation', async () => {
    const reader = await signUp('saved-reasons@example.org');
    await post(reader, `/articles/${idOf.get('X1')}/save/`);
    await learn(reader);
    const body = await recommend(reader);
    // Y1 is far closer to X1 (cos 0.99) than to the summary (0.7).
    const y1 = body.recommendations.find((paper: { id: string }) => paper.id === String(idOf.get('Y1')));
    expect(y1.reason.kind).toBe('saved');
    expect(y1.reason.text).toContain('《Graph neural networks predict');
    // The e2 side is not close to X1: no 'saved' reason there.
    const y2 = body.recommendations.find((paper: { id: string }) => paper.id === String(idOf.get('Y2')));
    expect(y2.reason.kind).not.toBe('saved');
  });
});

describe('empty results explain themselves', () => {
  it('nothing in the window: suggests the narrowest window that has papers', async () => {
    const reader = await signUp('window@example.org');
    const body = await recommend(reader, '?excluded_jcr=&date_filter=一周内&similarity_threshold=0');
    expect(body.recommendations).toEqual([]);
    expect(body.empty_explanation).toMatchObject({ cause: 'nothing_in_window', change: { date_filter: '一月内' } });
    expect(body.empty_explanation.suggestion).toContain('6 篇');
    const applied = await recommend(reader, '?excluded_jcr=&date_filter=一月内&similarity_threshold=0');
    expect(applied.recommendations).toHaveLength(6);
    expect(applied.empty_explanation).toBeNull();
  });

  it('everything in excluded tiers: suggests including them', async () => {
    const reader = await signUp('tiers@example.org');
    const body = await recommend(reader, '?date_filter=一月内&similarity_threshold=0');
    expect(body.empty_explanation).toMatchObject({ cause: 'excluded_tiers', change: { excluded_jcr: '' } });
  });

  it('everything below the threshold: suggests the threshold that lets the closest through', async () => {
    const reader = await signUp('threshold@example.org');
    const body = await recommend(reader, '?excluded_jcr=&date_filter=不限&similarity_threshold=0.95');
    expect(body.empty_explanation).toMatchObject({
      cause: 'below_threshold',
    });
    // On the slider's 5 % grid and at most the closest similarity (0.8, give or take float32 rounding),
    // so applying it lets X1 and X2 in.
    const lowered = body.empty_explanation.change.similarity_threshold;
    expect(['0.80', '0.75']).toContain(lowered);
    expect(Number(lowered)).toBeLessThanOrEqual(0.8);
    expect(body.empty_explanation.suggestion).toContain(`${Math.round(Number(lowered) * 100)}%`);
    const applied = await recommend(reader, `?excluded_jcr=&date_filter=不限&similarity_threshold=${lowered}`);
    expect(keys(applied)).toEqual(['X1', 'X2']);
  });

  it('every candidate dismissed', async () => {
    const reader = await signUp('all-dismissed@example.org');
    for (const paper of CORPUS) await post(reader, `/articles/${idOf.get(paper.key)}/not-interested/`);
    const body = await recommend(reader);
    expect(body.recommendations).toEqual([]);
    expect(body.empty_explanation.cause).toBe('all_dismissed');
  });

  it('news: no items at all, then items not yet embedded; freshness says when sources last brought any', async () => {
    const reader = await signUp('news-empty@example.org');
    const url = '/api/news/recommendations/?date_filter=不限&similarity_threshold=0';
    const first = (await runtime.app.inject({ method: 'GET', url, headers: reader.headers })).json();
    expect(first.data).toEqual([]);
    expect(first.empty_explanation).toMatchObject({ cause: 'no_items', change: null });
    expect(first.freshness).toEqual({
      last_new_item_at: null,
      last_checked_at: null,
      last_success_at: null,
      new_items_last_7_days: 0,
    });

    const news = new NewsRepository(runtime.database.db);
    const [item] = await news.insertMany([
      {
        title: 'Lab wins award',
        content: 'Protein lab news.',
        url: 'https://example.org/n/1',
        urlNormalized: 'example.org/n/1',
        source: 'test',
      },
    ]);
    const second = (await runtime.app.inject({ method: 'GET', url, headers: reader.headers })).json();
    expect(second.empty_explanation).toMatchObject({ cause: 'items_not_embedded' });
    expect(second.freshness.new_items_last_7_days).toBe(1);
    expect(Date.parse(second.freshness.last_new_item_at)).toBeGreaterThan(Date.now() - 60_000);

    await new VectorRepository(runtime.database.db).setVectors('news', modelId, [
      { id: String(item?.id), vector: unit(0) },
    ]);
    const third = (await runtime.app.inject({ method: 'GET', url, headers: reader.headers })).json();
    expect(third.data.map((entry: { id: string }) => entry.id)).toEqual([String(item?.id)]);
    expect(third.data[0].reason.kind).toBe('terms');
    expect(third.data[0].reason.terms).toContain('protein');
    expect(third.empty_explanation).toBeNull();

    // 'Not interested' on news: gone from the list, explained, and back after the undo.
    await post(reader, `/api/news/${item?.id}/not-interested/`);
    const fourth = (await runtime.app.inject({ method: 'GET', url, headers: reader.headers })).json();
    expect(fourth.data).toEqual([]);
    expect(fourth.empty_explanation.cause).toBe('all_dismissed');
    await post(reader, `/api/news/${item?.id}/not-interested/`, 'DELETE');
    const fifth = (await runtime.app.inject({ method: 'GET', url, headers: reader.headers })).json();
    expect(fifth.data).toHaveLength(1);
  });
});

describe('OpenAPI document', () => {
  it('documents reason {kind, text, terms[]}, the "not interested" calls and the learning status', async () => {
    const doc = (await runtime.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const papers =
      doc.paths['/api/auth/recommendations/papers/'].get.responses['200'].content['application/json'].schema;
    const reason = papers.properties.recommendations.items.properties.reason;
    expect(reason.required).toEqual(expect.arrayContaining(['kind', 'text', 'terms']));
    expect(reason.properties.kind.enum).toEqual(['saved', 'keyword', 'terms', 'profile', 'interest']);
    expect(reason.properties.terms).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(papers.properties).toHaveProperty('empty_explanation');
    expect(papers.properties).toHaveProperty('freshness');
    const news = doc.paths['/api/news/recommendations/'].get.responses['200'].content['application/json'].schema;
    expect(news.properties.data.items.properties).toHaveProperty('reason');
    expect(doc.paths['/articles/{id}/not-interested/']).toHaveProperty('post');
    expect(doc.paths['/articles/{id}/not-interested/']).toHaveProperty('delete');
    expect(doc.paths['/api/news/{id}/not-interested/']).toHaveProperty('delete');
    expect(doc.paths['/api/auth/recommendations/learning/']).toHaveProperty('get');
    expect(doc.paths['/api/auth/recommendations/learning/reset/']).toHaveProperty('post');
  });
});
