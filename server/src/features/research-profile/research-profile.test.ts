import fs from 'node:fs';
import { apiError, type FakeOpenAiServer, researchProfileAnswer, startFakeOpenAi } from '@radar/ai/testing';
import { EmbeddingRepository, UserRepository } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * Research-direction analysis, tasks, confirm, profile vector and stats over HTTP, on the real
 * runtime (database, queue and in-process worker). First with no AI configured (offline rules and
 * the built-in embedder), then with an OpenAI-compatible server started by the test.
 */

const homepage = (name: string) =>
  fs.readFileSync(new URL(`../../../../packages/ai/test/fixtures/homepages/${name}`, import.meta.url), 'utf8');

async function signUp(runtime: TestRuntime, email: string) {
  const user = await new UserRepository(runtime.database.db).create({ email });
  return { user, headers: { authorization: `Bearer ${await runtime.app.signIn(user)}` } };
}

type Headers = Record<string, string>;

const submit = (runtime: TestRuntime, headers: Headers, text: unknown) =>
  runtime.app.inject({
    method: 'POST',
    url: '/api/auth/research-direction/process-async/',
    headers,
    payload: { research_description: text },
  });

async function pollTask(runtime: TestRuntime, headers: Headers, taskId: string) {
  for (let i = 0; i < 300; i++) {
    const response = await runtime.app.inject({ method: 'GET', url: `/api/auth/tasks/${taskId}/status/`, headers });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    if (body.status === 'completed' || body.status === 'failed') return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`task ${taskId} did not finish`);
}

const confirm = (runtime: TestRuntime, headers: Headers, payload: Record<string, unknown>) =>
  runtime.app.inject({ method: 'POST', url: '/api/auth/research-direction/confirm/', headers, payload });

const stats = async (runtime: TestRuntime, headers: Headers) => {
  const response = await runtime.app.inject({ method: 'GET', url: '/api/auth/recommendations/stats/', headers });
  expect(response.statusCode).toBe(200);
  return response.json();
};

const SUMMARY =
  'Her research focuses on trustworthy machine learning under distribution shift, robustness of large language models and evaluation methods for reliable deployment in medical imaging.';

describe('with no AI configured (offline rules, built-in embedder)', () => {
  let runtime: TestRuntime;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let other: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    runtime = await startTestRuntime();
    owner = await signUp(runtime, 'owner@example.org');
    other = await signUp(runtime, 'other@example.org');
  });
  afterAll(async () => {
    await runtime?.stop();
  });

  it('requires a login on every endpoint', async () => {
    for (const [method, url] of [
      ['POST', '/api/auth/research-direction/process-async/'],
      ['POST', '/api/auth/research-direction/process/'],
      ['POST', '/api/auth/research-direction/confirm/'],
      ['GET', '/api/auth/tasks/00000000-0000-4000-8000-000000000000/status/'],
      ['POST', '/api/auth/vector/update/'],
      ['GET', '/api/auth/recommendations/stats/'],
    ] as const) {
      const response = await runtime.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      expect(response.statusCode, url).toBe(401);
      expect(response.json().code).toBe('AUTH_REQUIRED');
    }
  });

  it('documents the endpoints in the OpenAPI description', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    for (const path of [
      '/api/auth/research-direction/process-async/',
      '/api/auth/research-direction/process/',
      '/api/auth/research-direction/confirm/',
      '/api/auth/tasks/{id}/status/',
      '/api/auth/vector/update/',
      '/api/auth/recommendations/stats/',
    ]) {
      expect(paths).toContain(path);
    }
  });

  it('refuses an empty, blank, missing, non-text or too long description with the spec message', async () => {
    for (const text of ['', '   \n ', undefined, 42]) {
      const response = await submit(runtime, owner.headers, text);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    }
    expect((await submit(runtime, owner.headers, '  ')).json().message).toContain('研究方向不能为空');
    const long = await submit(runtime, owner.headers, 'x'.repeat(3001));
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain('3000');
    expect((await submit(runtime, owner.headers, 'x'.repeat(3000))).statusCode).toBe(202);
    // Characters as a reader counts them, as the dialog's counter does: an emoji is one, not two UTF-16 units.
    const emojiRich = `Research on coral reefs ${'🪸'.repeat(2900)}`;
    expect(emojiRich.length).toBeGreaterThan(3000);
    expect((await submit(runtime, owner.headers, emojiRich)).statusCode).toBe(202);
    expect((await submit(runtime, owner.headers, `${emojiRich}${'🪸'.repeat(100)}`)).json().message).toContain('3000');
  });

  it('refuses a description without research content (emoji only, a few characters) before analysis, saying what to paste', async () => {
    for (const text of ['😀🔬🧬', '👍 hi', '。。。！！！', '12345 678']) {
      const response = await submit(runtime, owner.headers, text);
      expect(response.statusCode, text).toBe(400);
      expect(response.json().message, text).toContain('请粘贴说明研究内容的文字');
    }
    // Four characters of a topic are enough, in any script.
    expect((await submit(runtime, owner.headers, '量子计算')).statusCode).toBe(202);
    expect((await submit(runtime, owner.headers, '🧬 CRISPR')).statusCode).toBe(202);
  });

  it('analyses pasted text as a task the owner polls: pending, then completed with the profile fields', async () => {
    const response = await submit(runtime, owner.headers, homepage('en-cs-associate-professor.txt'));
    expect(response.statusCode).toBe(202);
    const { task_id: taskId, status } = response.json();
    expect(status).toBe('pending');
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);

    const task = await pollTask(runtime, owner.headers, taskId);
    expect(task).toMatchObject({ task_id: taskId, status: 'completed', progress: 100, error_message: null });
    expect(task.result_data).toMatchObject({
      name: 'Jane M. Okafor',
      email: 'jokafor@cs.stanford.edu',
      institution: 'Stanford University',
      position: 'Associate Professor',
      research_fields: ['computer-science'],
      source: 'offline',
      model: 'offline-rules',
      notices: [],
    });
    expect(task.result_data.research_summary_en).toMatch(/^My research focuses on/);
    const stored = await new UserRepository(runtime.database.db).findById(owner.user.id);
    expect(stored?.researchDescription).toContain('Jane M. Okafor');
  });

  it('shows a task only to its owner: others get the same 404 as for a missing task', async () => {
    const { task_id: taskId } = (
      await submit(runtime, owner.headers, 'My research focuses on graph algorithms.')
    ).json();
    const foreign = await runtime.app.inject({
      method: 'GET',
      url: `/api/auth/tasks/${taskId}/status/`,
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ code: 'NOT_FOUND', message: '任务不存在' });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1' OR '1'='1"]) {
      const missing = await runtime.app.inject({
        method: 'GET',
        url: `/api/auth/tasks/${encodeURIComponent(id)}/status/`,
        headers: owner.headers,
      });
      expect(missing.statusCode).toBe(404);
    }
  });

  it('completes a Chinese-only text with an English draft glossed offline, marked as such, and a notice', async () => {
    const { task_id: taskId } = (await submit(runtime, other.headers, homepage('zh-cs-professor.txt'))).json();
    const task = await pollTask(runtime, other.headers, taskId);
    expect(task.status).toBe('completed');
    expect(task.result_data).toMatchObject({
      name: '张伟',
      research_fields: ['computer-science'],
      research_direction_origin: 'offline-gloss',
    });
    expect(task.result_data.research_summary_en).toMatch(/^Research interests: distributed system, cloud computing/);
    expect(task.result_data.notices[0]).toContain('逐词翻译生成的草稿');
  });

  it('keeps an empty summary and says why when a Chinese text names no research term', async () => {
    const { task_id: taskId } = (await submit(runtime, other.headers, '张伟 教授\n欢迎访问我的个人主页。')).json();
    const task = await pollTask(runtime, other.headers, taskId);
    expect(task.status).toBe('completed');
    expect(task.result_data.research_summary_en).toBe('');
    expect(task.result_data).not.toHaveProperty('research_direction_origin');
    expect(task.result_data.notices[0]).toContain('没有英文的研究描述');
  });

  it("a historian's Chinese page: history on evidence, and an English draft the result says was glossed offline", async () => {
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/api/auth/research-direction/process/',
      headers: other.headers,
      payload: { research_description: homepage('zh-history-ming-qing.txt') },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().result_data).toMatchObject({
      name: '陈思远',
      institution: '复旦大学历史学系',
      research_fields: ['history'],
      research_direction_origin: 'offline-gloss',
      source: 'offline',
      model: 'offline-rules',
    });
    expect(response.json().result_data.research_summary_en).toMatch(
      /^Research interests: Ming-Qing China, socio-economic history, maritime history/,
    );
  });

  it('runs the same pipeline synchronously on /process/', async () => {
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/api/auth/research-direction/process/',
      headers: owner.headers,
      payload: { research_description: homepage('zh-materials-bilingual.txt') },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: 'completed', result_data: { name: '李娜', email: 'lina@iphy.ac.cn' } });
    const task = await pollTask(runtime, owner.headers, body.task_id);
    expect(task.result_data).toEqual(body.result_data);
  });

  it('has no profile vector before the research info is confirmed', async () => {
    const body = await stats(runtime, other.headers);
    expect(body.current_user).toMatchObject({
      has_vector: false,
      has_research_summary: false,
      available_recommendations: 0,
    });
    expect(body.service_status).toMatchObject({
      model_name: 'hashing-512',
      vector_dimension: 512,
      embedding_provider: 'builtin',
      llm_provider: 'offline',
      llm_model: 'offline-rules',
    });
  });

  it('confirm saves the six fields with the profile rules and computes the profile vector', async () => {
    const response = await confirm(runtime, owner.headers, {
      research_name: '  Jane Okafor ',
      research_email: 'jokafor (at) cs.stanford.edu',
      research_institution: 'Stanford University',
      research_position: 'Associate Professor',
      research_fields: 'Computer Science, 医学, Quantum Basket Weaving, computer-science',
      research_summary_en: SUMMARY,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      success: true,
      has_vector: true,
      unmapped_research_fields: ['Quantum Basket Weaving'],
      user: {
        research_name: 'Jane Okafor',
        research_email: 'jokafor@cs.stanford.edu',
        research_fields: 'computer-science,medicine,Quantum Basket Weaving',
        research_summary_en: SUMMARY,
      },
    });
    const stored = await new UserRepository(runtime.database.db).findById(owner.user.id);
    const active = await new EmbeddingRepository(runtime.database.db).getActiveModel();
    expect(stored?.researchFields).toEqual(['computer-science', 'medicine']);
    expect(stored?.researchFieldsUnmapped).toEqual(['Quantum Basket Weaving']);
    expect(stored?.profileEmbeddingModelId).toBe(active?.id);
    expect(stored?.profileEmbedding).toHaveLength(512);

    const after = await stats(runtime, owner.headers);
    expect(after.current_user).toMatchObject({ has_vector: true, has_research_summary: true });
    expect(after.current_user.vector_updated_at).not.toBeNull();
  });

  it('confirm keeps fields it was not sent, refuses an invalid email, and clears the vector with the summary', async () => {
    const partial = await confirm(runtime, owner.headers, { research_position: 'Professor' });
    expect(partial.json().user).toMatchObject({ research_position: 'Professor', research_name: 'Jane Okafor' });

    const bad = await confirm(runtime, owner.headers, { research_email: 'not an address' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: { research_email: ['邮箱格式不正确'] } });

    const cleared = await confirm(runtime, owner.headers, { research_summary_en: '' });
    expect(cleared.json().has_vector).toBe(false);
    expect((await new UserRepository(runtime.database.db).findById(owner.user.id))?.profileEmbedding).toBeNull();
  });

  it('vector update recomputes the vector, and refuses without a research summary', async () => {
    const none = await runtime.app.inject({ method: 'POST', url: '/api/auth/vector/update/', headers: owner.headers });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ message: '请先设置研究方向', error_type: 'research_direction_not_set' });

    await confirm(runtime, owner.headers, { research_summary_en: SUMMARY });
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/api/auth/vector/update/',
      headers: owner.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      has_vector: true,
      model_name: 'hashing-512',
      model_version: '1',
      vector_dimension: 512,
    });
  });

  it('limits analyses per user', async () => {
    const limited = await signUp(runtime, 'limited@example.org');
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await submit(runtime, limited.headers, `Research on topic ${i}.`)).statusCode);
    expect(statuses.slice(0, 20).every((status) => status === 202)).toBe(true);
    const last = await submit(runtime, limited.headers, 'one more');
    expect(last.statusCode).toBe(429);
    expect(last.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // Other users are not affected.
    expect((await submit(runtime, other.headers, 'My research is on graph theory.')).statusCode).toBe(202);
  });
});

describe('with an OpenAI-compatible LLM and embedding model', () => {
  let runtime: TestRuntime;
  let fake: FakeOpenAiServer;
  let owner: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    fake.defaultChat = () => ({ content: researchProfileAnswer() });
    runtime = await startTestRuntime({
      env: {
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: 'sk-test',
        LLM_MODEL: 'fake-chat',
        LLM_TIMEOUT_MS: '2000',
        LLM_MAX_RETRIES: '0',
        EMBEDDING_MODEL: 'fake-embed',
        EMBEDDING_DIM: '24',
      },
    });
    owner = await signUp(runtime, 'llm-owner@example.org');
  });
  afterAll(async () => {
    await runtime?.stop();
    await fake?.close();
  });

  it('completes a task with the model answer, normalised', async () => {
    const { task_id: taskId } = (await submit(runtime, owner.headers, homepage('zh-cs-professor.txt'))).json();
    const task = await pollTask(runtime, owner.headers, taskId);
    expect(task.status).toBe('completed');
    expect(task.result_data).toMatchObject({
      email: 'jokafor@cs.stanford.edu',
      research_fields: ['computer-science', 'medicine'],
      source: 'llm',
      model: 'fake-chat',
    });
    // With an LLM the Chinese page is translated by the model: no glossed draft.
    expect(task.result_data).not.toHaveProperty('research_direction_origin');
    const request = fake.chatRequests().at(-1);
    expect(JSON.stringify(request?.body.messages)).toContain('清华大学');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
  });

  it('fails a task with a readable message when the answer is malformed twice', async () => {
    fake.queueChat({ content: 'not json' }, { content: '{"name": 1}' });
    const { task_id: taskId } = (
      await submit(runtime, owner.headers, 'My research focuses on graph algorithms.')
    ).json();
    const task = await pollTask(runtime, owner.headers, taskId);
    expect(task).toMatchObject({
      status: 'failed',
      error_message: 'AI 返回的结果格式不正确，请重试',
      result_data: null,
    });
  });

  it('answers 504 on /process/ when the model does not answer in time', async () => {
    fake.queueChat({ hang: true });
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/api/auth/research-direction/process/',
      headers: owner.headers,
      payload: { research_description: 'My research focuses on graph algorithms.' },
    });
    expect(response.statusCode).toBe(504);
    expect(response.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: '研究方向处理超时，请重试' });
  });

  it('confirm embeds the profile with the configured model; stats report both models', async () => {
    fake.requests.length = 0;
    const response = await confirm(runtime, owner.headers, {
      research_summary_en: SUMMARY,
      research_fields: ['biology'],
    });
    expect(response.json().has_vector).toBe(true);
    const embedded = fake.embeddingRequests().map((request) => request.body.input);
    expect(embedded).toContainEqual([SUMMARY]);
    const body = await stats(runtime, owner.headers);
    expect(body.current_user.has_vector).toBe(true);
    expect(body.service_status).toMatchObject({
      model_name: 'fake-embed',
      model_version: 'd24',
      vector_dimension: 24,
      embedding_provider: 'openai-compatible',
      llm_provider: 'llm',
      llm_model: 'fake-chat',
    });
  });

  it('saves the profile even when the embedding endpoint fails, and reports no vector', async () => {
    fake.queueEmbeddings(apiError(401, 'bad key'));
    const response = await confirm(runtime, owner.headers, { research_summary_en: `${SUMMARY} Updated.` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ has_vector: false, user: { research_summary_en: `${SUMMARY} Updated.` } });
  });
});
