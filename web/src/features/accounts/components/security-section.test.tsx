// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { session, testUser } from '@/testing/api-fixtures';
import { renderApp, TEST_TOKEN, useFakeApi } from '@/testing/render-app';

const SESSIONS = '/api/auth/sessions/';
const THIS = session();
const PHONE = session({
  id: '0b6f2c11-8d5e-4c3a-b1f0-6e2a9d4c7b21',
  device: 'Safari · iPhone',
  is_current: false,
  last_seen_at: new Date(Date.now() - 3 * 3600_000).toISOString(),
});
const WECHAT = session({ id: 'c3d9e8f7-1a2b-4c5d-8e9f-0a1b2c3d4e5f', device: '微信 · Android', is_current: false });

describe('/my, login and security', () => {
  const api = useFakeApi();

  const section = async () => within(await screen.findByRole('region', { name: '登录与安全' }));

  it('lists the logins with this device marked, and logs one device out', async () => {
    api.on('GET', SESSIONS, { body: { sessions: [THIS, PHONE, WECHAT] } });
    const { user: events } = renderApp(api, '/my', { user: testUser() });
    const security = await section();

    const rows = await security.findAllByTestId('session-row');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Chrome · Windows本设备'),
      expect.stringContaining('Safari · iPhone'),
      expect.stringContaining('微信 · Android'),
    ]);
    expect(rows[1]?.textContent).toContain('最近活动：3小时前');
    // This device has no logout button of its own (the page's logout is that).
    expect(within(rows[0] as HTMLElement).queryByRole('button')).toBeNull();

    api.on('DELETE', `${SESSIONS}:id/`, { body: { message: '已退出该设备', ended: 1 } });
    api.on('GET', SESSIONS, { body: { sessions: [THIS, WECHAT] } });
    await events.click(security.getByRole('button', { name: '让 Safari · iPhone 退出登录' }));

    expect(await screen.findByText('已退出该设备')).toBeTruthy();
    await waitFor(() => expect(security.getAllByTestId('session-row')).toHaveLength(2));
    expect(api.requestsTo('DELETE', `${SESSIONS}:id/`).map((request) => request.path)).toEqual([
      `${SESSIONS}${PHONE.id}/`,
    ]);
  });

  it('logs every other device out after a confirmation', async () => {
    api.on('GET', SESSIONS, { body: { sessions: [THIS, PHONE, WECHAT] } });
    const { user: events } = renderApp(api, '/my', { user: testUser() });
    const security = await section();
    await security.findAllByTestId('session-row');

    api.on('POST', `${SESSIONS}logout-others/`, { body: { message: '已退出其他 2 台设备', ended: 2 } });
    await events.click(security.getByRole('button', { name: '退出其他设备' }));
    // Nothing is sent before the confirmation.
    expect(api.requestsTo('POST', `${SESSIONS}logout-others/`)).toHaveLength(0);
    api.on('GET', SESSIONS, { body: { sessions: [THIS] } });
    await events.click(await screen.findByRole('button', { name: '确定退出' }));

    expect(await screen.findByText('已退出其他 2 台设备')).toBeTruthy();
    expect(await security.findByText('没有其他设备登录此账号。')).toBeTruthy();
    // The page is hidden from the accessibility tree until the dialog's closing transition ends.
    expect(await security.findByRole('button', { name: '退出其他设备' })).toHaveProperty('disabled', true);
    expect(api.requestsTo('POST', `${SESSIONS}logout-others/`)[0]?.authorization).toBe(`Bearer ${TEST_TOKEN}`);
  });

  it('changes the password with the current one; a wrong one is shown on its field', async () => {
    api.on('GET', SESSIONS, { body: { sessions: [THIS, PHONE] } });
    const { user: events, fill } = renderApp(api, '/my', { user: testUser() });
    const security = await section();
    const form = within(security.getByRole('form', { name: '修改密码' }));

    await fill(form.getByLabelText('当前密码'), 'not-my-password1');
    await fill(form.getByLabelText('新密码'), 'n3w-secret-pass');
    await fill(form.getByLabelText('确认新密码'), 'n3w-secret-pass');
    api.on('POST', '/api/auth/password/change/', {
      status: 400,
      body: {
        code: 'CURRENT_PASSWORD_INVALID',
        message: '当前密码不正确',
        fields: { current_password: ['当前密码不正确'] },
      },
    });
    await events.click(form.getByRole('button', { name: '修改密码' }));
    expect(await form.findByText('当前密码不正确')).toBeTruthy();
    // A 400 is not a logout.
    expect(window.localStorage.getItem('token')).toBe(TEST_TOKEN);

    await events.clear(form.getByLabelText('当前密码'));
    await fill(form.getByLabelText('当前密码'), 'tr0ub4dor-horse');
    api.on('POST', '/api/auth/password/change/', {
      body: { message: '密码已修改，其他 1 台设备已退出登录', ended: 1 },
    });
    api.on('GET', SESSIONS, { body: { sessions: [THIS] } });
    await events.click(form.getByRole('button', { name: '修改密码' }));

    expect(await screen.findByText('密码已修改，其他 1 台设备已退出登录')).toBeTruthy();
    await waitFor(() => expect(form.getByLabelText('当前密码')).toHaveProperty('value', ''));
    expect(api.requestsTo('POST', '/api/auth/password/change/').at(-1)?.body).toEqual({
      current_password: 'tr0ub4dor-horse',
      password: 'n3w-secret-pass',
      confirm_password: 'n3w-secret-pass',
    });
    await waitFor(() => expect(security.getAllByTestId('session-row')).toHaveLength(1));
  });

  it('checks the new password in the browser before sending it', async () => {
    api.on('GET', SESSIONS, { body: { sessions: [THIS] } });
    const { user: events, fill } = renderApp(api, '/my', { user: testUser() });
    const form = within((await section()).getByRole('form', { name: '修改密码' }));
    await fill(form.getByLabelText('当前密码'), 'tr0ub4dor-horse');
    await fill(form.getByLabelText('新密码'), 'password123');
    await fill(form.getByLabelText('确认新密码'), 'password124');
    await events.click(form.getByRole('button', { name: '修改密码' }));
    expect(await form.findByText('密码过于简单，请使用更复杂的密码')).toBeTruthy();
    expect(form.getByText('两次输入的密码不一致')).toBeTruthy();
    expect(api.requestsTo('POST', '/api/auth/password/change/')).toHaveLength(0);
  });

  it('logs out on the server with this token, and signs out locally even when that call fails', async () => {
    api.on('GET', SESSIONS, { body: { sessions: [THIS] } });
    api.on('POST', '/api/auth/logout/', {
      status: 503,
      body: { code: 'SERVICE_UNAVAILABLE', message: '服务暂时不可用' },
    });
    const { user: events, router } = renderApp(api, '/my', { user: testUser() });
    await events.click(await screen.findByTestId('account-logout'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(window.localStorage.getItem('token')).toBeNull();
    await waitFor(() => expect(api.requestsTo('POST', '/api/auth/logout/')).toHaveLength(1));
    expect(api.requestsTo('POST', '/api/auth/logout/')[0]?.authorization).toBe(`Bearer ${TEST_TOKEN}`);
  });

  it("is left out when the backend has no sessions (only the spec's calls)", async () => {
    renderApp(api, '/my', { user: testUser() });
    expect(await screen.findByRole('region', { name: '基本信息' })).toBeTruthy();
    await waitFor(() => expect(api.requestsTo('GET', SESSIONS)).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('region', { name: '登录与安全' })).toBeNull());
    expect(screen.queryByText('请求的资源不存在')).toBeNull();
  });
});
