// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEYS } from '@/lib/session';
import { testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

const EXPORT = '/api/auth/user/export/';
const DELETE = '/api/auth/user/delete/';

describe('/my account self-service', () => {
  const api = useFakeApi();

  it('downloads the data as a JSON file', async () => {
    const user = testUser();
    api.on('GET', EXPORT, { body: { profile: { email: user.email }, keywords: [] } });
    const saved: string[] = [];
    const originalCreate = URL.createObjectURL;
    URL.createObjectURL = (blob: Blob) => {
      saved.push(blob.type);
      return 'blob:export';
    };
    try {
      const { user: events } = renderApp(api, '/my', { user });
      const section = await screen.findByTestId('data-export-section');
      await events.click(within(section).getByRole('button', { name: '下载数据' }));
      expect(await screen.findByText('数据已下载')).toBeTruthy();
      expect(api.requestsTo('GET', EXPORT)).toHaveLength(1);
      expect(saved).toEqual(['application/json']);
    } finally {
      URL.createObjectURL = originalCreate;
    }
  });

  it('deletes the account after the password, shows a wrong password, then lands logged out with a message', async () => {
    const user = testUser();
    const { user: events, router } = renderApp(api, '/my', { user });
    const section = await screen.findByTestId('delete-account-section');
    await events.click(within(section).getByRole('button', { name: '删除账户' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/此操作不可撤销/)).toBeTruthy();

    api.on('POST', DELETE, {
      status: 400,
      body: { code: 'INVALID_CREDENTIALS', message: '密码错误，请重新输入', fields: { password: ['密码错误'] } },
    });
    await events.type(within(dialog).getByLabelText('当前密码'), 'wrong-password1');
    await events.click(within(dialog).getByRole('button', { name: '永久删除' }));
    expect(await within(dialog).findByText('密码错误，请重新输入')).toBeTruthy();
    expect(localStorage.getItem(SESSION_STORAGE_KEYS.token)).not.toBeNull();

    api.on('POST', DELETE, { body: { message: '账户已删除' } });
    await events.clear(within(dialog).getByLabelText('当前密码'));
    await events.type(within(dialog).getByLabelText('当前密码'), 'right-password1');
    await events.click(within(dialog).getByRole('button', { name: '永久删除' }));

    expect(await screen.findByTestId('landing-account-deleted')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.requestsTo('POST', DELETE).map((request) => request.body)).toEqual([
      { password: 'wrong-password1' },
      { password: 'right-password1' },
    ]);
    expect(localStorage.getItem(SESSION_STORAGE_KEYS.token)).toBeNull();
  });
});
