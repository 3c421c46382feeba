// @vitest-environment happy-dom
import { RESEARCH_DIRECTION_NOT_SET } from '@radar/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  learningStatus,
  paperRecommendations,
  recommendedPaper,
  researchProfileNotSetError,
  testFreshness,
  testPaper,
  testReason,
  testUser,
} from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

const RECOMMENDATIONS = '/api/auth/recommendations/papers/';
const DISMISS = '/articles/:id/not-interested/';
const LEARNING = '/api/auth/recommendations/learning/';
const RATING = '/articles/:id/rating/';

/** The titles of the cards on screen, in order (without the link's 'opens in a new tab' note). */
const cardTitles = () =>
  screen.queryAllByRole('heading', { level: 3 }).map((heading) => heading.textContent?.replace(/（.*）$/, ''));

const threePapers = () =>
  paperRecommendations([
    recommendedPaper({ id: 'p1', title: 'First paper' }),
    recommendedPaper({ id: 'p2', title: 'Second paper' }),
    recommendedPaper({ id: 'p3', title: 'Third paper' }),
  ]);

describe('/papers', () => {
  const api = useFakeApi();

  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for a research summary instead of loading when the profile has none', async () => {
    renderApp(api, '/papers', { user: testUser({ research_summary_en: '' }) });

    const banner = await screen.findByRole('alert');
    expect(within(banner).getByText('尚未设置研究方向')).toBeTruthy();
    expect(within(banner).getByRole('link', { name: '去设置' }).getAttribute('href')).toBe('/my');
    expect(screen.getByText('暂无推荐论文')).toBeTruthy();
    expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(0);
  });

  it('lists the recommended papers under the active filters, with the filtered-out count', async () => {
    api.on('GET', RECOMMENDATIONS, {
      body: paperRecommendations(
        [
          recommendedPaper({ id: 'p1', title: 'Message passing networks for molecules', similarity_score: 0.8761 }),
          recommendedPaper({
            id: 'p2',
            title: 'Equivariant transformers',
            llm_summary: '一种等变 Transformer。',
            similarity_score: 0.5,
          }),
        ],
        { filtered_out_count: 3 },
      ),
    });
    renderApp(api, '/papers', { user: testUser() });

    const heading = await screen.findByRole('heading', { level: 2, name: /为你推荐 2 篇论文/ });
    expect(heading.textContent).toBe('为你推荐 2 篇论文（已过滤 3 篇）');
    const filters = within(screen.getByRole('list', { name: '当前筛选条件' }));
    expect(filters.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '相似度 ≥ 30%',
      '排除 JCR Q4',
      '排除 JCR Q3',
      '发表时间：一周内',
    ]);

    const [first, second] = screen.getAllByRole('article').map((card) => within(card));
    const link = first?.getByRole('link', { name: /^Message passing networks for molecules/ });
    expect(link?.getAttribute('href')).toBe('https://doi.org/10.1000/paper-1');
    expect(first?.getByText('相似度 87.6%')).toBeTruthy();
    // The relative date chip's tooltip names the publication day itself.
    expect(first?.getByTestId('paper-chip-date').getAttribute('title')).toBe('发表时间：2026-11-20');
    expect(second?.getByText('一种等变 Transformer。')).toBeTruthy();
    expect(second?.getByText('相似度 50.0%')).toBeTruthy();
    expect(api.requestsTo('GET', RECOMMENDATIONS)[0]?.query).toEqual({
      top_k: '20',
      similarity_threshold: '0.3',
      excluded_jcr: '4,3',
      date_filter: '一周内',
    });
  });

  it("offers 'apply settings and retry' after an empty result, and loads again", async () => {
    api.on('GET', RECOMMENDATIONS, { body: paperRecommendations([]) });
    const { user } = renderApp(api, '/papers', { user: testUser() });

    expect(await screen.findByText('暂未找到合适的推荐论文')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '展开推荐设置' }));
    api.on('GET', RECOMMENDATIONS, { body: paperRecommendations([recommendedPaper()]) });
    await user.click(await screen.findByRole('button', { name: '应用设置并重试' }));

    expect(await screen.findByRole('link', { name: /^Message passing networks for molecules/ })).toBeTruthy();
    expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(2);
  });

  it('shows every card of a long list (the first ones first); a card button names itself in a tooltip on hover', async () => {
    const papers = Array.from({ length: 7 }, (_, index) =>
      recommendedPaper({ id: `p${index + 1}`, title: `Paper ${index + 1}` }),
    );
    api.on('GET', RECOMMENDATIONS, { body: paperRecommendations(papers) });
    const { user } = renderApp(api, '/papers', { user: testUser() });

    const list = await screen.findByTestId('papers-list');
    await waitFor(() => expect(list.getAttribute('data-complete')).toBe('true'));
    expect(cardTitles()).toEqual(papers.map((paper) => paper.title));

    await user.hover(within(list).getAllByRole('button', { name: '收藏' })[0] as HTMLElement);
    expect((await screen.findByRole('tooltip')).textContent).toBe('收藏');
  });

  it('tries three times, then shows the failure with a retry button', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    api.on('GET', RECOMMENDATIONS, {
      status: 500,
      body: { code: 'INTERNAL_ERROR', message: '服务器内部错误，请稍后重试' },
    });
    const { user } = renderApp(api, '/papers', { user: testUser() });

    // 2 s before the second attempt, 4 s before the third.
    expect(await screen.findByText('推荐服务暂时无响应，正在进行第 2 次尝试…')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(await screen.findByText('推荐服务暂时无响应，正在进行第 3 次尝试…')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(4000));

    const banner = await screen.findByRole('alert');
    expect(within(banner).getByText('推荐服务暂时不可用，请稍后重试')).toBeTruthy();
    expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(3);

    api.on('GET', RECOMMENDATIONS, { body: paperRecommendations([recommendedPaper()]) });
    await user.click(within(banner).getByRole('button', { name: '重试' }));
    expect(await screen.findByRole('link', { name: /^Message passing networks for molecules/ })).toBeTruthy();
  });

  it('says a per-user quota was reached and how long to wait, without retries', async () => {
    api.on('GET', RECOMMENDATIONS, {
      status: 429,
      headers: { 'Retry-After': '45' },
      body: { code: 'RATE_LIMITED', message: '请求过于频繁，请稍后再试', remaining_seconds: 45 },
    });
    renderApp(api, '/papers', { user: testUser() });

    const banner = await screen.findByRole('alert');
    expect(within(banner).getByText('请求过于频繁，请稍后再试（45 秒后可重试）')).toBeTruthy();
    expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(1);
  });

  it('shows the missing research direction at once, without retries', async () => {
    api.on('GET', RECOMMENDATIONS, researchProfileNotSetError());
    renderApp(api, '/papers', { user: testUser() });

    const banner = await screen.findByRole('alert');
    expect(within(banner).getByText('请先设置研究方向')).toBeTruthy();
    expect(within(banner).getByText(RESEARCH_DIRECTION_NOT_SET.details)).toBeTruthy();
    expect(within(banner).getByRole('link', { name: '去设置' })).toBeTruthy();
    expect(within(banner).queryByRole('button', { name: '重试' })).toBeNull();
    expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(1);
  });

  it('says why each paper is recommended and how fresh the sources are', async () => {
    api.on('GET', RECOMMENDATIONS, {
      body: paperRecommendations(
        [
          recommendedPaper({
            reason: testReason({ kind: 'saved', text: '与你收藏的《Graph attention networks》相近' }),
            // Beyond the spec: the interest it serves and the LLM rerank's reason.
            interest: { id: '7', name: '珊瑚礁' },
            rerank_reason: '与你的第二个兴趣直接相关',
          }),
        ],
        { freshness: testFreshness({ new_items_last_7_days: 42 }) },
      ),
    });
    renderApp(api, '/papers', { user: testUser() });

    const card = within(await screen.findByRole('article'));
    expect(card.getByText('与你收藏的《Graph attention networks》相近')).toBeTruthy();
    expect(card.getByText('兴趣：珊瑚礁')).toBeTruthy();
    expect(card.getByText('AI 排序：与你的第二个兴趣直接相关')).toBeTruthy();
    // The fixture's sources ran 3 hours before now.
    expect(screen.getByText('论文来源最近更新：3小时前（近 7 天新增 42 篇）')).toBeTruthy();
  });

  it("'not interested' takes the card out at once; 撤销 puts it back in its place", async () => {
    api.on('GET', RECOMMENDATIONS, { body: threePapers() });
    // The server answers only when the test says so, to see the card go before the answer.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    api.on('POST', DISMISS, async (_request, { id = '' }) => {
      await answered;
      return { body: { success: true, id, not_interested: true } };
    });
    api.on('DELETE', DISMISS, (_request, { id = '' }) => ({
      body: { success: true, id, not_interested: false },
    }));
    const { user } = renderApp(api, '/papers', { user: testUser() });

    await screen.findByRole('heading', { level: 2, name: '为你推荐 3 篇论文' });
    const second = screen.getAllByRole('article')[1] as HTMLElement;
    await user.click(within(second).getByRole('button', { name: '不感兴趣' }));

    await waitFor(() => expect(cardTitles()).toEqual(['First paper', 'Third paper']));
    expect(screen.getByRole('heading', { level: 2, name: '为你推荐 2 篇论文' })).toBeTruthy();
    answer();
    expect(await screen.findByText('已标记为不感兴趣，不会再推荐')).toBeTruthy();
    expect(api.requestsTo('POST', DISMISS).map((request) => request.path)).toEqual(['/articles/p2/not-interested/']);

    await user.click(screen.getByRole('button', { name: '撤销' }));
    expect(cardTitles()).toEqual(['First paper', 'Second paper', 'Third paper']);
    expect(screen.getByRole('heading', { level: 2, name: '为你推荐 3 篇论文' })).toBeTruthy();
    await waitFor(() =>
      expect(api.requestsTo('DELETE', DISMISS).map((request) => request.path)).toEqual([
        '/articles/p2/not-interested/',
      ]),
    );
    // The list was not loaded again: the undo restored the card itself.
    expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(1);
  });

  it("puts the card back and shows the error when 'not interested' fails", async () => {
    api.on('GET', RECOMMENDATIONS, { body: threePapers() });
    api.on('POST', DISMISS, {
      status: 500,
      body: { code: 'INTERNAL_ERROR', message: '服务器内部错误，请稍后重试' },
    });
    const { user } = renderApp(api, '/papers', { user: testUser() });

    const first = (await screen.findAllByRole('article'))[0] as HTMLElement;
    await user.click(within(first).getByRole('button', { name: '不感兴趣' }));

    expect(await screen.findByText('服务器内部错误，请稍后重试')).toBeTruthy();
    expect(cardTitles()).toEqual(['First paper', 'Second paper', 'Third paper']);
    expect(screen.queryByRole('button', { name: '撤销' })).toBeNull();
  });

  it('👍/👎 show the rating at once, toggle off with a second click, roll back on failure; hidden without `rating`', async () => {
    api.on('GET', RECOMMENDATIONS, {
      body: paperRecommendations([
        recommendedPaper({ id: 'p1', title: 'First paper', rating: null }),
        recommendedPaper({ id: 'p2', title: 'Second paper', rating: -1 }),
        recommendedPaper({ id: 'p3', title: 'Third paper' }),
      ]),
    });
    let fail = false;
    api.on('POST', RATING, (request, { id = '' }) => {
      if (fail) return { status: 500, body: { code: 'INTERNAL_ERROR', message: '服务器内部错误，请稍后重试' } };
      const { value } = request.body as { value: number };
      return { body: { success: true, id, rating: value === 0 ? null : value } };
    });
    const { user } = renderApp(api, '/papers', { user: testUser() });

    const [first, second, third] = (await screen.findAllByRole('article')) as HTMLElement[];
    const up = within(first as HTMLElement).getByRole('button', { name: '更多此类' });
    expect(up.getAttribute('aria-pressed')).toBe('false');
    expect(
      within(second as HTMLElement)
        .getByRole('button', { name: '减少此类' })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    // A paper without the field (a backend without ratings): no buttons.
    expect(within(third as HTMLElement).queryByRole('button', { name: '更多此类' })).toBeNull();

    await user.click(up);
    await waitFor(() => expect(up.getAttribute('aria-pressed')).toBe('true'));
    expect(await screen.findByText('已记录：更多此类，推荐稍后据此调整')).toBeTruthy();
    await user.click(up);
    await waitFor(() => expect(up.getAttribute('aria-pressed')).toBe('false'));
    await waitFor(() =>
      expect(api.requestsTo('POST', RATING).map((request) => request.body)).toEqual([{ value: 1 }, { value: 0 }]),
    );
    await screen.findByText('已取消评分');

    fail = true;
    await user.click(up);
    expect(await screen.findByText('服务器内部错误，请稍后重试')).toBeTruthy();
    await waitFor(() => expect(up.getAttribute('aria-pressed')).toBe('false'));
    // The order is left alone: nothing was loaded again.
    expect(cardTitles()).toEqual(['First paper', 'Second paper', 'Third paper']);
    expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(1);
  });

  it('加载更多 appends the next papers, asking with every recommended id shown; 没有更多了 at the end', async () => {
    api.on('GET', RECOMMENDATIONS, (request) => {
      const shown = request.query.exclude_ids;
      if (shown === undefined) {
        return {
          body: {
            ...paperRecommendations(
              [
                recommendedPaper({ id: 'p1', title: 'First paper' }),
                recommendedPaper({ id: 'p2', title: 'Second paper' }),
              ],
              { has_more: true },
            ),
            // Not a recommendation: its id is never sent in exclude_ids.
            followed_author_papers: [
              {
                ...testPaper({ id: 'f1', title: 'By a followed author' }),
                followed_authors: [{ id: '3', name: 'G. Zhong', match: 'name' }],
              },
            ],
          },
        };
      }
      if (shown === 'p1,p2') {
        // p2 again (a backend may repeat one): shown once.
        return {
          body: paperRecommendations(
            [
              recommendedPaper({ id: 'p2', title: 'Second paper' }),
              recommendedPaper({ id: 'p3', title: 'Third paper' }),
              recommendedPaper({ id: 'p4', title: 'Fourth paper' }),
            ],
            { has_more: true },
          ),
        };
      }
      return {
        body: paperRecommendations([recommendedPaper({ id: 'p5', title: 'Fifth paper' })], { has_more: false }),
      };
    });
    const { user } = renderApp(api, '/papers', { user: testUser() });

    expect(await screen.findByRole('heading', { level: 2, name: '为你推荐 2 篇论文' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '加载更多' }));
    expect(await screen.findByText('Fourth paper')).toBeTruthy();
    expect(cardTitles()).toEqual([
      'By a followed author',
      'First paper',
      'Second paper',
      'Third paper',
      'Fourth paper',
    ]);
    expect(screen.getByRole('heading', { level: 2, name: '为你推荐 4 篇论文' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: '加载更多' }));
    expect(await screen.findByText('没有更多了')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '加载更多' })).toBeNull();
    expect(cardTitles().slice(1)).toEqual([
      'First paper',
      'Second paper',
      'Third paper',
      'Fourth paper',
      'Fifth paper',
    ]);

    const filters = { top_k: '20', similarity_threshold: '0.3', excluded_jcr: '4,3', date_filter: '一周内' };
    expect(api.requestsTo('GET', RECOMMENDATIONS).map((request) => request.query)).toEqual([
      filters,
      { ...filters, exclude_ids: 'p1,p2' },
      { ...filters, exclude_ids: 'p1,p2,p3,p4' },
    ]);
  });

  it('含已评价 sends include_rated=true, starts over from the first page and is kept for the next visit', async () => {
    api.on('GET', RECOMMENDATIONS, (request) =>
      request.query.exclude_ids === undefined
        ? {
            body: paperRecommendations(
              [
                recommendedPaper({ id: 'p1', title: 'First paper', rating: request.query.include_rated ? 1 : null }),
                recommendedPaper({ id: 'p2', title: 'Second paper', rating: null }),
              ],
              { has_more: true },
            ),
          }
        : { body: paperRecommendations([recommendedPaper({ id: 'p3', title: 'Third paper' })], { has_more: false }) },
    );
    const { user } = renderApp(api, '/papers', { user: testUser() });

    await user.click(await screen.findByRole('button', { name: '加载更多' }));
    expect(await screen.findByText('Third paper')).toBeTruthy();
    const chip = screen.getByRole('button', { name: '含已评价' });
    expect(chip.getAttribute('aria-pressed')).toBe('false');
    await user.click(chip);

    // A new setting: the first page again, without the appended papers.
    await waitFor(() => expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(3));
    expect(api.requestsTo('GET', RECOMMENDATIONS)[2]?.query).toEqual({
      top_k: '20',
      similarity_threshold: '0.3',
      excluded_jcr: '4,3',
      date_filter: '一周内',
      include_rated: 'true',
    });
    await waitFor(() => expect(cardTitles()).toEqual(['First paper', 'Second paper']));
    expect(screen.getByRole('button', { name: '含已评价' }).getAttribute('aria-pressed')).toBe('true');
    const first = screen.getAllByRole('article')[0] as HTMLElement;
    expect(within(first).getByRole('button', { name: '更多此类' }).getAttribute('aria-pressed')).toBe('true');
    expect(JSON.parse(localStorage.getItem('recommendationParams') ?? '{}').includeRated).toBe(true);

    // Off again: the earlier settings, from their first answer (the appended paper stays away).
    await user.click(screen.getByRole('button', { name: '含已评价' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: '含已评价' }).getAttribute('aria-pressed')).toBe('false'),
    );
    expect(cardTitles()).toEqual(['First paper', 'Second paper']);
    expect(screen.getByRole('button', { name: '加载更多' })).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('recommendationParams') ?? '{}')).not.toHaveProperty('includeRated');
  });

  it('reads 含已评价 from the stored settings, and its absence as off', async () => {
    api.on('GET', RECOMMENDATIONS, { body: threePapers() });
    renderApp(api, '/papers', {
      user: testUser(),
      storage: { recommendationParams: JSON.stringify({ topK: 20, includeRated: true }) },
    });
    expect(await screen.findByText('First paper')).toBeTruthy();
    expect(screen.getByRole('button', { name: '含已评价' }).getAttribute('aria-pressed')).toBe('true');
    expect(api.requestsTo('GET', RECOMMENDATIONS)[0]?.query.include_rated).toBe('true');
  });

  it('a failed 加载更多 keeps the list and says why, with a retry', async () => {
    let fail = true;
    api.on('GET', RECOMMENDATIONS, (request) => {
      if (request.query.exclude_ids === undefined) return { body: { ...threePapers(), has_more: true } };
      if (fail) {
        return {
          status: 429,
          headers: { 'Retry-After': '45' },
          body: { code: 'RATE_LIMITED', message: '请求过于频繁，请稍后再试', remaining_seconds: 45 },
        };
      }
      return {
        body: paperRecommendations([recommendedPaper({ id: 'p4', title: 'Fourth paper' })], { has_more: false }),
      };
    });
    const { user } = renderApp(api, '/papers', { user: testUser() });

    await user.click(await screen.findByRole('button', { name: '加载更多' }));
    const banner = await screen.findByTestId('papers-load-more-error');
    expect(within(banner).getByText('请求过于频繁，请稍后再试（45 秒后可重试）')).toBeTruthy();
    expect(cardTitles()).toEqual(['First paper', 'Second paper', 'Third paper']);
    expect(screen.queryByRole('button', { name: '加载更多' })).toBeNull();

    fail = false;
    await user.click(within(banner).getByRole('button', { name: '重试' }));
    expect(await screen.findByText('Fourth paper')).toBeTruthy();
    expect(screen.queryByTestId('papers-load-more-error')).toBeNull();
    expect(screen.getByText('没有更多了')).toBeTruthy();
  });

  it('a rated card stays until the next visit: rating loads nothing, coming back loads the list again', async () => {
    let rated = false;
    api.on('GET', RECOMMENDATIONS, (request) => {
      if (request.query.exclude_ids) {
        return { body: paperRecommendations([recommendedPaper({ id: 'p4', title: 'Fourth paper' })]) };
      }
      // The server leaves a 👍 paper out of the next answer (without include_rated).
      const papers = threePapers().recommendations.map((paper) => ({ ...paper, rating: null }));
      return { body: paperRecommendations(rated ? papers.slice(1) : papers, { has_more: true }) };
    });
    api.on('POST', RATING, (_request, { id = '' }) => {
      rated = true;
      return { body: { success: true, id, rating: 1 } };
    });
    const { user, router } = renderApp(api, '/papers', { user: testUser() });

    const first = (await screen.findAllByRole('article'))[0] as HTMLElement;
    const up = within(first).getByRole('button', { name: '更多此类' });
    await user.click(up);
    expect(await screen.findByText('已记录：更多此类，推荐稍后据此调整')).toBeTruthy();
    expect(up.getAttribute('aria-pressed')).toBe('true');
    await user.click(screen.getByRole('button', { name: '加载更多' }));
    expect(await screen.findByText('Fourth paper')).toBeTruthy();
    expect(cardTitles()).toEqual(['First paper', 'Second paper', 'Third paper', 'Fourth paper']);
    expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(2);

    // The next visit (well within the 30 s a list is otherwise reused): loaded again, without it.
    await act(() => router.navigate('/my'));
    await waitFor(() => expect(screen.queryByTestId('papers-list')).toBeNull());
    await act(() => router.navigate('/papers'));
    await waitFor(() => expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(3));
    await waitFor(() => expect(cardTitles()).toEqual(['Second paper', 'Third paper']));
  });

  it('explains an empty result and applies the suggested change to the stored settings', async () => {
    api.on('GET', RECOMMENDATIONS, {
      body: paperRecommendations([], {
        empty_explanation: {
          cause: 'nothing_in_window',
          message: '最近一周没有新论文',
          suggestion: '把发布时间放宽到“一月内”可看到 12 篇',
          change: { date_filter: '一月内' },
        },
      }),
    });
    const { user } = renderApp(api, '/papers', { user: testUser() });

    const empty = within(await screen.findByTestId('papers-empty'));
    expect(empty.getByText('暂未找到合适的推荐论文')).toBeTruthy();
    expect(empty.getByText('最近一周没有新论文')).toBeTruthy();
    expect(empty.getByText('把发布时间放宽到“一月内”可看到 12 篇')).toBeTruthy();

    api.on('GET', RECOMMENDATIONS, { body: paperRecommendations([recommendedPaper()]) });
    await user.click(empty.getByRole('button', { name: '应用此修改' }));

    expect(await screen.findByRole('link', { name: /^Message passing networks for molecules/ })).toBeTruthy();
    const ranges = '一天内,两天内,三天内,一周内,一月内';
    expect(api.requestsTo('GET', RECOMMENDATIONS).map((request) => request.query.date_filter)).toEqual([
      '一周内',
      ranges,
    ]);
    expect(screen.getByText('发表时间：一月内')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('recommendationParams') ?? '{}').dateFilter).toEqual(ranges.split(','));
  });

  it('never keeps settings that were not applied: tick 不限, leave without 应用 or 取消, come back', async () => {
    api.on('GET', RECOMMENDATIONS, { body: threePapers() });
    const { user, router } = renderApp(api, '/papers', { user: testUser() });
    expect(await screen.findByText('发表时间：一周内')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: '展开推荐设置' }));
    await user.click(await screen.findByRole('checkbox', { name: '不限' }));
    expect((screen.getByRole('checkbox', { name: '不限' }) as HTMLInputElement).checked).toBe(true);
    expect(localStorage.getItem('recommendationParams')).toBeNull();

    await act(() => router.navigate('/feedback'));
    await waitFor(() => expect(screen.queryByTestId('papers-settings')).toBeNull());
    await act(() => router.navigate('/papers'));

    expect(await screen.findByText('发表时间：一周内')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '展开推荐设置' }));
    expect(((await screen.findByRole('checkbox', { name: '不限' })) as HTMLInputElement).checked).toBe(false);
    const sent = new Set(api.requestsTo('GET', RECOMMENDATIONS).map((request) => request.query.date_filter));
    expect(sent).toEqual(new Set(['一周内']));
    expect(localStorage.getItem('recommendationParams')).toBeNull();
  });

  it('stores applied settings, and only those, for the next visit', async () => {
    api.on('GET', RECOMMENDATIONS, { body: threePapers() });
    const { user } = renderApp(api, '/papers', { user: testUser() });
    expect(await screen.findAllByRole('article')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: '展开推荐设置' }));
    await user.click(await screen.findByRole('checkbox', { name: '不限' }));
    await user.click(screen.getByRole('button', { name: '应用设置' }));

    expect(await screen.findByText('发表时间：不限')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('recommendationParams') ?? '{}').dateFilter).toEqual(['不限']);
    // Ticked again, then cancelled: the stored settings stay the applied ones.
    await user.click(screen.getByRole('button', { name: '展开推荐设置' }));
    await user.click(await screen.findByRole('checkbox', { name: '一月内' }));
    await user.click(screen.getByRole('button', { name: '取消' }));
    expect(JSON.parse(localStorage.getItem('recommendationParams') ?? '{}').dateFilter).toEqual(['不限']);
  });

  it("sends a slider's value on its step: three arrow steps from 30 % are similarity_threshold=0.45", async () => {
    api.on('GET', RECOMMENDATIONS, { body: threePapers() });
    const { user } = renderApp(api, '/papers', { user: testUser() });
    expect(await screen.findAllByRole('article')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: '展开推荐设置' }));
    const [, threshold] = await screen.findAllByRole('slider');
    if (!threshold) throw new Error('no threshold slider');
    threshold.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(screen.getByTestId('papers-settings-threshold-value').textContent).toBe('45%');
    await user.click(screen.getByRole('button', { name: '应用设置' }));

    expect(await screen.findByText('相似度 ≥ 45%')).toBeTruthy();
    // The heading shows the applied settings at once; the request follows (later on a loaded machine).
    await waitFor(() => expect(api.requestsTo('GET', RECOMMENDATIONS).at(-1)?.query.similarity_threshold).toBe('0.45'));
    expect(JSON.parse(localStorage.getItem('recommendationParams') ?? '{}').threshold).toBe(0.45);
  });

  it("puts stored values that are off the sliders' steps back on them", async () => {
    api.on('GET', RECOMMENDATIONS, { body: threePapers() });
    renderApp(api, '/papers', {
      user: testUser(),
      storage: { recommendationParams: JSON.stringify({ topK: 19.999999999999996, threshold: 0.44999999999999996 }) },
    });
    expect(await screen.findByText('相似度 ≥ 45%')).toBeTruthy();
    expect(await screen.findAllByRole('article')).toHaveLength(3);
    expect(api.requestsTo('GET', RECOMMENDATIONS)[0]?.query).toMatchObject({
      top_k: '20',
      similarity_threshold: '0.45',
    });
  });

  it('with nothing stored, says what is missing instead of suggesting settings that cannot help', async () => {
    api.on('GET', RECOMMENDATIONS, {
      body: paperRecommendations([], {
        empty_explanation: {
          cause: 'no_items',
          message: '还没有任何论文：管理员尚未配置论文来源',
          suggestion: '请联系管理员添加论文来源；管理员也可运行 radar demo 载入演示数据先行体验',
          change: null,
        },
      }),
    });
    renderApp(api, '/papers', { user: testUser() });

    const empty = within(await screen.findByTestId('papers-empty'));
    expect(empty.getByText('还没有任何论文：管理员尚未配置论文来源')).toBeTruthy();
    expect(empty.queryByText('请尝试调整参数或降低相似度阈值')).toBeNull();
    expect(empty.queryByRole('button', { name: '推荐设置' })).toBeNull();
    expect(empty.queryByRole('button', { name: '应用此修改' })).toBeNull();
  });

  it('puts papers by followed authors first and follows an author from a card (when the server offers it)', async () => {
    api.on('GET', '/api/config/', {
      body: { support_email: null, time_zone: 'Asia/Shanghai', features: ['followed_authors'] },
    });
    let followed: unknown[] = [];
    const follow = {
      id: '7',
      name: 'Bo Wang',
      affiliation: null,
      orcid: null,
      openalex_id: null,
      is_name_only: true,
      paper_id: 'p1',
      created_at: '2026-11-27T08:00:00Z',
    };
    api.on('GET', '/api/auth/followed-authors/', () => ({
      body: { success: true, followed_authors: followed, max_followed_authors: 50 },
    }));
    api.on('POST', '/api/auth/followed-authors/', () => {
      followed = [follow];
      return {
        status: 201,
        body: { success: true, followed_authors: followed, max_followed_authors: 50, followed: follow },
      };
    });
    api.on('GET', RECOMMENDATIONS, {
      body: {
        ...threePapers(),
        followed_author_papers: [
          {
            ...testPaper({ id: 'f1', title: 'By a followed author', authors: ['G. Zhong'] }),
            followed_authors: [{ id: '3', name: 'G. Zhong', match: 'name' }],
          },
        ],
      },
    });
    const { user } = renderApp(api, '/papers', { user: testUser() });

    const section = within(await screen.findByTestId('papers-followed'));
    expect(section.getByRole('heading', { level: 2, name: '关注的作者' })).toBeTruthy();
    expect(section.getByText('关注的作者：G. Zhong（按姓名匹配，可能是同名作者）')).toBeTruthy();
    expect(cardTitles()).toEqual(['By a followed author', 'First paper', 'Second paper', 'Third paper']);

    const first = within(screen.getAllByTestId('papers-list')[0] as HTMLElement).getAllByRole(
      'article',
    )[0] as HTMLElement;
    // The same cards (one list component): the list's offer 不感兴趣, the section's do not.
    expect(within(first).getByTestId('paper-not-interested')).toBeTruthy();
    expect(
      section.getByTestId('papers-followed-list').querySelector('[data-testid="paper-not-interested"]'),
    ).toBeNull();
    // The menu shows once /api/config/ has named the feature.
    await user.click(await within(first).findByRole('button', { name: /作者 2 位/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Bo Wang/ }));
    await waitFor(() => expect(api.requestsTo('POST', '/api/auth/followed-authors/')).toHaveLength(1));
    expect(api.requestsTo('POST', '/api/auth/followed-authors/')[0]?.body).toEqual({ paper_id: 'p1', author_index: 1 });
    expect(await screen.findByText(/已关注 Bo Wang/)).toBeTruthy();
    // Followed now: the menu offers to unfollow.
    const chip = within(first).getByRole('button', { name: /作者 2 位/ });
    await waitFor(() => expect(chip.getAttribute('aria-disabled')).not.toBe('true'));
    await user.click(chip);
    expect(await screen.findByRole('menuitem', { name: /Bo Wang.*取消关注/ })).toBeTruthy();
  });

  it('caps 关注的作者 to three lines above the list and folds possible namesakes into one line', async () => {
    const byFollowed = (index: number, evidence?: 'field' | 'coauthor') => ({
      ...testPaper({ id: `f${index}`, title: `Followed ${index}` }),
      followed_authors: [{ id: '3', name: 'Jing Wang', match: 'name', ...(evidence ? { evidence } : {}) }],
    });
    api.on('GET', RECOMMENDATIONS, {
      body: {
        ...threePapers(),
        followed_author_papers: [1, 2, 3, 4, 5].map((index) => byFollowed(index, 'coauthor')),
        followed_author_namesakes: { count: 10, papers: [byFollowed(6), byFollowed(7)] },
      },
    });
    const { user } = renderApp(api, '/papers', { user: testUser() });
    const section = within(await screen.findByTestId('papers-followed'));
    // Three one-line entries, then the recommendations: nothing else of the section comes first.
    expect(cardTitles()).toEqual([
      'Followed 1',
      'Followed 2',
      'Followed 3',
      'First paper',
      'Second paper',
      'Third paper',
    ]);
    expect(section.getAllByText('关注的作者：Jing Wang（按姓名匹配，与关注时的论文有共同作者）')).toHaveLength(3);
    expect(section.getByRole('button', { name: '还有 2 篇，展开' })).toBeTruthy();
    await user.click(section.getByRole('button', { name: '另有 10 篇同名作者的论文，展开' }));
    expect(await section.findByText('Followed 6')).toBeTruthy();
    expect(section.getAllByText('关注的作者：Jing Wang（按姓名匹配，可能是同名作者）')).toHaveLength(2);
    await user.click(section.getByRole('button', { name: '还有 2 篇，展开' }));
    expect(await section.findByText('Followed 5')).toBeTruthy();
    expect(section.getByRole('button', { name: '收起' })).toBeTruthy();
  });

  it('shows no section 关注的作者 when the answer has none (a spec-only backend)', async () => {
    api.on('GET', RECOMMENDATIONS, { body: threePapers() });
    renderApp(api, '/papers', { user: testUser() });
    expect(await screen.findByText('First paper')).toBeTruthy();
    expect(screen.queryByTestId('papers-followed')).toBeNull();
    expect(screen.queryByRole('button', { name: /作者 2 位/ })).toBeNull();
  });

  it('shows no explanation box without one', async () => {
    api.on('GET', RECOMMENDATIONS, { body: paperRecommendations([]) });
    renderApp(api, '/papers', { user: testUser() });
    expect(await screen.findByText('暂未找到合适的推荐论文')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '应用此修改' })).toBeNull();
  });

  it('a dismissal shows on /my at once, and a reset there reloads the recommendations', async () => {
    let signals = 0;
    api.on('GET', LEARNING, () => ({ body: learningStatus({ signal_count: signals }) }));
    api.on('POST', `${LEARNING}reset/`, () => {
      signals = 0;
      return { body: learningStatus() };
    });
    api.on('GET', RECOMMENDATIONS, { body: threePapers() });
    api.on('POST', DISMISS, (_request, { id = '' }) => {
      signals += 1;
      return { body: { success: true, id, not_interested: true } };
    });
    const { user, router } = renderApp(api, '/my', { user: testUser() });
    expect(await screen.findByText('推荐目前仅根据你的研究方向')).toBeTruthy();

    await act(() => router.navigate('/papers'));
    const first = (await screen.findAllByRole('article'))[0] as HTMLElement;
    await user.click(within(first).getByRole('button', { name: '不感兴趣' }));
    expect(await screen.findByText('已标记为不感兴趣，不会再推荐')).toBeTruthy();

    // The status was loaded less than 30 s ago (fresh), so only the dismissal can make /my load it again.
    await act(() => router.navigate('/my'));
    expect(await screen.findByText('推荐已根据你的 1 次收藏/评分/不感兴趣调整')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '恢复为仅按研究方向推荐' }));
    expect(await screen.findByText('推荐目前仅根据你的研究方向')).toBeTruthy();

    await act(() => router.navigate('/papers'));
    await waitFor(() => expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(2));
  });
});
