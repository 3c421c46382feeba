// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { learningStatus, newUser, testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

/** 个性化推荐 on /my: what the recommendations learned from the reader, and its reset. */

const LEARNING = '/api/auth/recommendations/learning/';
const LEARNING_RESET = '/api/auth/recommendations/learning/reset/';

describe('/my learning', () => {
  const api = useFakeApi();

  it('says how many signals adjust the recommendations and resets them to the research direction', async () => {
    api.on('GET', LEARNING, { body: learningStatus({ signal_count: 3, liked_count: 2, dismissed_count: 1 }) });
    const { user: events } = renderApp(api, '/my', { user: testUser() });

    const section = within(await screen.findByRole('region', { name: '个性化推荐' }));
    expect(await section.findByText('推荐已根据你的 3 次收藏/评分/不感兴趣调整')).toBeTruthy();
    expect(section.getByText('标记为“不感兴趣”的条目仍不会再出现')).toBeTruthy();

    api.on('POST', LEARNING_RESET, { body: learningStatus({ reset_at: '2026-11-23T08:00:00.000Z' }) });
    await events.click(section.getByRole('button', { name: '恢复为仅按研究方向推荐' }));

    expect(await screen.findByText('已恢复为仅按研究方向推荐')).toBeTruthy();
    expect(section.getByText('推荐目前仅根据你的研究方向')).toBeTruthy();
    expect(section.queryByRole('button', { name: '恢复为仅按研究方向推荐' })).toBeNull();
    expect(api.requestsTo('POST', LEARNING_RESET)).toHaveLength(1);
  });

  it('says the recommendations follow the research direction alone while nothing was learned', async () => {
    api.on('GET', LEARNING, { body: learningStatus() });
    renderApp(api, '/my', { user: testUser() });
    expect(await screen.findByText('推荐目前仅根据你的研究方向')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '恢复为仅按研究方向推荐' })).toBeNull();
  });

  it('shows no learning status without a research summary', async () => {
    renderApp(api, '/my', { user: newUser() });
    expect(await screen.findByText('还没有研究信息：粘贴研究主页的文字，AI 帮你生成。')).toBeTruthy();
    expect(screen.queryByRole('region', { name: '个性化推荐' })).toBeNull();
    expect(api.requestsTo('GET', LEARNING)).toHaveLength(0);
  });
});
