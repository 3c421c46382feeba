// @vitest-environment happy-dom
import { RESEARCH_DIRECTION_NOT_SET } from '@radar/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { newsList, researchDirectionNotSetError, testNews, testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

const RECOMMENDATIONS = '/api/news/recommendations/';

describe('/news', () => {
  const api = useFakeApi();

  it('lists the recommended news', async () => {
    const longContent = '分子图'.repeat(150);
    api.on('GET', RECOMMENDATIONS, {
      body: newsList([testNews(), testNews({ id: 'news-2', title: '北京大学新闻', content: longContent })]),
    });
    renderApp(api, '/news', { user: testUser() });

    expect(await screen.findByRole('heading', { level: 2, name: '共 2 条推荐新闻' })).toBeTruthy();
    const [first, second] = screen.getAllByRole('article').map((card) => within(card));
    const link = first?.getByRole('link', { name: /^清华大学发布分子图学习新成果/ });
    expect(link?.getAttribute('href')).toBe('https://news.example.edu.cn/1');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(first?.getByText('推荐')).toBeTruthy();
    expect(first?.getByText('相似度 72%')).toBeTruthy();
    // Spec section 9: content cut at 300 characters on the page.
    expect(second?.getByText(`${longContent.slice(0, 300)}...`)).toBeTruthy();
    expect(api.requestsTo('GET', RECOMMENDATIONS)[0]?.query).toMatchObject({
      top_k: '20',
      similarity_threshold: '0.3',
      date_filter: '一周内',
    });
  });

  it("says '暂无推荐新闻' when nothing matches", async () => {
    api.on('GET', RECOMMENDATIONS, { body: newsList([]) });
    renderApp(api, '/news', { user: testUser() });
    expect(await screen.findByText('暂无推荐新闻')).toBeTruthy();
  });

  it('shows a missing research direction as an information banner leading to /my', async () => {
    api.on('GET', RECOMMENDATIONS, researchDirectionNotSetError());
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

    api.on('GET', RECOMMENDATIONS, { body: newsList([testNews()]) });
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
});
