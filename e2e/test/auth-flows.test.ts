import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  captureBothWidths,
  type E2eEnvironment,
  expectCleanPage,
  fieldByLabel,
  fieldMessage,
  readResetPath,
  readSession,
  readVerificationCode,
  SCREENSHOT_VIEWPORTS,
  startE2e,
  waitForMail,
} from '../src';

/**
 * The auth screens through the UI only: the verification code and the
 * reset link are read from the mails the server wrote to its outbox. The tests share a server and
 * database and run in order on one account. Validation messages are in auth-forms.test.ts.
 */

let e2e: E2eEnvironment;
let dataDir: string;

beforeAll(async () => {
  e2e = await startE2e();
  dataDir = e2e.server.runtime.parts.config.dataDir;
});

afterEach(async () => {
  await e2e?.closePages();
});

afterAll(async () => {
  await e2e?.close();
});

const NARROW = SCREENSHOT_VIEWPORTS.narrow;
const WIDE = SCREENSHOT_VIEWPORTS.wide;

const ACCOUNT = { email: 'flow.researcher@example.org', password: 'Radar-2026x', newPassword: 'Radar-2027y' };

const capture = (page: Page, name: string) => captureBothWidths(page, `auth-${name}`);

describe('register -> verify -> signed in', () => {
  it('registers, rejects a wrong code with the attempts left, verifies and lands signed in on /my after 2 s', async () => {
    const opened = await e2e.openPage({ viewport: WIDE });
    const { page } = opened;
    await page.goto('/register');
    await page.getByRole('heading', { level: 1, name: '注册' }).waitFor();

    const email = fieldByLabel(page, '邮箱地址');
    const password = fieldByLabel(page, '密码');
    const confirm = fieldByLabel(page, '确认密码');
    const strength = page.getByTestId('password-strength');

    // Strength by its score: 'abc' 1 point, 'abcdefgh1' 3, 'Radar-2026x' 5.
    await password.fill('abc');
    expect(await strength.getAttribute('data-level')).toBe('weak');
    expect(await strength.textContent()).toContain('弱');
    await password.fill('abcdefgh1');
    expect(await strength.getAttribute('data-level')).toBe('medium');
    expect(await strength.textContent()).toContain('中');
    await password.fill(ACCOUNT.password);
    expect(await strength.getAttribute('data-level')).toBe('strong');
    expect(await strength.textContent()).toContain('强');

    await confirm.fill('Radar-2026');
    expect(await page.getByTestId('password-match').getAttribute('data-match')).toBe('false');
    expect(await fieldMessage(confirm)).toBe('两次输入的密码不一致');
    await confirm.fill(ACCOUNT.password);
    expect(await page.getByTestId('password-match').getAttribute('data-match')).toBe('true');
    expect(await fieldMessage(confirm)).toBe('两次输入的密码一致');

    await email.fill(`  ${ACCOUNT.email.toUpperCase()} `);
    const registered = page.waitForResponse((response) => response.url().endsWith('/api/auth/register/'));
    await page.getByTestId('register-submit').click();
    expect((await registered).status()).toBe(201);

    // /verify-email?email=…&from=register with the banner, the code countdown, attempts and the cooldown.
    await page.waitForURL((url) => url.pathname === '/verify-email');
    const url = new URL(page.url());
    expect(url.searchParams.get('email')).toBe(ACCOUNT.email);
    expect(url.searchParams.get('from')).toBe('register');
    expect(await page.getByTestId('verify-registered-banner').textContent()).toContain(ACCOUNT.email);
    expect(await fieldByLabel(page, '邮箱地址').inputValue()).toBe(ACCOUNT.email);
    const countdown = page.getByTestId('verify-code-countdown');
    await countdown.waitFor();
    expect(await countdown.textContent()).toMatch(/如已发送，验证码有效期：[45]:\d\d$/);
    const firstSeconds = Number(await countdown.getAttribute('data-seconds'));
    expect(firstSeconds).toBeGreaterThan(280);
    await page.waitForFunction(
      (before) =>
        Number(document.querySelector('[data-testid="verify-code-countdown"]')?.getAttribute('data-seconds')) < before,
      firstSeconds,
    );
    expect(await page.getByTestId('verify-attempts').textContent()).toBe('剩余尝试次数：5');
    const resend = page.getByTestId('verify-resend');
    expect(await resend.isDisabled()).toBe(true);
    expect(await resend.textContent()).toMatch(/^\d+ 秒后可重新发送$/);
    expect(await page.getByTestId('verify-help').textContent()).toContain('收不到验证码？');
    await capture(page, 'verify-email');

    const mail = await waitForMail(dataDir, ACCOUNT.email);
    const code = readVerificationCode(mail);
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');

    const codeInput = fieldByLabel(page, '验证码');
    await codeInput.fill(wrongCode);
    await page.getByTestId('verify-submit').click();
    const panel = page.getByTestId('verify-panel');
    await page.locator('[data-testid="verify-panel"][data-panel="error"]').waitFor();
    expect(await page.getByTestId('verify-error-message').textContent()).toBe('验证码错误，还可尝试 4 次');
    await page.getByTestId('verify-retry').click();
    expect(await panel.getAttribute('data-panel')).toBe('input');
    await expect.poll(() => page.getByTestId('verify-attempts').textContent()).toBe('剩余尝试次数：4');
    expect(await codeInput.inputValue()).toBe('');

    await codeInput.fill(code);
    await page.getByTestId('verify-submit').click();
    await page.locator('[data-testid="verify-panel"][data-panel="success"]').waitFor();
    // The success panel says where it goes next and stays on /verify-email meanwhile (the 2 s wait is
    // not timed here: on a loaded machine the test itself can notice the panel late).
    expect(new URL(page.url()).pathname).toBe('/verify-email');
    expect(await panel.textContent()).toContain('已为你自动登录，2 秒后进入“我的”页面…');
    // Signed in at once (auto-login), before the redirect.
    expect(await readSession(page)).toMatchObject({ userEmail: ACCOUNT.email });
    await page.waitForURL(e2e.url('/my'));
    const session = await readSession(page);
    expect(session.token).toEqual(expect.any(String));
    expect(session.userEmail).toBe(ACCOUNT.email);
    await page.getByTestId('nav-my').waitFor();
    expect(await page.getByTestId('nav-login').count()).toBe(0);
    expectCleanPage(opened, ['400 POST /api/auth/verify-email/']);
  });

  it('warns that a verified address is registered: use another email, or log in with it prefilled', async () => {
    const { page } = await e2e.openPage({ viewport: NARROW });
    await page.goto('/register');
    const email = fieldByLabel(page, '邮箱地址');
    await email.fill(ACCOUNT.email);
    await fieldByLabel(page, '密码').fill('Another-2026');
    await fieldByLabel(page, '确认密码').fill('Another-2026');
    await page.getByTestId('register-submit').click();

    const warning = page.getByTestId('register-already-registered');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('该邮箱已注册');
    await capture(page, 'register-already-registered');

    await page.getByTestId('register-use-another-email').click();
    expect(await email.inputValue()).toBe('');
    expect(await email.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await warning.count()).toBe(0);

    await email.fill(ACCOUNT.email);
    await page.getByTestId('register-submit').click();
    await warning.waitFor();
    await page.getByTestId('register-go-login').click();
    await page.waitForURL(e2e.url('/login'));
    expect(await fieldByLabel(page, '邮箱地址').inputValue()).toBe(ACCOUNT.email);
  });
});

describe('forgot password -> reset -> login', () => {
  it('mails a reset link, sets the new password, returns to / after 3 s, and the new password logs in', async () => {
    const { page } = await e2e.openPage({ viewport: WIDE });
    // The typed email travels from login to forgot-password in navigation state.
    await page.goto('/login');
    await fieldByLabel(page, '邮箱地址').fill(ACCOUNT.email);
    await page.getByTestId('login-forgot-password').click();
    await page.waitForURL(e2e.url('/forgot-password'));
    expect(await fieldByLabel(page, '邮箱地址').inputValue()).toBe(ACCOUNT.email);
    expect(await page.getByTestId('forgot-password-contact').getAttribute('href')).toBe('/contact');
    expect(await page.getByTestId('forgot-password-home').getAttribute('href')).toBe('/');

    await page.getByTestId('forgot-password-submit').click();
    const sent = page.getByTestId('forgot-password-sent');
    await sent.waitFor();
    expect(await sent.textContent()).toContain('如果该邮箱已注册，我们已向其发送重置密码邮件');

    // The address's verification mail is in the outbox too: the reset mail is the one with the link.
    const mail = await waitForMail(dataDir, ACCOUNT.email, {
      predicate: (item) => item.text.includes('/reset-password?token='),
    });
    await page.goto(readResetPath(mail));
    await page.getByRole('heading', { level: 1, name: '重置密码' }).waitFor();
    await fieldByLabel(page, '新密码').fill(ACCOUNT.newPassword);
    await fieldByLabel(page, '确认新密码').fill(ACCOUNT.newPassword);
    await page.getByTestId('reset-password-submit').click();
    const success = page.getByTestId('reset-password-success');
    await success.waitFor();
    expect(await success.textContent()).toContain('密码重置成功，请使用新密码登录');
    // It counts down on /reset-password before going home (not timed here: a loaded machine can notice
    // the panel late).
    expect(new URL(page.url()).pathname).toBe('/reset-password');
    expect(await success.textContent()).toMatch(/[0-3] 秒后返回首页，请使用新密码登录。/);
    await page.waitForURL(e2e.url('/'));

    // The old password no longer works; the new one does.
    await page.goto('/login');
    await fieldByLabel(page, '邮箱地址').fill(ACCOUNT.email);
    await fieldByLabel(page, '密码').fill(ACCOUNT.password);
    await page.getByTestId('login-submit').click();
    expect(await page.getByTestId('login-error').textContent()).toBe('邮箱或密码错误');
    await fieldByLabel(page, '密码').fill(ACCOUNT.newPassword);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(e2e.url('/my'));
    expect(await readSession(page)).toMatchObject({ userEmail: ACCOUNT.email });
  });

  it('disables the send button for the seconds of a rate-limit answer', async () => {
    const { page } = await e2e.openPage({ viewport: NARROW });
    await page.goto('/forgot-password');
    await fieldByLabel(page, '邮箱地址').fill('limited@example.org');
    const submit = page.getByTestId('forgot-password-submit');
    // A sent mail disables the button for a minute: a second click would send a second mail.
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/auth/forgot-password/'));
    await submit.click();
    expect((await answered).status()).toBe(200);
    await page.getByTestId('forgot-password-sent').waitFor();
    expect(await submit.isDisabled()).toBe(true);
    expect(await submit.textContent()).toMatch(/^\d+ 秒后可重新发送$/);
    // Three requests an hour per address are answered (two more, sent directly); the fourth is refused
    // with remaining_seconds. The minute's wait is dropped as if it had passed.
    const statuses = await page.evaluate(async () => {
      const send = () =>
        fetch('/api/auth/forgot-password/', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: 'limited@example.org' }),
        }).then((response) => response.status);
      const first = await send();
      localStorage.removeItem('forgotPasswordRetryAt');
      return [first, await send()];
    });
    expect(statuses).toEqual([200, 200]);
    await page.waitForFunction(
      () => !(document.querySelector('[data-testid="forgot-password-submit"]') as HTMLButtonElement).disabled,
    );
    const refused = page.waitForResponse((response) => response.url().endsWith('/api/auth/forgot-password/'));
    await submit.click();
    const response = await refused;
    expect(response.status()).toBe(429);
    const { remaining_seconds: remaining } = (await response.json()) as { remaining_seconds: number };
    const error = page.getByTestId('forgot-password-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('请求过于频繁，请稍后再试');
    expect(await submit.isDisabled()).toBe(true);
    // The hour's wait reads in minutes (约 60 分钟), not as thousands of seconds.
    const label = (await submit.textContent()) ?? '';
    expect(label).toBe(`约 ${Math.ceil(remaining / 60)} 分钟后可重新发送`);
    await capture(page, 'forgot-password-rate-limited');

    // A reload keeps the address and its wait.
    await page.reload();
    await page.getByTestId('forgot-password-submit').waitFor();
    expect(await fieldByLabel(page, '邮箱地址').inputValue()).toBe('limited@example.org');
    expect(await submit.isDisabled()).toBe(true);
    expect(await submit.textContent()).toMatch(/^约 \d+ 分钟后可重新发送$/);
  });
});

describe('login', () => {
  it('returns to the originating route after login, and sends a signed-in visitor of /login on', async () => {
    const { page } = await e2e.openPage({ viewport: WIDE });
    // The guard sends an anonymous /papers to / with the origin; its login button carries it on.
    await page.goto('/papers');
    await page.waitForURL(e2e.url('/'));
    await page.getByTestId('landing-login-required').getByRole('link', { name: '去登录' }).click();
    await page.waitForURL(e2e.url('/login'));
    const submit = page.getByTestId('login-submit');
    expect(await submit.isDisabled()).toBe(true);
    await fieldByLabel(page, '邮箱地址').fill(ACCOUNT.email);
    expect(await submit.isDisabled()).toBe(true);
    await fieldByLabel(page, '密码').fill(ACCOUNT.newPassword);
    expect(await submit.isDisabled()).toBe(false);
    await fieldByLabel(page, '密码').press('Enter');
    await page.waitForURL(e2e.url('/papers'));

    // Already signed in: /login goes on to /my at once.
    await page.goto('/login');
    await page.waitForURL(e2e.url('/my'));
    expect(await readSession(page)).toMatchObject({ userEmail: ACCOUNT.email });
  });
});
