// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

/** 关注的作者 on /my: the followed authors with how each is recognised. */

describe('/my followed authors', () => {
  const api = useFakeApi();

  it('lists the followed authors with how each is recognised, and unfollows one (when the server offers it)', async () => {
    api.on('GET', '/api/config/', {
      body: { support_email: null, time_zone: 'Asia/Shanghai', features: ['followed_authors'] },
    });
    const author = (id: string, name: string, extra: Record<string, unknown>) => ({
      id,
      name,
      affiliation: null,
      orcid: null,
      openalex_id: null,
      is_name_only: false,
      paper_id: '1',
      created_at: '2026-11-27T08:00:00Z',
      ...extra,
    });
    let followed = [
      author('1', 'Guoqiang Zhong', { orcid: '0000-0002-2952-6642', affiliation: 'Ocean University of China' }),
      author('2', 'Wei Zhang', { is_name_only: true }),
    ];
    const list = () => ({ body: { success: true, followed_authors: followed, max_followed_authors: 50 } });
    api.on('GET', '/api/auth/followed-authors/', list);
    api.on('DELETE', '/api/auth/followed-authors/:id/', (_request, { id }) => {
      followed = followed.filter((entry) => entry.id !== id);
      return list();
    });
    const { user: events } = renderApp(api, '/my', { user: testUser() });

    const section = within(await screen.findByTestId('followed-authors-section'));
    expect(await section.findByText('已关注 2 / 50 位')).toBeTruthy();
    expect(section.getByText('ORCID 0000-0002-2952-6642 · Ocean University of China')).toBeTruthy();
    expect(section.getByText('仅按姓名识别，可能包含同名作者的论文')).toBeTruthy();
    await events.click(section.getAllByRole('button', { name: '取消关注' })[1] as HTMLElement);
    expect(await screen.findByText('已取消关注 Wei Zhang')).toBeTruthy();
    expect(api.requestsTo('DELETE', '/api/auth/followed-authors/:id/')[0]?.path).toBe('/api/auth/followed-authors/2/');
    await waitFor(() => expect(section.getAllByTestId('followed-author')).toHaveLength(1));
  });
});
