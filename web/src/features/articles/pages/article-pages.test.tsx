// @vitest-environment happy-dom
import type { ArticleLibraryResponse, ArticleSearchResponse, LibraryPaper, Paper } from '@radar/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testKeyword, testPaper, testUser } from '@/testing/api-fixtures';
import type { FakeApi } from '@/testing/fake-api';
import { renderApp, useFakeApi } from '@/testing/render-app';

const SEARCH = '/articles/search/';
const LIBRARY = '/articles/library/';

function serveFollowedKeywords(api: FakeApi, names: string[]) {
  const keywords = names.map((name, index) => testKeyword({ id: `keyword-${index}`, name }));
  api.on('GET', '/user-keywords/', { body: { keywords, count: keywords.length } });
}

function searchResponse(results: Paper[], count = results.length): ArticleSearchResponse {
  return { results, count, next: null, previous: null };
}

const papers = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) =>
    testPaper({ id: `${prefix}-${index}`, title: `${prefix} paper ${index}` }),
  );

describe('/search', () => {
  const api = useFakeApi();

  it('searches the typed keywords and lists the results', async () => {
    serveFollowedKeywords(api, ['graph neural networks']);
    api.on('GET', SEARCH, { body: searchResponse(papers('Molecular', 2)) });
    const { user, router, fill } = renderApp(api, '/search', { user: testUser() });

    expect(await screen.findByText('输入关键词开始检索论文；也可以先关注关键词，再一键检索。')).toBeTruthy();
    await fill(screen.getByRole('searchbox', { name: '关键词' }), 'molecule graph');
    await user.click(screen.getByRole('button', { name: '检索' }));

    expect(await screen.findByRole('heading', { level: 2, name: '找到 2 篇相关论文' })).toBeTruthy();
    expect(screen.getByText('同时包含：molecule + graph')).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(api.requestsTo('GET', SEARCH)[0]?.query).toEqual({ q: 'molecule graph', page: '1', page_size: '50' });
    expect(router.state.location.search).toBe('?q=molecule+graph');
  });

  it('adds a followed keyword to the search with one click', async () => {
    serveFollowedKeywords(api, ['graph neural networks']);
    api.on('GET', SEARCH, { body: searchResponse(papers('GNN', 1)) });
    const { user } = renderApp(api, '/search', { user: testUser() });

    await user.click(await screen.findByRole('button', { name: '按“graph neural networks”检索' }));
    expect(await screen.findByRole('heading', { level: 2, name: '找到 1 篇相关论文' })).toBeTruthy();
    expect(api.requestsTo('GET', SEARCH)[0]?.query.q).toBe('"graph neural networks"');
    expect(screen.getByRole('button', { name: '从检索条件中移除“graph neural networks”' })).toBeTruthy();
  });

  it('says when nothing matches, and offers to follow keywords when there are none', async () => {
    serveFollowedKeywords(api, []);
    api.on('GET', SEARCH, { body: searchResponse([]) });
    renderApp(api, '/search?q=nothing', { user: testUser() });

    expect(await screen.findByText('未找到与关键词相关的论文，请尝试其他关键词')).toBeTruthy();
    // The reader is logged in: the notice says what is missing, not 请登录并设置感兴趣的关键词.
    expect(await screen.findByText('你还没有关注关键词。关注后，可以在这里一键按关键词检索论文。')).toBeTruthy();
    expect(screen.queryByText(/请登录/)).toBeNull();
    expect(screen.getByRole('link', { name: '去设置' }).getAttribute('href')).toBe('/keywords');
  });

  it('pages through the results, 50 a page', async () => {
    serveFollowedKeywords(api, []);
    // Page 1 carries fewer than its 50 papers: rendering 50 cards would only slow the test down.
    api.on('GET', SEARCH, (request) =>
      request.query.page === '2'
        ? { body: searchResponse(papers('Second', 2), 52) }
        : { body: searchResponse(papers('First', 3), 52) },
    );
    const { user, router } = renderApp(api, '/search?q=graph', { user: testUser() });

    expect(await screen.findByRole('heading', { level: 2, name: '找到 52 篇相关论文' })).toBeTruthy();
    const pagination = within(screen.getByRole('navigation', { name: '论文检索结果分页' }));
    await user.click(pagination.getByRole('button', { name: 'Go to page 2' }));

    expect(await screen.findByRole('link', { name: /^Second paper 0/ })).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(api.requestsTo('GET', SEARCH).map((request) => request.query.page)).toEqual(['1', '2']);
    expect(router.state.location.search).toBe('?q=graph&page=2');
  });
});

describe('/library', () => {
  const api = useFakeApi();

  const libraryPaper = (overrides: Partial<LibraryPaper>): LibraryPaper => ({
    ...testPaper(overrides),
    read_progress: 0,
    marked_at: '2026-11-22T08:00:00.000Z',
    ...overrides,
  });
  const libraryResponse = (results: LibraryPaper[]): ArticleLibraryResponse => ({
    results,
    count: results.length,
    next: null,
    previous: null,
  });

  it('says the library is empty and leads to the search', async () => {
    api.on('GET', LIBRARY, { body: libraryResponse([]) });
    renderApp(api, '/library', { user: testUser() });

    expect(
      await screen.findByText('还没有收藏或稍后阅读的论文。在论文推荐或论文检索中点击收藏、稍后阅读按钮即可加入。'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: '去检索论文' }).getAttribute('href')).toBe('/search');
  });

  it('lists favourited and saved papers with their reading progress, per tab', async () => {
    api.on('GET', LIBRARY, (request) =>
      request.query.list === 'saved'
        ? { body: libraryResponse([libraryPaper({ id: 's1', title: 'Saved paper', is_saved: true })]) }
        : {
            body: libraryResponse([
              libraryPaper({ id: 'f1', title: 'Favourite paper', is_favorited: true, read_progress: 40 }),
              libraryPaper({ id: 's1', title: 'Saved paper', is_saved: true }),
            ]),
          },
    );
    const { user } = renderApp(api, '/library', { user: testUser() });

    expect(await screen.findByText('共 2 篇')).toBeTruthy();
    const [favorite] = screen.getAllByRole('article').map((card) => within(card));
    expect(favorite?.getByText('已读 40%')).toBeTruthy();
    expect(favorite?.getByRole('button', { name: '收藏' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(screen.getByRole('tab', { name: '稍后阅读' }));
    expect(await screen.findByText('共 1 篇')).toBeTruthy();
    expect(screen.getByRole('link', { name: /^Saved paper/ })).toBeTruthy();
    expect(api.requestsTo('GET', LIBRARY).map((request) => request.query.list)).toEqual(['all', 'saved']);
  });
});
