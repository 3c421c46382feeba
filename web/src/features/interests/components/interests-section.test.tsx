// @vitest-environment happy-dom
import { API_PATHS, apiPath, type Interest, type InterestListResponse } from '@radar/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

const summary: Interest = {
  id: 'summary',
  kind: 'summary',
  name: '研究概述',
  description: 'Graph neural networks for molecules.',
  paper_ids: [],
  quota: 5,
  share: 1,
  has_vector: true,
};
const list = (...interests: Interest[]): InterestListResponse => ({ success: true, interests, max_interests: 5 });

describe('/my 研究兴趣', () => {
  const api = useFakeApi();

  it('lists the interests and adds a typed one, checked by the shared schema before it is sent', async () => {
    api.on('GET', API_PATHS.interests, { body: list(summary) });
    const { user: events } = renderApp(api, '/my', { user: testUser() });
    const section = within(await screen.findByRole('region', { name: '研究兴趣' }));
    expect(await section.findByText('研究概述')).toBeTruthy();
    // The summary may have been drafted offline or edited by the reader: its label claims no AI.
    expect(section.getByText('英文研究方向')).toBeTruthy();
    expect(section.queryByText(/AI/)).toBeNull();
    expect(section.getByText('约占推荐的 100%')).toBeTruthy();

    await events.click(section.getByRole('button', { name: '添加兴趣' }));
    const dialog = within(await screen.findByRole('dialog', { name: '添加研究兴趣' }));
    await events.type(dialog.getByLabelText(/兴趣名称/), '珊瑚礁');
    await events.type(dialog.getByLabelText(/兴趣描述/), '珊瑚');
    await events.click(dialog.getByRole('button', { name: '保存' }));
    expect(await dialog.findByText('兴趣描述至少 4 个字符')).toBeTruthy();
    expect(api.requestsTo('POST', API_PATHS.interests)).toHaveLength(0);

    const coral: Interest = {
      id: '7',
      kind: 'typed',
      name: '珊瑚礁',
      description: '珊瑚礁生态与白化',
      paper_ids: [],
      quota: 5,
      share: 0.5,
      has_vector: true,
    };
    api.on('POST', API_PATHS.interests, { status: 201, body: list({ ...summary, share: 0.5 }, coral) });
    await events.type(dialog.getByLabelText(/兴趣描述/), '礁生态与白化');
    await events.click(dialog.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('已添加研究兴趣')).toBeTruthy();
    expect(api.requestsTo('POST', API_PATHS.interests)[0]?.body).toEqual({
      name: '珊瑚礁',
      description: '珊瑚礁生态与白化',
    });
    expect(section.getAllByText('约占推荐的 50%')).toHaveLength(2);

    api.on('DELETE', apiPath(API_PATHS.interest, { id: '7' }), { body: list(summary) });
    await events.click(section.getByRole('button', { name: '删除 珊瑚礁' }));
    await waitFor(() => expect(section.queryByText('珊瑚礁')).toBeNull());
  });

  it('is left out when the backend has no interests (404)', async () => {
    renderApp(api, '/my', { user: testUser() });
    expect(await screen.findByRole('region', { name: '个性化推荐' })).toBeTruthy();
    await waitFor(() => expect(api.requestsTo('GET', API_PATHS.interests).length).toBeGreaterThan(0));
    // Shown while it loads, gone once the 404 arrives.
    await waitFor(() => expect(screen.queryByRole('region', { name: '研究兴趣' })).toBeNull());
    expect(screen.queryByText('添加兴趣')).toBeNull();
  });
});
