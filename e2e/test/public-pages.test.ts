import { sql } from '@radar/db';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureBothWidths, type E2eEnvironment, expectCleanPage, startE2e, VIEWPORTS } from '../src';

/** Anonymous visitor: landing page, shell layouts, route guard, need-login dialog, SPA fallback, contact form. */

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

const MENU_ANONYMOUS = ['官网', '论文推荐', '新闻推荐', '意见反馈', '登录'];

describe('landing page', () => {
  it('renders 科研雷达 with the register and login calls to action, without console errors', async () => {
    const { page, errors, failedResponses, blockedRequests } = await e2e.openPage();
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);

    await page.getByRole('heading', { level: 1, name: '科研雷达' }).waitFor();
    const register = page.getByTestId('landing-cta-register');
    const login = page.getByTestId('landing-cta-login');
    expect(await register.textContent()).toBe('注册');
    expect(await register.getAttribute('href')).toBe('/register');
    expect(await login.textContent()).toBe('登录');
    expect(await login.getAttribute('href')).toBe('/login');
    expect(await page.getByTestId('landing-cta-papers').count()).toBe(0);
    expect(await page.getByTestId('landing-login-required').count()).toBe(0);
    await page.waitForFunction(() => document.title === '论文与学术新闻智能推荐 · 科研雷达');

    // Late failures (a lazy chunk, the favicon) show up once the network is quiet.
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
    expect(failedResponses).toEqual([]);
    expect(blockedRequests).toEqual([]);

    await register.click();
    await page.waitForURL(e2e.url('/register'));
    await page.getByRole('heading', { level: 1, name: '注册' }).waitFor();
  });
});

describe('landing hero', () => {
  it('never breaks a word of the tagline across lines (推荐 stays whole at 1280 and 375 px)', async () => {
    for (const viewport of [VIEWPORTS.desktop, { width: 375, height: 812 }]) {
      const { page } = await e2e.openPage({ viewport });
      await page.goto('/');
      await page.getByRole('heading', { level: 1, name: '科研雷达' }).waitFor();
      // The top of each character of the tagline: two characters of one word share a line.
      const tops = await page.evaluate(() => {
        const tagline = [...document.querySelectorAll('p')].find((element) =>
          element.textContent?.startsWith('根据你的研究方向'),
        );
        if (!tagline) return null;
        const result: { char: string; top: number }[] = [];
        const walker = document.createTreeWalker(tagline, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (let index = 0; index < (node.textContent ?? '').length; index++) {
            const range = document.createRange();
            range.setStart(node, index);
            range.setEnd(node, index + 1);
            result.push({ char: node.textContent?.[index] ?? '', top: Math.round(range.getBoundingClientRect().top) });
          }
        }
        return result;
      });
      expect(tops).not.toBeNull();
      const text = (tops ?? []).map((entry) => entry.char).join('');
      for (const word of ['推荐', '研究方向', '最新论文', '学术新闻']) {
        const at = text.indexOf(word);
        const lines = new Set((tops ?? []).slice(at, at + word.length).map((entry) => entry.top));
        expect({ viewport: viewport.width, word, lines: lines.size }).toEqual({
          viewport: viewport.width,
          word,
          lines: 1,
        });
      }
      await e2e.closePages();
    }
  });
});

describe('shell', () => {
  it('shows the permanent 240 px drawer with the anonymous menu on a 1280x800 screen', async () => {
    const { page } = await e2e.openPage({ viewport: VIEWPORTS.desktop });
    await page.goto('/');

    const drawer = page.getByTestId('app-drawer');
    await drawer.waitFor();
    expect(await drawer.getAttribute('data-variant')).toBe('permanent');
    const paper = await drawer.locator('.MuiDrawer-paper').boundingBox();
    expect(paper?.width).toBe(240);
    expect(paper?.x).toBe(0);
    expect(await drawer.locator('[data-testid^="nav-"]').allInnerTexts()).toEqual(MENU_ANONYMOUS);
    expect(await page.getByTestId('app-top-bar').count()).toBe(0);
    expect(await page.getByTestId('app-drawer-toggle').count()).toBe(0);
  });

  it('shows the top bar on a 390x844 screen and opens the temporary drawer from it', async () => {
    const { page } = await e2e.openPage({ viewport: VIEWPORTS.mobile });
    await page.goto('/');

    await page.getByTestId('app-top-bar').waitFor();
    const toggle = page.getByTestId('app-drawer-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const drawer = page.getByTestId('app-drawer');
    expect(await drawer.isVisible()).toBe(false);

    await toggle.click();
    await drawer.waitFor();
    expect(await drawer.getAttribute('data-variant')).toBe('temporary');
    expect(await drawer.locator('[data-testid^="nav-"]').allInnerTexts()).toEqual(MENU_ANONYMOUS);

    // A menu click navigates and closes the drawer.
    await drawer.getByTestId('nav-login').click();
    await page.waitForURL(e2e.url('/login'));
    await drawer.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { level: 1, name: '登录' }).waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('route guard', () => {
  it('redirects an anonymous visit of /papers to / with replace, keeping /papers as the return target', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/');
    await page.getByTestId('landing-cta-login').waitFor();
    const historyLength = await page.evaluate(() => window.history.length);

    await page.goto('/papers');
    await page.waitForURL(e2e.url('/'));
    await page.getByTestId('landing-login-required').waitFor();
    expect(await page.getByTestId('papers-settings').count()).toBe(0);
    // Loading /papers added one entry; the redirect replaced it instead of pushing another.
    expect(await page.evaluate(() => window.history.length)).toBe(historyLength + 1);
    expect(await page.evaluate(() => window.history.state?.usr)).toEqual({ from: '/papers' });
  });
});

describe('need-login dialog', () => {
  it('opens on an anonymous click on 论文推荐; 取消 closes it, 去登录 goes to /login', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/');
    const papers = page.getByTestId('nav-papers');
    expect(await papers.textContent()).toBe('论文推荐');

    await papers.click();
    const dialog = page.getByTestId('need-login-dialog');
    await dialog.waitFor();
    await dialog.getByRole('heading', { name: '需要登录' }).waitFor();
    expect(page.url()).toBe(e2e.url('/'));

    const cancel = page.getByTestId('need-login-cancel');
    expect(await cancel.textContent()).toBe('取消');
    await cancel.click();
    await dialog.waitFor({ state: 'hidden' });
    expect(page.url()).toBe(e2e.url('/'));

    await papers.click();
    await dialog.waitFor();
    const confirm = page.getByTestId('need-login-confirm');
    expect(await confirm.textContent()).toBe('去登录');
    await confirm.click();
    await page.waitForURL(e2e.url('/login'));
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { level: 1, name: '登录' }).waitFor();
    // Login returns to where the visitor was.
    expect(await page.evaluate(() => window.history.state?.usr)).toEqual({ from: '/' });
  });
});

describe('deep links', () => {
  it('serves /login from the server (SPA fallback) and renders it, also after a reload', async () => {
    const { page, errors } = await e2e.openPage();
    const response = await page.goto('/login');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toContain('text/html');
    await page.getByRole('heading', { level: 1, name: '登录' }).waitFor();
    await page.waitForFunction(() => document.title === '登录 · 科研雷达');

    const reloaded = await page.reload();
    expect(reloaded?.status()).toBe(200);
    expect(page.url()).toBe(e2e.url('/login'));
    await page.getByRole('heading', { level: 1, name: '登录' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('answers unknown API paths with a JSON 404, not the web app', async () => {
    const { context } = await e2e.openPage();
    const response = await context.request.get(e2e.url('/api/does-not-exist'));
    expect(response.status()).toBe(404);
    expect(response.headers()['content-type']).toContain('application/json');
    expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('contact page', () => {
  it('lets an anonymous visitor from forgot-password send a message, stored for the operators', async () => {
    const e2ePage = await e2e.openPage();
    const { page } = e2ePage;
    await page.goto('/forgot-password');
    await page.getByTestId('forgot-password-contact').click();
    await page.waitForURL(e2e.url('/contact'));

    // No SUPPORT_EMAIL on this server: the page says so in a visitor's words, and offers the form.
    await page.getByTestId('contact-no-email').waitFor();
    expect(await page.locator('body').textContent()).not.toMatch(/VITE_|SUPPORT_EMAIL|环境变量/);
    await page.getByLabel('姓名（选填）').fill('王老师');
    await page.getByLabel('回复邮箱', { exact: false }).fill('visitor@example.org');
    await page.getByTestId('contact-title').fill('收不到验证码');
    await page.getByTestId('contact-description').fill('注册后一直收不到验证码邮件。');
    await captureBothWidths(page, 'contact');
    await page.getByTestId('contact-submit').click();

    const thanks = page.getByTestId('contact-thanks');
    await thanks.waitFor();
    expect(await thanks.textContent()).toContain('visitor@example.org');
    const stored = await e2e.server.database.db.execute<{ title: string; user_id: string | null; email: string }>(
      sql`SELECT title, user_id, user_info->>'email' AS email FROM radar.feedback WHERE type = '联系表单'`,
    );
    expect(stored.rows).toEqual([{ title: '收不到验证码', user_id: null, email: 'visitor@example.org' }]);
    expectCleanPage(e2ePage);
  });
});
