import { apiError, type FakeOpenAiServer, fakeEmbedding, startFakeOpenAi } from '@radar/ai/testing';
import { PaperRepository, sql, UserRepository } from '@radar/db';
import { calendarDayIn, DEFAULT_TIME_ZONE } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * Several research interests through the API, on the real runtime and database, with an embeddings
 * server (OpenAI wire protocol, on 127.0.0.1) whose vectors make the order known: every text about
 * "quantum" points along one axis, "coral" along another, and a paper's number (#n) moves it off its axis
 * by a growing amount, so within a topic #1 is the most similar. The research summary is about quantum
 * computing and 30 papers are (the dominant topic); 12 are about coral reefs. The same server answers
 * chat completions for the LLM rerank (LLM_RERANK=true): it fails unless a test queues an answer.
 */

const DIMENSION = 8;
const QUANTUM = 30;
const CORAL = 12;
const ALL = '?excluded_jcr=&date_filter=不限';

function knownVector(text: string): number[] {
  const lower = text.toLowerCase();
  const axis = lower.includes('quantum') ? 0 : lower.includes('coral') ? 1 : -1;
  if (axis < 0) return fakeEmbedding(text, DIMENSION);
  const vector = new Array<number>(DIMENSION).fill(0);
  vector[axis] = 1;
  const rank = Number(/#(\d+)/.exec(text)?.[1] ?? 0);
  vector[3] = 0.03 * rank;
  return vector;
}

interface Card {
  id: string;
  title: string;
  similarity_score: number;
  interest?: { id: string; name: string };
  rerank_reason?: string;
}

let fake: FakeOpenAiServer;
let runtime: TestRuntime;

async function reader(email: string) {
  const user = await new UserRepository(runtime.database.db).create({
    email,
    researchSummaryEn: 'Quantum computing: error correction for superconducting qubits.',
  });
  return { authorization: `Bearer ${await runtime.app.signIn(user)}` };
}

async function call(
  headers: Record<string, string>,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return runtime.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}

async function papers(headers: Record<string, string>, query = ALL): Promise<Card[]> {
  const response = await call(headers, 'GET', `/api/auth/recommendations/papers/${query}`);
  expect(response.statusCode).toBe(200);
  return response.json().recommendations as Card[];
}

const topic = (card: Card) => (card.title.startsWith('Quantum') ? 'quantum' : 'coral');

beforeAll(async () => {
  fake = await startFakeOpenAi({ embeddingDimension: DIMENSION });
  fake.embeddingOf = (text) => knownVector(text);
  fake.defaultChat = () => apiError(503, 'overloaded');
  runtime = await startTestRuntime({
    env: {
      RUN_WORKER: 'false',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'sk-test',
      EMBEDDING_MODEL: 'fake-embed',
      EMBEDDING_DIM: String(DIMENSION),
      LLM_MODEL: 'fake-chat',
      LLM_TIMEOUT_MS: '2000',
      LLM_MAX_RETRIES: '0',
      LLM_RERANK: 'true',
    },
  });
  const today = calendarDayIn(new Date(), DEFAULT_TIME_ZONE);
  const paper = (title: string, abstract: string, key: string) => ({
    title,
    authors: ['Test Author'],
    abstract,
    journalName: 'Test Journal',
    url: `https://example.org/${key}`,
    publishedAt: today,
    source: 'test',
  });
  await new PaperRepository(runtime.database.db).insertMany([
    ...Array.from({ length: QUANTUM }, (_, i) =>
      paper(`Quantum paper #${i + 1}`, 'A study of quantum error correction.', `q${i + 1}`),
    ),
    ...Array.from({ length: CORAL }, (_, i) =>
      paper(`Coral paper #${i + 1}`, 'A study of coral reef ecology.', `c${i + 1}`),
    ),
  ]);
  await runtime.parts.ai.embeddings.reembedStale();
}, 120_000);

afterAll(async () => {
  await runtime?.stop();
  await fake?.close();
});

describe('recommendations drawn from several interests', () => {
  it('with the research summary alone, ranks as before: the dominant topic only, no interest named', async () => {
    const headers = await reader('one-interest@example.org');
    const cards = await papers(headers);
    expect(cards).toHaveLength(20);
    expect(cards.map((card) => card.title)).toEqual(Array.from({ length: 20 }, (_, i) => `Quantum paper #${i + 1}`));
    expect(cards.every((card) => card.interest === undefined && card.rerank_reason === undefined)).toBe(true);
    // The LLM rerank failed (the server answered 503): the order above is the pipeline's, and it was logged.
    expect(runtime.logLines.some((line) => line.includes('LLM rerank failed'))).toBe(true);
  });

  it('gives each interest its quota, says which interest each card serves, with that interest’s similarity', async () => {
    const headers = await reader('two-interests@example.org');
    const created = await call(headers, 'POST', '/api/auth/interests/', {
      name: '珊瑚礁',
      description: 'Coral reef ecology and bleaching',
    });
    expect(created.statusCode).toBe(201);
    const list = created.json().interests as { id: string; kind: string; has_vector: boolean; share: number }[];
    expect(list.map((interest) => interest.kind)).toEqual(['summary', 'typed']);
    expect(list.every((interest) => interest.has_vector && interest.share === 0.5)).toBe(true);
    const coralId = list[1]?.id as string;

    const equal = await papers(headers);
    expect(equal).toHaveLength(20);
    expect(equal.filter((card) => topic(card) === 'coral')).toHaveLength(10);
    // Interleaved, the summary first, each topic in its own order.
    expect(equal.slice(0, 4).map((card) => card.title)).toEqual([
      'Quantum paper #1',
      'Coral paper #1',
      'Quantum paper #2',
      'Coral paper #2',
    ]);
    for (const card of equal) {
      expect(card.interest).toEqual(
        topic(card) === 'coral' ? { id: coralId, name: '珊瑚礁' } : { id: 'summary', name: '研究概述' },
      );
    }
    // The similarity shown is to the matched interest (a coral paper is far from the quantum summary).
    expect(equal.find((card) => card.title === 'Coral paper #1')?.similarity_score).toBeGreaterThan(0.99);

    // Quotas 8 : 2, the dominant topic's way: the coral interest still gets its share (4 of 20), at least half of it.
    expect((await call(headers, 'PATCH', '/api/auth/interests/summary/', { quota: 8 })).statusCode).toBe(200);
    const patched = await call(headers, 'PATCH', `/api/auth/interests/${coralId}/`, { quota: 2 });
    expect(patched.json().interests.map((interest: { share: number }) => interest.share)).toEqual([0.8, 0.2]);
    const weighted = await papers(headers);
    const coral = weighted.filter((card) => topic(card) === 'coral').length;
    expect(coral).toBe(4);
    expect(coral).toBeGreaterThanOrEqual(0.2 * 20 * 0.5);

    // And the other way round, 1 : 9: the research summary keeps at least half of its 10 %.
    await call(headers, 'PATCH', '/api/auth/interests/summary/', { quota: 1 });
    await call(headers, 'PATCH', `/api/auth/interests/${coralId}/`, { quota: 9 });
    const reversed = await papers(headers);
    // Only 12 coral papers exist: the quantum interest fills what coral cannot.
    expect(reversed.filter((card) => topic(card) === 'quantum').length).toBeGreaterThanOrEqual(1);
    expect(reversed.filter((card) => topic(card) === 'coral')).toHaveLength(CORAL);
  });

  it('makes an interest from favourites: the mean of their vectors', async () => {
    const headers = await reader('favourites@example.org');
    const all = await papers(headers, `${ALL}&similarity_threshold=0&top_k=50`);
    const coralIds = all
      .filter((card) => topic(card) === 'coral')
      .slice(0, 3)
      .map((card) => card.id);
    const refused = await call(headers, 'POST', '/api/auth/interests/', { name: '收藏', paper_ids: coralIds });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('只能选择你收藏的论文');
    for (const id of coralIds) expect((await call(headers, 'POST', `/articles/${id}/favorite/`)).statusCode).toBe(200);
    const created = await call(headers, 'POST', '/api/auth/interests/', { name: '收藏的珊瑚', paper_ids: coralIds });
    expect(created.statusCode).toBe(201);
    expect(created.json().interests[1]).toMatchObject({ kind: 'favourites', has_vector: true, paper_ids: coralIds });
    const cards = await papers(headers);
    expect(cards.filter((card) => card.interest?.name === '收藏的珊瑚').length).toBe(10);
  });

  it('puts interests back on the active model after their vectors went stale (a model change)', async () => {
    const headers = await reader('stale@example.org');
    await call(headers, 'POST', '/api/auth/interests/', { name: '珊瑚礁', description: 'Coral reef ecology' });
    // As after a switch to another model: no vector of the active one.
    await runtime.database.db.execute(sql`UPDATE radar.reader_interests SET embedding_model_id = NULL`);
    const stale = (await call(headers, 'GET', '/api/auth/interests/')).json().interests;
    expect(stale[1]).toMatchObject({ has_vector: false, share: 0 });
    // A waiting interest is not used: the list is the summary's alone, as with one interest.
    expect((await papers(headers)).every((card) => card.interest === undefined)).toBe(true);

    const result = await runtime.parts.ai.embeddings.reembedInterests();
    expect(result.failed).toBe(0);
    expect(result.embedded).toBeGreaterThanOrEqual(2);
    const again = (await call(headers, 'GET', '/api/auth/interests/')).json().interests;
    expect(again[1]).toMatchObject({ has_vector: true, share: 0.5 });
    expect((await papers(headers)).filter((card) => topic(card) === 'coral')).toHaveLength(10);
  });
});

describe('managing interests', () => {
  it('refuses a sixth interest, bad input and another reader’s interest, in Chinese', async () => {
    const headers = await reader('limits@example.org');
    const short = await call(headers, 'POST', '/api/auth/interests/', { name: '太短', description: 'ab' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields.description).toContain('兴趣描述至少 4 个字符');
    const both = await call(headers, 'POST', '/api/auth/interests/', {
      name: '两者',
      description: 'quantum optics',
      paper_ids: ['1'],
    });
    expect(both.statusCode).toBe(400);
    const longName = await call(headers, 'POST', '/api/auth/interests/', {
      name: '名'.repeat(31),
      description: 'quantum optics',
    });
    expect(longName.json().fields.name).toContain('兴趣名称不能超过 30 个字符');

    const ids: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const response = await call(headers, 'POST', '/api/auth/interests/', {
        name: `兴趣${i}`,
        description: `coral topic ${i}`,
      });
      expect(response.statusCode).toBe(201);
      ids.push(response.json().interests.at(-1).id);
    }
    const sixth = await call(headers, 'POST', '/api/auth/interests/', {
      name: '第六个',
      description: 'coral topic six',
    });
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: '最多保留 5 个研究兴趣（含研究概述），请先删除一个',
    });
    expect((await call(headers, 'GET', '/api/auth/interests/')).json().interests).toHaveLength(5);

    const renamed = await call(headers, 'PATCH', `/api/auth/interests/${ids[0]}/`, { name: '改名了' });
    expect(renamed.json().interests[1].name).toBe('改名了');
    const deleteSummary = await call(headers, 'DELETE', '/api/auth/interests/summary/');
    expect(deleteSummary.statusCode).toBe(400);
    expect(deleteSummary.json().message).toBe('研究概述是第一个研究兴趣，不能删除');
    const badQuota = await call(headers, 'PATCH', '/api/auth/interests/summary/', { quota: 11 });
    expect(badQuota.json().fields.quota).toContain('配额不能大于 10');

    const other = await reader('other@example.org');
    for (const [method, payload] of [
      ['PATCH', { name: '偷看' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await call(other, method, `/api/auth/interests/${ids[0]}/`, payload);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('研究兴趣不存在');
    }
    expect((await call(other, 'DELETE', '/api/auth/interests/not-a-number/')).statusCode).toBe(404);

    expect((await call(headers, 'DELETE', `/api/auth/interests/${ids[0]}/`)).json().interests).toHaveLength(4);
  });
});

describe('LLM rerank (LLM_RERANK)', () => {
  it('reorders the first papers by the LLM’s order with its Chinese reasons; a failure keeps the order', async () => {
    const headers = await reader('rerank@example.org');
    const before = fake.chatRequests().length;
    const normal = await papers(headers);
    expect(fake.chatRequests().length).toBe(before + 1);
    expect(normal.every((card) => card.rerank_reason === undefined)).toBe(true);

    // The LLM answers with every key, last first, a reason in Chinese each (and one unknown key, ignored).
    const keys = normal.map((_, index) => `P${index + 1}`).reverse();
    fake.queueChat({
      content: JSON.stringify({
        ranking: [
          ...keys.map((key) => ({ key, reason: `与量子纠错直接相关（${key}）` })),
          { key: 'P99', reason: '无' },
        ],
      }),
    });
    const reranked = await papers(headers);
    expect(reranked.map((card) => card.id)).toEqual([...normal].reverse().map((card) => card.id));
    expect(reranked[0]?.rerank_reason).toBe('与量子纠错直接相关（P20）');
    // Similarity stays the research summary's; the LLM gives no score.
    expect(reranked[0]?.similarity_score).toBe(normal.at(-1)?.similarity_score);
    const prompt = fake.chatRequests().at(-1)?.body.messages as { role: string; content: string }[];
    expect(prompt.find((message) => message.role === 'user')?.content).toContain('[P1] Quantum paper #1');

    // The same list again within minutes: the answer is reused, no second call.
    const calls = fake.chatRequests().length;
    expect((await papers(headers)).map((card) => card.id)).toEqual(reranked.map((card) => card.id));
    expect(fake.chatRequests().length).toBe(calls);
  });

  it('keeps the papers the LLM left out in their order after the ones it ranked, and drops a reason not in Chinese', async () => {
    const headers = await reader('rerank-partial@example.org');
    fake.queueChat({ content: JSON.stringify({ ranking: [{ key: 'P3', reason: 'closest to the summary' }] }) });
    const cards = await papers(headers);
    const titles = cards.map((card) => card.title);
    expect(titles.slice(0, 4)).toEqual([
      'Quantum paper #3',
      'Quantum paper #1',
      'Quantum paper #2',
      'Quantum paper #4',
    ]);
    expect(cards.every((card) => card.rerank_reason === undefined)).toBe(true);

    // An answer naming none of the papers is a failure: the pipeline's order.
    const other = await reader('rerank-nonsense@example.org');
    fake.queueChat({ content: JSON.stringify({ ranking: [{ key: 'X1', reason: '无关' }] }) });
    const fallback = await papers(other);
    expect(fallback.map((card) => card.title).slice(0, 3)).toEqual([
      'Quantum paper #1',
      'Quantum paper #2',
      'Quantum paper #3',
    ]);
  });
});
