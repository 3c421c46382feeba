import { SourceStateRepository, UserRepository, VectorRepository } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * An installation with nothing stored: the empty lists say what is missing and who can fix it, from the
 * sources file and the run records, and never promise content that no run will bring (issue 18). One
 * paper source is configured (scheduled runs off, as in every test runtime) and no news source.
 */

const SOURCES = {
  sources: [{ name: 'arxiv-cs', kind: 'arxiv', categories: ['cs.LG'] }],
};

let runtime: TestRuntime;
let headers: Record<string, string>;

beforeAll(async () => {
  runtime = await startTestRuntime({
    env: { RUN_WORKER: 'false', INGEST_SOURCES_JSON: JSON.stringify(SOURCES) },
  });
  const model = await runtime.parts.ai.embeddings.activeModel();
  const user = await new UserRepository(runtime.database.db).create({
    email: 'empty-install@example.org',
    researchSummaryEn: 'We study graph neural networks for protein structure prediction.',
  });
  await new VectorRepository(runtime.database.db).setUserVector(
    user.id,
    model.id,
    Array.from({ length: model.dimension }, (_, i) => (i === 0 ? 1 : 0)),
  );
  headers = { authorization: `Bearer ${await runtime.app.signIn(user)}` };
});

afterAll(() => runtime?.stop());

async function papersExplanation() {
  const response = await runtime.app.inject({
    method: 'GET',
    url: '/api/auth/recommendations/papers/?date_filter=不限&similarity_threshold=0',
    headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().empty_explanation;
}

describe('empty lists on an installation with nothing stored', () => {
  it('news with no news source configured: names the missing source and the administrator, no command', async () => {
    const response = await runtime.app.inject({
      method: 'GET',
      url: '/api/news/recommendations/?date_filter=不限&similarity_threshold=0',
      headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const explanation = response.json().empty_explanation;
    expect(explanation).toMatchObject({ cause: 'no_items', change: null });
    expect(explanation.message).toBe('还没有任何新闻：管理员尚未配置新闻来源');
    expect(explanation.suggestion).toBe('请联系管理员添加新闻来源');
  });

  it('papers: a configured source that never ran, with scheduled runs off, then failing, then finished empty', async () => {
    const neverRan = await papersExplanation();
    expect(neverRan).toMatchObject({ cause: 'no_items', change: null });
    expect(neverRan.message).toBe('还没有任何论文：论文来源已配置，但定时抓取已关闭');
    expect(neverRan.suggestion).toBe('请联系管理员开启定时抓取');

    const sources = new SourceStateRepository(runtime.database.db);
    await sources.recordFailure('arxiv-cs', 'arxiv', 'export.arxiv.org: unknown host (DNS) (after 4 attempts)');
    const failing = await papersExplanation();
    // Which source, since when (the server's time zone), what went wrong in Chinese words and the next
    // try (the job's next attempt); the technical error stays for operators.
    expect(failing.message).toMatch(
      /^还没有任何论文：论文来源抓取失败（arxiv-cs 自 \d+月\d+日 \d\d:\d\d 起无法连接（域名解析失败），下次重试 \d\d:\d\d）$/,
    );
    expect(failing.sources).toMatchObject({
      state: 'failing',
      failing: [{ source: 'arxiv-cs', error: '无法连接（域名解析失败）', next_retry_at: expect.any(String) }],
    });
    expect(failing.suggestion).toBe('请联系管理员处理');
    expect(JSON.stringify(failing)).not.toMatch(/unknown host|attempts|radar/);

    await sources.markRunning('arxiv-cs', 'arxiv');
    await sources.recordSuccess('arxiv-cs', {
      added: 0,
      updated: 0,
      skipped: 0,
      rejected: 0,
      summary: {},
      cursor: {},
    });
    const finishedEmpty = await papersExplanation();
    expect(finishedEmpty.message).toBe('还没有任何论文：论文来源已运行，但没有抓取到论文');
  });
});
