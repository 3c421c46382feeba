// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

describe('route table', () => {
  const api = useFakeApi();

  it('sends a signed-out visitor of a guarded page to the landing page, offering to log in and come back', async () => {
    const { user, router } = renderApp(api, '/papers');

    const hint = await screen.findByRole('alert');
    expect(router.state.location.pathname).toBe('/');
    expect(api.requestsTo('GET', '/api/auth/recommendations/papers/')).toHaveLength(0);

    await user.click(within(hint).getByRole('link', { name: '去登录' }));
    expect(await screen.findByRole('heading', { level: 1, name: '登录' })).toBeTruthy();
    expect(router.state.location.state).toEqual({ from: '/papers' });
  });

  it('signs out a visitor whose stored token the server refuses, then guards the page', async () => {
    api.on('GET', '/api/auth/user/', {
      status: 401,
      body: { code: 'AUTH_EXPIRED', message: '登录已过期，请重新登录' },
    });
    const { router } = renderApp(api, '/my', {
      storage: { token: 'expired-token', userEmail: 'li.hua@example.edu.cn' },
    });

    expect(await screen.findByRole('link', { name: '去登录' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(localStorage.getItem('token')).toBeNull();
    expect(api.requestsTo('GET', '/api/auth/user/')[0]?.authorization).toBe('Bearer expired-token');
  });

  it('says the login expired, not that the page needs a login, when a 401 ends a session mid-way', async () => {
    api.on('GET', '/user-keywords/', {
      status: 401,
      body: { code: 'AUTH_EXPIRED', message: '登录已过期，请重新登录' },
    });
    const { user, router } = renderApp(api, '/keywords', { user: testUser() });

    const hint = await screen.findByTestId('landing-login-required');
    expect(router.state.location.pathname).toBe('/');
    expect(hint.textContent).toContain('登录已过期，请重新登录');
    expect(hint.textContent).not.toContain('该页面需要登录后访问');
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('userEmail')).toBeNull();

    // Logging in again returns to the page the reader was on.
    await user.click(within(hint).getByRole('link', { name: '去登录' }));
    expect(await screen.findByRole('heading', { level: 1, name: '登录' })).toBeTruthy();
    expect(router.state.location.state).toEqual({ from: '/keywords' });
  });

  it('keeps the never-logged-in hint for a visitor who had no session', async () => {
    renderApp(api, '/keywords');
    const hint = await screen.findByTestId('landing-login-required');
    expect(hint.textContent).toContain('该页面需要登录后访问');
    expect(hint.textContent).not.toContain('登录已过期');
  });

  it('shows the not-found page for a path outside the table', async () => {
    const { user, router } = renderApp(api, '/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: '页面不存在' })).toBeTruthy();
    await user.click(screen.getByRole('link', { name: '返回首页' }));
    expect(router.state.location.pathname).toBe('/');
  });

  it('opens the need-login dialog for a signed-out click on a guarded menu item', async () => {
    const { user, router } = renderApp(api, '/');
    await user.click(await screen.findByRole('link', { name: '新闻推荐' }));

    const dialog = within(await screen.findByRole('dialog'));
    await user.click(dialog.getByRole('button', { name: '去登录' }));
    expect(await screen.findByRole('heading', { level: 1, name: '登录' })).toBeTruthy();
    expect(router.state.location.state).toEqual({ from: '/' });
  });
});
