// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EARLY_VIEW_ID, EARLY_VIEW_STYLE_ID, endEarlyView } from '@/lib/early-view';
import {
  newsRecommendations,
  paperRecommendations,
  recommendedPaper,
  testNews,
  testUser,
} from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';
import { showEarlyView } from './early-view';

const PAPERS = '/api/auth/recommendations/papers/';
const NEWS = '/api/news/recommendations/';

const sixPapers = () =>
  paperRecommendations(
    Array.from({ length: 6 }, (_, index) =>
      recommendedPaper({
        id: `p${index + 1}`,
        title: index === 0 ? '<img src=x onerror=alert(1)> Message passing' : `Paper ${index + 1}`,
        llm_summary: index === 0 ? '一种消息传递网络。' : null,
        similarity_score: 0.8761,
        journal: 'Nature Methods',
      }),
    ),
  );

const earlyView = () => document.getElementById(EARLY_VIEW_ID);

describe('the early view', () => {
  const api = useFakeApi();

  beforeEach(() => {
    // Each test is a new page load: the window's note that the app has taken over starts unset.
    delete (window as unknown as Record<string, unknown>).__radarEarlyViewDone;
  });
  afterEach(() => endEarlyView());

  it("draws the answer's first four papers as text, with their links, summary and chips", () => {
    expect(showEarlyView('papers', sixPapers())).toBe(true);

    const view = earlyView();
    expect(view).not.toBeNull();
    expect(document.getElementById(EARLY_VIEW_STYLE_ID)).not.toBeNull();
    const cards = within(view as HTMLElement).getAllByTestId('early-paper-card');
    expect(cards).toHaveLength(4);
    expect(within(view as HTMLElement).getByRole('heading', { level: 1 }).textContent).toBe('论文推荐');
    const first = within(cards[0] as HTMLElement);
    // A title is text, never markup.
    expect(first.getByRole('heading', { level: 3 }).textContent).toBe('<img src=x onerror=alert(1)> Message passing');
    expect(view?.querySelector('img')).toBeNull();
    expect(first.getByRole('link').getAttribute('href')).toBe('https://doi.org/10.1000/paper-1');
    expect(first.getByRole('link').getAttribute('rel')).toBe('noopener noreferrer');
    expect(first.getByText('一种消息传递网络。')).toBeTruthy();
    expect(first.getByText('Nature Methods')).toBeTruthy();
    expect(first.getByText('相似度 87.6%')).toBeTruthy();
  });

  it('draws nothing for an empty or unreadable answer, and nothing once the app has shown the page', () => {
    expect(showEarlyView('papers', paperRecommendations([]))).toBe(false);
    expect(showEarlyView('news', 'not an answer')).toBe(false);
    expect(earlyView()).toBeNull();

    endEarlyView();
    expect(showEarlyView('news', newsRecommendations([testNews()]))).toBe(false);
    expect(earlyView()).toBeNull();
  });

  it("gives way to /papers' own cards once the page has the answer", async () => {
    api.on('GET', PAPERS, { body: sixPapers() });
    showEarlyView('papers', sixPapers());
    expect(screen.getAllByTestId('early-paper-card')).toHaveLength(4);

    renderApp(api, '/papers', { user: testUser() });

    await waitFor(() => expect(screen.getAllByTestId('paper-card').length).toBeGreaterThan(0));
    expect(earlyView()).toBeNull();
    expect(document.getElementById(EARLY_VIEW_STYLE_ID)).toBeNull();
    expect(screen.queryAllByTestId('early-paper-card')).toHaveLength(0);
  });

  it("gives way to /news' failure, which it would otherwise hide", async () => {
    api.on('GET', NEWS, { status: 500, body: { code: 'INTERNAL', message: '服务器出错了' } });
    showEarlyView('news', newsRecommendations([testNews()]));
    expect(screen.getAllByTestId('early-news-card')).toHaveLength(1);

    renderApp(api, '/news', { user: testUser() });

    await screen.findByTestId('news-error', {}, { timeout: 20_000 });
    expect(earlyView()).toBeNull();
  });

  it('gives way to any other route', async () => {
    api.on('GET', '/user-keywords/', { body: { success: true, keywords: [] } });
    showEarlyView('news', newsRecommendations([testNews()]));

    renderApp(api, '/keywords', { user: testUser() });

    await waitFor(() => expect(earlyView()).toBeNull());
  });
});
