import { UserAdminRepository } from '@radar/db';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type E2eEnvironment, readSession, startE2e } from '../src';

/** The session: a stored token is checked against the server on load. */

let e2e: E2eEnvironment;

beforeAll(async () => {
  e2e = await startE2e();
});

afterEach(async () => {
  await e2e?.closePages();
});

afterAll(async () => {
  await e2e?.close();
});

const USER_PATH = '/api/auth/user/';

describe('a stored token the server rejects', () => {
  it('is sent, then token and email are cleared and the menu offers 登录', async () => {
    const { page } = await e2e.openPage({ localStorage: { token: 'not-a-jwt', userEmail: 'ghost@example.org' } });
    const userResponse = page.waitForResponse((response) => new URL(response.url()).pathname === USER_PATH);
    await page.goto('/');

    const response = await userResponse;
    expect(response.request().headers().authorization).toBe('Bearer not-a-jwt');
    expect(response.status()).toBe(401);

    const login = page.getByTestId('nav-login');
    await login.waitFor();
    expect(await login.textContent()).toBe('登录');
    expect(await page.getByTestId('nav-my').count()).toBe(0);
    await page.getByTestId('landing-cta-register').waitFor();
    expect(await readSession(page)).toEqual({ token: null, userEmail: null });
  });

  it('does not open a guarded route: /papers ends on / as a visitor', async () => {
    const { page } = await e2e.openPage({ localStorage: { token: 'not-a-jwt', userEmail: 'ghost@example.org' } });
    await page.goto('/papers');
    await page.waitForURL(e2e.url('/'));
    await page.getByTestId('landing-login-required').waitFor();
    await page.getByTestId('nav-login').waitFor();
    expect(await readSession(page)).toEqual({ token: null, userEmail: null });
  });
});

describe('a valid token of a real user', () => {
  it('signs the user in: the menu shows 我的 and /papers opens', async () => {
    const { user, token } = await e2e.server.createSignedInUser('e2e@example.org');
    const { page, errors } = await e2e.openPage({ localStorage: { token, userEmail: user.email } });
    const userResponse = page.waitForResponse((response) => new URL(response.url()).pathname === USER_PATH);
    await page.goto('/');

    const response = await userResponse;
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ id: user.id, email: 'e2e@example.org' });

    // Only an authenticated session gets this call to action (a session still loading does not).
    await page.getByTestId('landing-cta-papers').waitFor();
    expect(await page.getByTestId('nav-my').textContent()).toBe('我的');
    expect(await page.getByTestId('nav-login').count()).toBe(0);
    await page.getByTestId('app-drawer').getByText('e2e@example.org').waitFor();
    expect(await readSession(page)).toEqual({ token, userEmail: 'e2e@example.org' });

    await page.getByTestId('nav-papers').click();
    await page.waitForURL(e2e.url('/papers'));
    await page.getByRole('heading', { level: 1, name: '论文推荐' }).waitFor();
    expect(await page.getByTestId('need-login-dialog').count()).toBe(0);

    // A full load of the guarded route waits for the session check instead of redirecting.
    await page.goto('/papers');
    await page.getByRole('heading', { level: 1, name: '论文推荐' }).waitFor();
    expect(page.url()).toBe(e2e.url('/papers'));
    expect(await readSession(page)).toEqual({ token, userEmail: 'e2e@example.org' });
    expect(errors).toEqual([]);
  });
});

describe('a session the server ends while it is used', () => {
  it('says the login expired (not that the page needs a login) and keeps the way back', async () => {
    const { user, token } = await e2e.server.createSignedInUser('expiring@example.org');
    const { page } = await e2e.openPage({ localStorage: { token, userEmail: user.email } });
    // The page's own calls (the session check, the keywords, the suggestions) are answered first: one
    // still in flight when the account is disabled would end the session before the reader acts (seen in
    // CI). 'networkidle' is no wait for them: on a loaded machine it is reached while the app's script is
    // still parsed, before any of these calls starts.
    const pageCalls = Promise.all(
      [USER_PATH, '/user-keywords/', '/user-rkeywords/'].map((path) =>
        page.waitForResponse((response) => new URL(response.url()).pathname === path),
      ),
    );
    await page.goto('/keywords');
    await page.getByTestId('keyword-add-input').waitFor();
    await pageCalls;

    // An operator disables the account: the token it holds gets 401 on its next request.
    await new UserAdminRepository(e2e.server.database.db).disable(user.id);
    const refused = page.waitForResponse((response) => new URL(response.url()).pathname === '/user-keywords/add/');
    await page.getByTestId('keyword-add-input').fill('graph neural network');
    await page.getByTestId('keyword-add-submit').click();
    expect((await refused).status()).toBe(401);

    await page.waitForURL(e2e.url('/'));
    const notice = page.getByTestId('landing-login-required');
    await notice.getByText('登录已过期，请重新登录').waitFor();
    expect(await notice.textContent()).not.toContain('该页面需要登录后访问');
    expect(await readSession(page)).toEqual({ token: null, userEmail: null });
    await notice.getByRole('link', { name: '去登录' }).click();
    await page.waitForURL(e2e.url('/login'));
  });
});
