// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { newsList, testNews, testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

const SEARCH = '/api/news/search/';

describe('/search/news', () => {
  const api = useFakeApi();

  it('searches by meaning and lists the news found', async () => {
    api.on('POST', SEARCH, {
      body: newsList([testNews({ id: 'n1', title: '量子计算论坛召开', is_recommended: false })], { total_count: 1 }),
    });
    const { user, router, fill } = renderApp(api, '/search/news', { user: testUser() });

    expect(await screen.findByText('输入关键词开始检索学术新闻。')).toBeTruthy();
    await fill(screen.getByRole('searchbox', { name: '关键词' }), '量子');
    await user.click(screen.getByRole('radio', { name: '语义检索' }));
    await fill(screen.getByRole('textbox', { name: '发布机构' }), '清华');
    await user.click(screen.getByRole('button', { name: '检索' }));

    expect(await screen.findByRole('heading', { level: 2, name: '找到 1 条相关新闻' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /^量子计算论坛召开/ })).toBeTruthy();
    expect(api.requestsTo('POST', SEARCH)[0]?.body).toEqual({
      query: '量子',
      search_type: 'semantic',
      institute_name: '清华',
      page: 1,
      page_size: 20,
    });
    expect(new URLSearchParams(router.state.location.search).get('query')).toBe('量子');
  });

  it('says when nothing is found', async () => {
    api.on('POST', SEARCH, { body: newsList([]) });
    renderApp(api, '/search/news?query=%E6%97%A0', { user: testUser() });
    expect(await screen.findByText('未找到相关新闻，请尝试其他关键词或调整筛选条件')).toBeTruthy();
  });

  it('pages through the results, 20 a page', async () => {
    api.on('POST', SEARCH, (request) => {
      const page = (request.body as { page: number }).page;
      return {
        body: newsList([testNews({ id: `n${page}`, title: `第 ${page} 页的新闻` })], {
          total_count: 45,
          current_page: page,
        }),
      };
    });
    const { user } = renderApp(api, '/search/news?query=AI', { user: testUser() });

    expect(await screen.findByRole('heading', { level: 2, name: '找到 45 条相关新闻' })).toBeTruthy();
    const pagination = within(screen.getByRole('navigation', { name: '新闻检索结果分页' }));
    await user.click(pagination.getByRole('button', { name: 'Go to page 3' }));
    expect(await screen.findByRole('link', { name: /^第 3 页的新闻/ })).toBeTruthy();
    expect(api.requestsTo('POST', SEARCH).map((request) => (request.body as { page: number }).page)).toEqual([1, 3]);
  });
});
