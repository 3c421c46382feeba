import { FeedbackRepository } from '@radar/db';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { captureBothWidths, type E2eEnvironment, expectCleanPage, SCREENSHOT_VIEWPORTS, startE2e } from '../src';

/**
 * The feedback page /feedback for a signed-in user: validation, the
 * attached user info, sending, the stored row, the thanks panel and its two ways on.
 */

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

const SHANGHAI_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

it('validates, sends feedback with the user info, stores it, and offers home or more feedback', async () => {
  const { user, token } = await e2e.server.createSignedInUser('feedback.user@example.org');
  const opened = await e2e.openPage({
    viewport: SCREENSHOT_VIEWPORTS.wide,
    // The account has no research info: without this /my would show its first-visit guide over the menu.
    localStorage: { token, userEmail: user.email, 'research-guide-dismissed': 'true' },
  });
  const { page } = opened;

  // Opened from /my through the menu, so cancel goes back there.
  await page.goto('/my');
  await page.getByRole('heading', { level: 1, name: '我的' }).waitFor();
  await page.getByTestId('nav-feedback').click();
  await page.getByRole('heading', { level: 1, name: '意见反馈' }).waitFor();

  const info = (key: string) => page.getByTestId(`feedback-user-info-${key}`).textContent();
  expect(await info('email')).toBe('feedback.user@example.org');
  expect(await info('userId')).toBe(user.id);
  expect(await info('currentPage')).toBe(e2e.url('/feedback'));
  expect(await info('userAgent')).toBe(await page.evaluate(() => navigator.userAgent));
  expect(await info('timestamp')).toMatch(SHANGHAI_TIME);
  await captureBothWidths(page, 'feedback-form');

  // Nothing filled in, then only blanks: one message, nothing sent.
  const validation = page.getByTestId('feedback-validation');
  await page.getByTestId('feedback-submit').click();
  expect(await validation.textContent()).toBe('请填写标题和详细描述');
  await page.getByTestId('feedback-title').fill('   ');
  await page.getByTestId('feedback-description').fill('  \n ');
  await page.getByTestId('feedback-submit').click();
  expect(await validation.textContent()).toBe('请填写标题和详细描述');
  expect(await page.getByTestId('feedback-title').getAttribute('aria-invalid')).toBe('true');

  // The title stops at 50 characters and counts them.
  await page.getByTestId('feedback-title').fill('长'.repeat(60));
  expect(await page.getByTestId('feedback-title').inputValue()).toHaveLength(50);
  expect(await page.getByTestId('feedback-title-counter').textContent()).toBe('50/50');
  await page.getByTestId('feedback-title').fill('  推荐列表希望能按期刊筛选  ');
  expect(await page.getByTestId('feedback-title-counter').textContent()).toBe('16/50');
  await page.getByTestId('feedback-description').fill('希望论文推荐页可以只看某几个期刊的文章。\n谢谢！');
  expect(await validation.count()).toBe(0);
  await page.getByRole('radio', { name: '功能建议' }).check();

  const sent = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/feedback/send/');
  await page.getByTestId('feedback-submit').click();
  const response = await sent;
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { id: string };
  expect(JSON.parse(response.request().postData() ?? '{}')).toMatchObject({
    type: '功能建议',
    title: '推荐列表希望能按期刊筛选',
    userInfo: { email: 'feedback.user@example.org', userId: user.id, currentPage: e2e.url('/feedback') },
  });

  await page.getByTestId('feedback-thanks').waitFor();
  expect(await page.getByTestId('feedback-thanks').getByRole('heading').textContent()).toBe('感谢你的反馈');
  await captureBothWidths(page, 'feedback-thanks');

  const stored = await new FeedbackRepository(e2e.server.database.db).findById(Number(body.id));
  expect(stored).toMatchObject({
    userId: user.id,
    type: '功能建议',
    title: '推荐列表希望能按期刊筛选',
    description: '希望论文推荐页可以只看某几个期刊的文章。\n谢谢！',
  });
  expect(stored?.userInfo).toMatchObject({
    email: 'feedback.user@example.org',
    userId: user.id,
    timestamp: expect.stringMatching(SHANGHAI_TIME),
  });

  // Continue: an empty form again; cancel goes back to /my.
  await page.getByTestId('feedback-again').click();
  expect(await page.getByTestId('feedback-title').inputValue()).toBe('');
  expect(await page.getByRole('radio', { name: '错误报告' }).isChecked()).toBe(true);
  await page.getByTestId('feedback-cancel').click();
  await page.waitForURL(e2e.url('/my'));

  // Return home from the thanks panel.
  await page.goto('/feedback');
  await page.getByTestId('feedback-title').fill('页面加载偶尔较慢');
  await page.getByTestId('feedback-description').fill('晚上打开新闻推荐时需要等待几秒。');
  await page.getByTestId('feedback-submit').click();
  await page.getByTestId('feedback-home').click();
  await page.waitForURL(e2e.url('/'));

  expectCleanPage(opened);
});
