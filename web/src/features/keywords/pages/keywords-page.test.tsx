// @vitest-environment happy-dom
import type { Keyword, KeywordListResponse } from '@radar/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testKeyword, testUser } from '@/testing/api-fixtures';
import type { FakeApi } from '@/testing/fake-api';
import { renderApp, useFakeApi } from '@/testing/render-app';

const GNN = testKeyword({ id: 'keyword-1', name: 'graph neural networks' });
const QUANTUM = testKeyword({ id: 'keyword-2', name: '量子计算', alert_enabled: true, alert_frequency: 'weekly' });

/** The keyword list as the server keeps it: GET answers whatever the test put there last. */
function serveKeywords(api: FakeApi, keywords: Keyword[]) {
  const body: KeywordListResponse = { keywords, count: keywords.length };
  api.on('GET', '/user-keywords/', { body });
}

describe('/keywords', () => {
  const api = useFakeApi();

  it('lists the followed keywords with their alerts, and the suggestions', async () => {
    serveKeywords(api, [GNN, QUANTUM]);
    api.on('GET', '/user-rkeywords/', {
      body: { keywords: [{ name: 'molecular property prediction', score: 1, source: 'research_summary' }] },
    });
    renderApp(api, '/keywords', { user: testUser() });

    expect(await screen.findByText('已关注 2/50 个')).toBeTruthy();
    expect(screen.getByText('graph neural networks')).toBeTruthy();
    expect(screen.getByText('提醒已关闭')).toBeTruthy();
    expect(screen.getByText('每周提醒')).toBeTruthy();
    // 关注于N周前 names its day on hover.
    expect(screen.getAllByTestId('relative-date')[0]?.getAttribute('title')).toBe('2026-11-01 16:00（北京时间）');
    expect(await screen.findByRole('button', { name: /molecular property prediction/ })).toBeTruthy();
  });

  describe('with no suggestion, tells the true cause', () => {
    const STATS = '/api/auth/recommendations/stats/';
    const stats = (available: number) => ({
      body: {
        current_user: { has_vector: true, available_recommendations: available },
        service_status: { model_name: 'builtin', vector_dimension: 256 },
      },
    });
    const emptyNote = async () => {
      const note = await screen.findByTestId('keyword-suggestions-empty');
      return { text: note.textContent, link: within(note).queryByRole('link', { name: '去完善' }) };
    };

    it('a profile without an English research direction: 去完善 (and no count of papers asked)', async () => {
      serveKeywords(api, []);
      api.on('GET', '/user-rkeywords/', { body: { keywords: [] } });
      renderApp(api, '/keywords', { user: testUser({ research_summary_en: '' }) });
      const note = await emptyNote();
      expect(note.text).toContain('完善研究信息后');
      expect(note.link?.getAttribute('href')).toBe('/my');
      expect(api.requestsTo('GET', STATS)).toHaveLength(0);
    });

    it('a complete profile and no paper yet: the sources are still fetching, nothing to complete', async () => {
      serveKeywords(api, []);
      api.on('GET', '/user-rkeywords/', { body: { keywords: [] } });
      api.on('GET', STATS, stats(0));
      renderApp(api, '/keywords', { user: testUser() });
      const note = await emptyNote();
      expect(note.text).toBe(
        '暂无推荐关键词：还没有收录可供分析的论文，论文来源可能仍在抓取中。收录论文后，这里会根据你的研究方向推荐关键词。',
      );
      expect(note.link).toBeNull();
    });

    it('a complete profile and papers that gave nothing, every suggestion followed, or an unknown cause', async () => {
      serveKeywords(api, []);
      api.on('GET', '/user-rkeywords/', { body: { keywords: [] } });
      api.on('GET', STATS, stats(120));
      const first = renderApp(api, '/keywords', { user: testUser() });
      expect((await emptyNote()).text).toBe('暂无推荐关键词：与你研究方向相近的论文中暂时没有找到合适的关键词。');
      first.unmount();

      api.on('GET', STATS, { status: 500, body: { message: 'boom' } });
      const second = renderApp(api, '/keywords', { user: testUser() });
      await waitFor(async () => expect((await emptyNote()).text).toBe('暂无推荐关键词。'), { timeout: 15_000 });
      second.unmount();

      serveKeywords(api, [GNN]);
      api.on('GET', '/user-rkeywords/', {
        body: { keywords: [{ name: GNN.name, score: 1, source: 'research_summary' }] },
      });
      renderApp(api, '/keywords', { user: testUser() });
      const note = await emptyNote();
      expect(note.text).toBe('推荐的关键词你都已关注。');
      expect(note.link).toBeNull();
    });
  });

  it('says a 429 from anywhere with its wait, read from Retry-After', async () => {
    api.on('GET', '/user-keywords/', { status: 429, headers: { 'Retry-After': '120' } });
    api.on('GET', '/user-rkeywords/', { body: { keywords: [] } });
    renderApp(api, '/keywords', { user: testUser() });

    expect(await screen.findByText('请求过于频繁，请稍后再试（2 分钟后可重试）')).toBeTruthy();
  });

  it('follows a typed keyword', async () => {
    serveKeywords(api, []);
    api.on('GET', '/user-rkeywords/', { body: { keywords: [] } });
    api.on('POST', '/user-keywords/add/', (request) => {
      const keyword = testKeyword({ id: 'keyword-3', name: String((request.body as { keyword: string }).keyword) });
      serveKeywords(api, [keyword]);
      return { status: 201, body: { success: true, keyword } };
    });
    const { user, fill } = renderApp(api, '/keywords', { user: testUser() });

    // A logged-in reader without keywords is told that, not asked to log in.
    expect(await screen.findByText('你还没有关注任何关键词')).toBeTruthy();
    expect(screen.queryByText(/请登录/)).toBeNull();
    await fill(screen.getByRole('textbox', { name: '关键词' }), ' diffusion models ');
    await user.click(screen.getByRole('button', { name: '添加' }));

    expect(await screen.findByText('已关注关键词“diffusion models”')).toBeTruthy();
    expect(await screen.findByText('已关注 1/50 个')).toBeTruthy();
    expect(api.requestsTo('POST', '/user-keywords/add/')[0]?.body).toEqual({ keyword: 'diffusion models' });
    expect(screen.getByRole('textbox', { name: '关键词' })).toHaveProperty('value', '');
  });

  it('clears 关键词不能为空 once a keyword is followed by a suggestion, and as the reader types', async () => {
    const suggested = 'molecular property prediction';
    serveKeywords(api, []);
    api.on('GET', '/user-rkeywords/', {
      body: { keywords: [{ name: suggested, score: 1, source: 'research_summary' }] },
    });
    api.on('POST', '/user-keywords/add/', (request) => {
      const keyword = testKeyword({ id: 'keyword-9', name: String((request.body as { keyword: string }).keyword) });
      serveKeywords(api, [keyword]);
      return { status: 201, body: { success: true, keyword } };
    });
    const { user, fill } = renderApp(api, '/keywords', { user: testUser() });

    const submit = await screen.findByRole('button', { name: '添加' });
    await user.click(submit);
    expect(await screen.findByText('关键词不能为空')).toBeTruthy();

    await user.click(await screen.findByRole('button', { name: new RegExp(suggested) }));
    expect(await screen.findByText(`已关注关键词“${suggested}”`)).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('关键词不能为空')).toBeNull());

    // Again empty, then typing: the complaint goes with the first character.
    await user.click(submit);
    expect(await screen.findByText('关键词不能为空')).toBeTruthy();
    await fill(screen.getByRole('textbox', { name: '关键词' }), 'd');
    await waitFor(() => expect(screen.queryByText('关键词不能为空')).toBeNull());
  });

  it("shows the server's message for a keyword that is already followed", async () => {
    serveKeywords(api, [GNN]);
    api.on('GET', '/user-rkeywords/', { body: { keywords: [] } });
    api.on('POST', '/user-keywords/add/', {
      status: 409,
      body: { code: 'CONFLICT', message: '你已关注关键词“graph neural networks”' },
    });
    const { user, fill } = renderApp(api, '/keywords', { user: testUser() });

    await fill(await screen.findByRole('textbox', { name: '关键词' }), 'Graph Neural Networks');
    await user.click(screen.getByRole('button', { name: '添加' }));
    expect(await screen.findByText('你已关注关键词“graph neural networks”')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: '关键词' })).toHaveProperty('value', 'Graph Neural Networks');
  });

  it('removes a keyword after confirming', async () => {
    serveKeywords(api, [GNN, QUANTUM]);
    api.on('GET', '/user-rkeywords/', { body: { keywords: [] } });
    api.on('POST', '/user-keywords/:id/remove/', (_request, params) => {
      serveKeywords(api, [QUANTUM]);
      return { body: { success: true, id: params.id } };
    });
    const { user } = renderApp(api, '/keywords', { user: testUser() });

    await user.click(await screen.findByRole('button', { name: '删除关键词“graph neural networks”' }));
    const dialog = within(await screen.findByRole('dialog', { name: '删除关键词' }));
    expect(dialog.getByText('确定不再关注“graph neural networks”吗？删除后也不会再收到它的邮件提醒。')).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: '删除' }));

    expect(await screen.findByText('已删除关键词“graph neural networks”')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('graph neural networks')).toBeNull());
    expect(screen.getByText('量子计算')).toBeTruthy();
    expect(api.requestsTo('POST', '/user-keywords/:id/remove/').map((request) => request.path)).toEqual([
      '/user-keywords/keyword-1/remove/',
    ]);
  });
});
