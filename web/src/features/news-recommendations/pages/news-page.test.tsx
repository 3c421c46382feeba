// @vitest-environment happy-dom
import { RESEARCH_DIRECTION_NOT_SET } from '@radar/shared';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  newsRecommendations,
  researchProfileNotSetError,
  testFreshness,
  testNews,
  testReason,
  testUser,
} from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

const RECOMMENDATIONS = '/api/news/recommendations/';
const DISMISS = '/api/news/:id/not-interested/';

/** The titles of the cards on screen, in order (without the link's 'opens in a new tab' note). */
const cardTitles = () =>
  screen.queryAllByRole('heading', { level: 3 }).map((heading) => heading.textContent?.replace(/（.*）$/, ''));

const threeNews = () =>
  newsRecommendations([
    testNews({ id: 'n1', title: '第一条新闻' }),
    testNews({ id: 'n2', title: '第二条新闻' }),
    testNews({ id: 'n3', title: '第三条新闻' }),
  ]);

describe('/news', () => {
  const api = useFakeApi();

  it('lists the recommended news', async () => {
    const longContent = '分子图'.repeat(150);
    api.on('GET', RECOMMENDATIONS, {
      body: newsRecommendations([testNews(), testNews({ id: 'news-2', title: '北京大学新闻', content: longContent })]),
    });
    renderApp(api, '/news', { user: testUser() });

    expect(await screen.findByRole('heading', { level: 2, name: '共 2 条推荐新闻' })).toBeTruthy();
    const [first, second] = screen.getAllByRole('article').map((card) => within(card));
    const link = first?.getByRole('link', { name: /^清华大学发布分子图学习新成果/ });
    expect(link?.getAttribute('href')).toBe('https://news.example.edu.cn/1');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(first?.getByText('推荐')).toBeTruthy();
    expect(first?.getByText('相似度 72%')).toBeTruthy();
    // Content cut at 300 characters on the page.
    expect(second?.getByText(`${longContent.slice(0, 300)}...`)).toBeTruthy();
    expect(api.requestsTo('GET', RECOMMENDATIONS)[0]?.query).toMatchObject({
      top_k: '20',
      similarity_threshold: '0.3',
      date_filter: '一周内',
    });
  });

  it('dates a card by its crawl day, and its tooltip gives the crawl and publication dates absolutely', async () => {
    api.on('GET', RECOMMENDATIONS, {
      body: newsRecommendations([
        testNews({ publish_date: '2026-11-18T02:00:00.000Z', crawl_date: '2026-11-21T03:00:00.000Z' }),
        testNews({ id: 'news-2', title: '未注明发布日期', publish_date: null, crawl_date: '2026-11-21T17:30:00.000Z' }),
      ]),
    });
    renderApp(api, '/news', { user: testUser() });

    await screen.findByRole('heading', { level: 2, name: '共 2 条推荐新闻' });
    const [first, second] = screen.getAllByTestId('news-chip-date');
    expect(first?.getAttribute('title')).toBe(
      '收录时间：2026-11-21 11:00（北京时间）\n发布时间：2026-11-18 10:00（北京时间）',
    );
    // 17:30 UTC is the next day in Beijing; no publication date, so none is claimed.
    expect(second?.getAttribute('title')).toBe('收录时间：2026-11-22 01:30（北京时间）');
  });

  it('ticks the shorter ranges the default 一周内 stands for, as the hint says; unticking one keeps the shorter', async () => {
    api.on('GET', RECOMMENDATIONS, { body: newsRecommendations([testNews()]) });
    const { user } = renderApp(api, '/news', { user: testUser() });
    await user.click(await screen.findByRole('button', { name: '推荐设置' }));
    const settings = within(await screen.findByTestId('news-settings'));
    const ticked = () =>
      settings
        .getAllByRole('checkbox')
        .filter((box) => (box as HTMLInputElement).checked)
        .map((box) => box.closest('label')?.textContent);
    expect(ticked()).toEqual(['一天内', '两天内', '三天内', '一周内']);
    expect(settings.getByText(/更短的范围会一并勾选/)).toBeTruthy();
    // The words say what applies at once; the button only loads again.
    expect(settings.getByText('勾选时间范围或松开滑块后，推荐列表立即更新；“刷新推荐”重新获取最新结果。')).toBeTruthy();
    expect(settings.getByRole('button', { name: '刷新推荐' })).toBeTruthy();
    // The default query stays the spec's (the page's first request may still be on its way).
    await waitFor(() => expect(api.requestsTo('GET', RECOMMENDATIONS)[0]?.query.date_filter).toBe('一周内'));

    await user.click(settings.getByRole('checkbox', { name: '两天内' }));
    expect(ticked()).toEqual(['一天内']);
    await waitFor(() => expect(api.requestsTo('GET', RECOMMENDATIONS).at(-1)?.query.date_filter).toBe('一天内'));
  });

  it("says '暂无推荐新闻' when nothing matches", async () => {
    api.on('GET', RECOMMENDATIONS, { body: newsRecommendations([]) });
    renderApp(api, '/news', { user: testUser() });
    expect(await screen.findByText('暂无推荐新闻')).toBeTruthy();
  });

  it('shows a missing research direction as an information banner leading to /my', async () => {
    api.on('GET', RECOMMENDATIONS, researchProfileNotSetError());
    renderApp(api, '/news', { user: testUser() });

    const banner = await screen.findByRole('alert');
    expect(within(banner).getByText(RESEARCH_DIRECTION_NOT_SET.details)).toBeTruthy();
    expect(within(banner).getByRole('link', { name: '去设置' }).getAttribute('href')).toBe('/my');
    expect(within(banner).queryByRole('button', { name: '重试' })).toBeNull();
  });

  it('shows another failure with a retry button that loads again', async () => {
    api.on('GET', RECOMMENDATIONS, { status: 400, body: { code: 'BAD_REQUEST', message: 'top_k 必须是整数' } });
    const { user } = renderApp(api, '/news', { user: testUser() });

    const banner = await screen.findByRole('alert');
    expect(within(banner).getByText('获取推荐失败')).toBeTruthy();
    expect(within(banner).getByText('推荐失败')).toBeTruthy();

    api.on('GET', RECOMMENDATIONS, { body: newsRecommendations([testNews()]) });
    await user.click(within(banner).getByRole('button', { name: '重试' }));
    expect(await screen.findByRole('heading', { level: 2, name: '共 1 条推荐新闻' })).toBeTruthy();
  });

  it('asks for a research summary instead of loading when the profile has none', async () => {
    renderApp(api, '/news', { user: testUser({ research_summary_en: '' }) });
    const banner = await screen.findByRole('alert');
    expect(within(banner).getByText('尚未设置研究方向')).toBeTruthy();
    expect(screen.getByText('暂无推荐新闻')).toBeTruthy();
    expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(0);
  });

  it('says why an item is recommended when it says, and how fresh the sources are', async () => {
    api.on('GET', RECOMMENDATIONS, {
      body: newsRecommendations(
        [
          testNews({ id: 'n1', reason: testReason({ kind: 'keyword', text: '匹配你的关键词：分子图' }) }),
          testNews({ id: 'n2', title: '北京大学新闻', reason: null }),
        ],
        { freshness: testFreshness({ last_checked_at: null, new_items_last_7_days: 0, last_new_item_at: null }) },
      ),
    });
    renderApp(api, '/news', { user: testUser() });

    const [first, second] = (await screen.findAllByRole('article')).map((card) => within(card));
    expect(first?.getByText('匹配你的关键词：分子图')).toBeTruthy();
    expect(second?.queryByText(/匹配|共有|相近/)).toBeNull();
    expect(screen.getByText('新闻来源最近更新：从未（暂无新闻）')).toBeTruthy();
  });

  it("'not interested' takes the item out; 撤销 puts it back in its place", async () => {
    api.on('GET', RECOMMENDATIONS, { body: threeNews() });
    api.on('POST', DISMISS, (_request, { id = '' }) => ({ body: { success: true, id, not_interested: true } }));
    api.on('DELETE', DISMISS, (_request, { id = '' }) => ({
      body: { success: true, id, not_interested: false },
    }));
    const { user } = renderApp(api, '/news', { user: testUser() });

    const third = (await screen.findAllByRole('article'))[2] as HTMLElement;
    await user.click(within(third).getByRole('button', { name: '不感兴趣' }));

    await waitFor(() => expect(cardTitles()).toEqual(['第一条新闻', '第二条新闻']));
    expect(screen.getByRole('heading', { level: 2, name: '共 2 条推荐新闻' })).toBeTruthy();
    expect(await screen.findByText('已标记为不感兴趣，不会再推荐')).toBeTruthy();
    expect(api.requestsTo('POST', DISMISS).map((request) => request.path)).toEqual(['/api/news/n3/not-interested/']);

    await user.click(screen.getByRole('button', { name: '撤销' }));
    expect(cardTitles()).toEqual(['第一条新闻', '第二条新闻', '第三条新闻']);
    await waitFor(() => expect(api.requestsTo('DELETE', DISMISS)).toHaveLength(1));
    expect(screen.getByRole('heading', { level: 2, name: '共 3 条推荐新闻' })).toBeTruthy();
  });

  it('takes the item out again and shows the error when the undo fails', async () => {
    api.on('GET', RECOMMENDATIONS, { body: threeNews() });
    api.on('POST', DISMISS, (_request, { id = '' }) => ({ body: { success: true, id, not_interested: true } }));
    api.on('DELETE', DISMISS, { status: 500, body: { code: 'INTERNAL_ERROR', message: 'boom' } });
    const { user } = renderApp(api, '/news', { user: testUser() });

    const first = (await screen.findAllByRole('article'))[0] as HTMLElement;
    await user.click(within(first).getByRole('button', { name: '不感兴趣' }));
    await user.click(await screen.findByRole('button', { name: '撤销' }));

    expect(await screen.findByText('服务器内部错误，请稍后重试')).toBeTruthy();
    await waitFor(() => expect(cardTitles()).toEqual(['第二条新闻', '第三条新闻']));
  });

  it('with nothing stored, says what is missing instead of suggesting settings that cannot help', async () => {
    api.on('GET', RECOMMENDATIONS, {
      body: newsRecommendations([], {
        empty_explanation: {
          cause: 'no_items',
          message: '还没有任何新闻：管理员尚未配置新闻来源',
          suggestion: '请联系管理员添加新闻来源；管理员也可运行 radar demo 载入演示数据先行体验',
          change: null,
        },
      }),
    });
    renderApp(api, '/news', { user: testUser() });

    const empty = within(await screen.findByTestId('news-empty'));
    expect(empty.getByText('还没有任何新闻：管理员尚未配置新闻来源')).toBeTruthy();
    expect(empty.queryByText('可以在推荐设置中放宽时间范围或降低相似度阈值。')).toBeNull();
  });

  it('explains an empty list and applies the suggested change', async () => {
    api.on('GET', RECOMMENDATIONS, {
      body: newsRecommendations([], {
        empty_explanation: {
          cause: 'below_threshold',
          message: '没有新闻达到 30% 的相似度',
          suggestion: '把相似度阈值降到 20% 可看到 8 条',
          change: { similarity_threshold: '0.2' },
        },
      }),
    });
    const { user } = renderApp(api, '/news', { user: testUser() });

    const empty = within(await screen.findByTestId('news-empty'));
    expect(empty.getByText('暂无推荐新闻')).toBeTruthy();
    expect(empty.getByText('没有新闻达到 30% 的相似度')).toBeTruthy();
    expect(empty.getByText('把相似度阈值降到 20% 可看到 8 条')).toBeTruthy();

    api.on('GET', RECOMMENDATIONS, { body: newsRecommendations([testNews()]) });
    await user.click(empty.getByRole('button', { name: '应用此修改' }));

    expect(await screen.findByRole('heading', { level: 2, name: '共 1 条推荐新闻' })).toBeTruthy();
    expect(api.requestsTo('GET', RECOMMENDATIONS).map((request) => request.query.similarity_threshold)).toEqual([
      '0.3',
      '0.2',
    ]);
    expect(JSON.parse(localStorage.getItem('newsRecommendationParams') ?? '{}').threshold).toBe(0.2);
  });

  it("sends a slider's value on its step: three arrow steps from 30 % are similarity_threshold=0.45", async () => {
    api.on('GET', RECOMMENDATIONS, { body: threeNews() });
    const { user } = renderApp(api, '/news', { user: testUser() });
    expect(await screen.findAllByRole('article')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: '推荐设置' }));
    const [, threshold] = await screen.findAllByRole('slider');
    if (!threshold) throw new Error('no threshold slider');
    threshold.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');

    await waitFor(() => expect(api.requestsTo('GET', RECOMMENDATIONS).at(-1)?.query.similarity_threshold).toBe('0.45'));
    const sent = api.requestsTo('GET', RECOMMENDATIONS).map((request) => request.query.similarity_threshold);
    expect(
      sent.every((value) => /^0\.\d{1,2}$/.test(value ?? '')),
      sent.join(' '),
    ).toBe(true);
    expect(JSON.parse(localStorage.getItem('newsRecommendationParams') ?? '{}').threshold).toBe(0.45);
  });

  it('never stores a slider that was moved but not let go of', async () => {
    api.on('GET', RECOMMENDATIONS, { body: threeNews() });
    const { user, router } = renderApp(api, '/news', { user: testUser() });
    expect(await screen.findAllByRole('article')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: '推荐设置' }));
    const slider = await screen.findByTestId('news-settings-threshold');
    // happy-dom lays nothing out: the slider is given a width so a press can say where it is.
    slider.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 0, width: 100, height: 10 });
    // Pressed at 90 % of the track (45 %) and never released.
    fireEvent.pointerDown(slider, { button: 0, pointerId: 1, pointerType: 'mouse', clientX: 90, clientY: 5 });
    expect(screen.getByTestId('news-settings-threshold-value').textContent).toBe('45%');

    await act(() => router.navigate('/feedback'));
    await waitFor(() => expect(screen.queryByTestId('news-settings-toggle')).toBeNull());
    expect(localStorage.getItem('newsRecommendationParams')).toBeNull();
    await act(() => router.navigate('/news'));
    await user.click(await screen.findByRole('button', { name: '推荐设置' }));
    expect((await screen.findByTestId('news-settings-threshold-value')).textContent).toBe('30%');
    expect(
      new Set(api.requestsTo('GET', RECOMMENDATIONS).map((request) => request.query.similarity_threshold)),
    ).toEqual(new Set(['0.3']));
  });

  it('加载更多 on the last page appends the next set, excluding every item this visit showed; 没有更多了 at the end', async () => {
    const item = (index: number) => testNews({ id: `n${index}`, title: `新闻 ${index}` });
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, at) => item(from + at));
    api.on('GET', RECOMMENDATIONS, (request) => {
      if (request.query.exclude_ids) {
        return { body: newsRecommendations([item(26), item(27)], { has_more: false }) };
      }
      const page = Number(request.query.page);
      return {
        body: newsRecommendations(page === 2 ? range(21, 25) : range(1, 20), {
          pagination: { total_count: 25, current_page: page },
          has_more: true,
        }),
      };
    });
    const { user } = renderApp(api, '/news', { user: testUser() });

    expect(await screen.findByRole('heading', { level: 2, name: '共 25 条推荐新闻' })).toBeTruthy();
    // Not on the last page: the pagination leads on, not 加载更多.
    expect(screen.queryByRole('button', { name: '加载更多' })).toBeNull();
    await user.click(screen.getByRole('button', { name: '第 2 页' }));
    await user.click(await screen.findByRole('button', { name: '加载更多' }));

    expect(await screen.findByText('没有更多了')).toBeTruthy();
    expect(cardTitles()).toEqual(['新闻 21', '新闻 22', '新闻 23', '新闻 24', '新闻 25', '新闻 26', '新闻 27']);
    expect(screen.getByRole('heading', { level: 2, name: '共 27 条推荐新闻' })).toBeTruthy();
    expect(api.requestsTo('GET', RECOMMENDATIONS).at(-1)?.query).toEqual({
      top_k: '20',
      similarity_threshold: '0.3',
      date_filter: '一周内',
      page: '1',
      page_size: '20',
      // The page on screen first, then the page of the set seen before.
      exclude_ids: [...range(21, 25), ...range(1, 20)].map((news) => news.id).join(','),
    });

    // The spec's pagination still works; another page starts without the appended set.
    await user.click(screen.getByRole('button', { name: '第 1 页' }));
    await waitFor(() => expect(cardTitles()).toHaveLength(20));
    expect(screen.queryByText('没有更多了')).toBeNull();
  });

  it('含已评价 sends include_rated=true from page 1 and is stored', async () => {
    api.on('GET', RECOMMENDATIONS, { body: threeNews() });
    const { user } = renderApp(api, '/news', { user: testUser() });
    expect(await screen.findAllByRole('article')).toHaveLength(3);
    expect(api.requestsTo('GET', RECOMMENDATIONS)[0]?.query).not.toHaveProperty('include_rated');

    await user.click(screen.getByRole('button', { name: '含已评价' }));
    await waitFor(() => expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(2));
    expect(api.requestsTo('GET', RECOMMENDATIONS)[1]?.query).toMatchObject({ page: '1', include_rated: 'true' });
    expect(screen.getByRole('button', { name: '含已评价' }).getAttribute('aria-pressed')).toBe('true');
    expect(JSON.parse(localStorage.getItem('newsRecommendationParams') ?? '{}').includeRated).toBe(true);
  });
});
