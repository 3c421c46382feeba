import { apiError, type FakeOpenAiServer, researchProfileAnswer, startFakeOpenAi } from '@radar/ai/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AiProviderError } from '../src/ai-errors';
import { OpenAiChatModel } from '../src/openai/openai-chat.adapter';
import { OpenAiEmbeddingProvider } from '../src/openai/openai-embeddings.adapter';
import { LlmResearchProfileExtractor } from '../src/research-profile';

/** The real `openai` client against a real HTTP server on 127.0.0.1 speaking the same protocol. */

let fake: FakeOpenAiServer;

beforeAll(async () => {
  fake = await startFakeOpenAi({ embeddingDimension: 16 });
});
afterAll(async () => {
  await fake?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.defaultChat = () => ({ content: '{}' });
  delete fake.onRequest;
});

/** When each request reached the server. */
function arrivals(): number[] {
  const times: number[] = [];
  fake.onRequest = () => times.push(Date.now());
  return times;
}

const chat = (options: Partial<ConstructorParameters<typeof OpenAiChatModel>[0]> = {}) =>
  new OpenAiChatModel({
    model: 'fake-chat',
    baseUrl: fake.url,
    apiKey: 'sk-test-key',
    timeoutMs: 5_000,
    maxRetries: 2,
    ...options,
  });

const schema = z.object({ answer: z.string(), score: z.number().int() });
const ask = (model: OpenAiChatModel) =>
  model.generateJson({ system: 'Be brief.', user: 'Rate this.', schema, schemaName: 'rating' });

async function failure(promise: Promise<unknown>): Promise<AiProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AiProviderError);
  return error as AiProviderError;
}

describe('chat adapter', () => {
  it('asks for JSON with the schema, sends the key, and returns the validated answer', async () => {
    fake.queueChat({ content: '{"answer":"good","score":4}' });
    expect(await ask(chat())).toEqual({ answer: 'good', score: 4 });
    const [request] = fake.chatRequests();
    expect(request?.headers.authorization).toBe('Bearer sk-test-key');
    expect(request?.body).toMatchObject({ model: 'fake-chat', response_format: { type: 'json_object' } });
    const messages = request?.body.messages as { role: string; content: string }[];
    expect(messages[0]?.content).toContain('"score"');
    expect(messages[1]).toEqual({ role: 'user', content: 'Rate this.' });
  });

  it('sends the schema as json_schema when configured, and accepts JSON in a Markdown fence', async () => {
    fake.queueChat({ content: '```json\n{"answer":"ok","score":1}\n```' });
    expect(await ask(chat({ jsonMode: 'json_schema' }))).toEqual({ answer: 'ok', score: 1 });
    expect(fake.chatRequests()[0]?.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'rating', schema: { type: 'object' } },
    });
  });

  it('retries a malformed answer once, telling the model what was wrong', async () => {
    fake.queueChat({ content: 'Sure! Here is my rating: good' }, { content: '{"answer":"good","score":3}' });
    expect(await ask(chat())).toEqual({ answer: 'good', score: 3 });
    expect(fake.chatRequests()).toHaveLength(2);
    const retry = fake.chatRequests()[1]?.body.messages as { role: string; content: string }[];
    expect(retry.at(-2)).toEqual({ role: 'assistant', content: 'Sure! Here is my rating: good' });
    expect(retry.at(-1)?.content).toContain('not valid JSON');
  });

  it('retries an answer of the wrong shape once, naming the field', async () => {
    fake.queueChat({ content: '{"answer":"good","score":"high"}' }, { content: '{"answer":"good","score":5}' });
    expect(await ask(chat())).toEqual({ answer: 'good', score: 5 });
    const retry = fake.chatRequests()[1]?.body.messages as { role: string; content: string }[];
    expect(retry.at(-1)?.content).toContain('score');
  });

  it('fails with a readable message when the answer is malformed twice', async () => {
    fake.queueChat({ content: '{"answer": "unterminated' }, { content: 'still not json' });
    const error = await failure(ask(chat()));
    expect(error.kind).toBe('invalid-output');
    expect(error.userMessage).toBe('AI 返回的结果格式不正确，请重试');
    expect(error.message).toContain('also after one retry');
    expect(fake.chatRequests()).toHaveLength(2);
  });

  // Retries are the openai SDK's (maxRetries = LLM_MAX_RETRIES); these check that they are wired up.
  it('retries 429 after the wait Retry-After asks for, then succeeds', async () => {
    const times = arrivals();
    fake.queueChat(apiError(429, 'slow down', { 'retry-after': '1' }), { content: '{"answer":"a","score":1}' });
    expect(await ask(chat())).toEqual({ answer: 'a', score: 1 });
    expect(fake.chatRequests()).toHaveLength(2);
    // The SDK's own first backoff is at most 0.5 s: a gap of a second is the server's Retry-After.
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('retries 5xx with backoff up to LLM_MAX_RETRIES, then fails as unavailable', async () => {
    fake.queueChat(apiError(502, 'bad gateway'), apiError(503, 'overloaded'), apiError(500, 'boom'));
    const error = await failure(ask(chat()));
    expect(error.kind).toBe('unavailable');
    expect(error.status).toBe(500);
    expect(error.isTransient).toBe(true);
    expect(error.userMessage).toBe('AI 服务暂时不可用，请稍后重试');
    expect(fake.chatRequests()).toHaveLength(3);

    // A retry would get the default answer, '{}', and fail differently.
    fake.queueChat(apiError(503, 'overloaded'));
    expect((await failure(ask(chat({ maxRetries: 0 })))).kind).toBe('unavailable');
    expect(fake.chatRequests()).toHaveLength(4);
  });

  it('does not wait in the call when Retry-After asks for more than a minute', async () => {
    fake.queueChat(apiError(429, 'quota', { 'retry-after': '3600' }));
    const error = await failure(ask(chat()));
    expect(error.kind).toBe('unavailable');
    expect(error.status).toBe(429);
    expect(fake.chatRequests()).toHaveLength(1);
  });

  it('does not retry other 4xx', async () => {
    fake.queueChat(apiError(401, 'invalid api key'));
    const error = await failure(ask(chat()));
    expect(error.kind).toBe('rejected');
    expect(error.status).toBe(401);
    expect(error.isTransient).toBe(false);
    expect(error.userMessage).toContain('AI 模型配置');
    expect(fake.chatRequests()).toHaveLength(1);

    fake.queueChat(apiError(400, 'response_format is not supported'));
    expect((await failure(ask(chat()))).kind).toBe('rejected');
    expect(fake.chatRequests()).toHaveLength(2);
  });

  it('gives up on requests that take longer than the time-out, after the configured retries', async () => {
    fake.queueChat({ hang: true }, { hang: true });
    const error = await failure(ask(chat({ timeoutMs: 300, maxRetries: 1 })));
    expect(error.kind).toBe('timeout');
    expect(error.isTransient).toBe(true);
    expect(error.userMessage).toBe('AI 服务响应超时，请稍后重试');
    expect(fake.chatRequests()).toHaveLength(2);
  });

  it('stops when the caller aborts', async () => {
    fake.queueChat({ hang: true });
    const controller = new AbortController();
    fake.onRequest = () => controller.abort();
    const error = await failure(chat().generateText({ system: 's', user: 'u', signal: controller.signal }));
    expect(error.kind).toBe('aborted');
  });

  // The SDK sleeps 30 s before its retry and looks at the signal only afterwards; the call must not wait.
  it('stops at once when the caller aborts while a retry is pending', { timeout: 10_000 }, async () => {
    fake.queueChat(apiError(503, 'busy', { 'retry-after': '30' }));
    const controller = new AbortController();
    fake.onRequest = () => setTimeout(() => controller.abort(), 50);
    const error = await failure(chat().generateText({ system: 's', user: 'u', signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(fake.chatRequests()).toHaveLength(1);
  });

  it('generates plain text', async () => {
    fake.queueChat({ content: '  一段中文摘要。 ' });
    expect(await chat().generateText({ system: 'Summarise in Chinese.', user: 'Abstract ...', maxTokens: 200 })).toBe(
      '  一段中文摘要。 ',
    );
    expect(fake.chatRequests()[0]?.body).toMatchObject({ max_tokens: 200 });
    expect(fake.chatRequests()[0]?.body.response_format).toBeUndefined();
  });
});

describe('research profile through the LLM', () => {
  it('normalises the answer: (at) to @, field labels to ids', async () => {
    fake.queueChat({ content: researchProfileAnswer() });
    const result = await new LlmResearchProfileExtractor(chat()).extract('x'.repeat(400));
    expect(result).toMatchObject({
      name: 'Jane Okafor',
      email: 'jokafor@cs.stanford.edu',
      institution: 'Stanford University',
      position: 'Associate Professor',
      research_fields: ['computer-science', 'medicine'],
      source: 'llm',
      model: 'fake-chat',
      notices: [],
    });
    const messages = fake.chatRequests()[0]?.body.messages as { content: string }[];
    expect(messages[0]?.content).toContain('Materials Science; Biology');
    expect(messages[1]?.content).toContain('x'.repeat(400));
  });

  it('treats a summary outside 80-250 words, or not in English, as malformed', async () => {
    fake.queueChat(
      { content: researchProfileAnswer({}, 30) },
      { content: researchProfileAnswer({ research_summary_en: '研究方向是机器学习。'.repeat(30) }) },
    );
    const error = await failure(new LlmResearchProfileExtractor(chat()).extract('y'.repeat(400)));
    expect(error.kind).toBe('invalid-output');
    const retry = fake.chatRequests()[1]?.body.messages as { content: string }[];
    expect(retry.at(-1)?.content).toContain('between 80 and 250 words');
  });
});

describe('embeddings adapter', () => {
  const provider = (options: Partial<Parameters<typeof OpenAiEmbeddingProvider.create>[0]> = {}) =>
    OpenAiEmbeddingProvider.create({
      model: 'fake-embed',
      baseUrl: fake.url,
      apiKey: 'sk-test-key',
      timeoutMs: 5_000,
      dimension: 16,
      ...options,
    });

  it('embeds in batches, in input order, as unit vectors, sending the configured dimension', async () => {
    const embedder = await provider({ batchSize: 2 });
    expect(embedder.model).toEqual({
      provider: 'openai-compatible',
      name: 'fake-embed',
      version: 'd16',
      dimension: 16,
    });
    const texts = ['graph neural networks', 'protein folding', 'graph neural networks', 'ocean currents', 'x'];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(5);
    expect(fake.embeddingRequests()).toHaveLength(3);
    expect(fake.embeddingRequests()[0]?.body).toMatchObject({
      model: 'fake-embed',
      dimensions: 16,
      encoding_format: 'float',
    });
    for (const vector of vectors) expect(Math.hypot(...vector)).toBeCloseTo(1, 6);
    // The server answers out of order; identical texts still get identical vectors in their own slots.
    expect(vectors[2]).toEqual(vectors[0]);
    expect(vectors[1]).not.toEqual(vectors[0]);
  });

  it('learns the dimension from the endpoint when none is configured', async () => {
    const embedder = await provider({ dimension: undefined });
    expect(embedder.model.dimension).toBe(16);
    expect(fake.embeddingRequests()[0]?.body.dimensions).toBeUndefined();
  });

  it('refuses vectors of another dimension than configured', async () => {
    fake.queueEmbeddings({
      body: { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [1, 0, 0] }], model: 'fake-embed' },
    });
    const embedder = await provider();
    const error = await failure(embedder.embed(['a text']));
    expect(error.message).toContain('returned 3 dimensions, expected 16');
  });

  it('retries 429/5xx and succeeds; fails at once on 4xx', async () => {
    const embedder = await provider();
    fake.queueEmbeddings(apiError(429, 'rate limited', { 'retry-after-ms': '20' }), apiError(503, 'busy'));
    expect(await embedder.embed(['one'])).toHaveLength(1);
    expect(fake.embeddingRequests()).toHaveLength(3);

    fake.queueEmbeddings(apiError(404, 'model not found'));
    expect((await failure(embedder.embed(['two']))).kind).toBe('rejected');
    expect(fake.embeddingRequests()).toHaveLength(4);
  });
});
