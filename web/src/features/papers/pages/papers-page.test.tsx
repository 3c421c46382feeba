// @vitest-environment happy-dom
import { RESEARCH_DIRECTION_NOT_SET } from '@radar/shared';
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paperRecommendations, recommendedPaper, researchDirectionNotSetError, testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

const RECOMMENDATIONS = '/api/auth/recommendations/papers/';

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

    const heading = await screen.findByRole('heading', { level: 2, name: /为您推荐 2 篇论文/ });
    expect(heading.textContent).toBe('为您推荐 2 篇论文（已过滤 3 篇）');
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
    await user.click(screen.getByRole('button', { name: '推荐设置' }));
    api.on('GET', RECOMMENDATIONS, { body: paperRecommendations([recommendedPaper()]) });
    await user.click(await screen.findByRole('button', { name: '应用设置并重试' }));

    expect(await screen.findByRole('link', { name: /^Message passing networks for molecules/ })).toBeTruthy();
    expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(2);
  });

  it('tries three times, then shows the failure with a retry button', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    api.on('GET', RECOMMENDATIONS, {
      status: 500,
      body: { code: 'INTERNAL_ERROR', message: '服务器内部错误，请稍后重试' },
    });
    const { user } = renderApp(api, '/papers', { user: testUser() });

    // Spec section 4: 2 s before the second attempt, 4 s before the third.
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

  it('shows the missing research direction at once, without retries', async () => {
    api.on('GET', RECOMMENDATIONS, researchDirectionNotSetError());
    renderApp(api, '/papers', { user: testUser() });

    const banner = await screen.findByRole('alert');
    expect(within(banner).getByText('请先设置研究方向')).toBeTruthy();
    expect(within(banner).getByText(RESEARCH_DIRECTION_NOT_SET.details)).toBeTruthy();
    expect(within(banner).getByRole('link', { name: '去设置' })).toBeTruthy();
    expect(within(banner).queryByRole('button', { name: '重试' })).toBeNull();
    expect(api.requestsTo('GET', RECOMMENDATIONS)).toHaveLength(1);
  });
});
