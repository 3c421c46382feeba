import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  captureBothWidths,
  type E2eEnvironment,
  expectFieldMessage,
  fieldByLabel,
  fieldMessage,
  fillAndLeave,
  readVerificationCode,
  SCREENSHOT_VIEWPORTS,
  startE2e,
  waitForMail,
} from '../src';

/**
 * The auth forms through the UI: every validation message, the navigation
 * state carried between them, and each screen at 375 and 1440 px (e2e/artifacts/auth-*.png). The
 * end-to-end flows (register, verify, reset, login) are in auth-flows.test.ts.
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

const NARROW = SCREENSHOT_VIEWPORTS.narrow;
const WIDE = SCREENSHOT_VIEWPORTS.wide;

const capture = (page: Page, name: string) => captureBothWidths(page, `auth-${name}`);

describe('navigation state', () => {
  it('carries the typed email and the origin to register', async () => {
    const { page } = await e2e.openPage({ viewport: NARROW });
    await page.goto('/login?email=prefill%40example.org');
    expect(await fieldByLabel(page, '邮箱地址').inputValue()).toBe('prefill@example.org');
    await page.getByTestId('login-register').click();
    await page.waitForURL(e2e.url('/register'));
    expect(await fieldByLabel(page, '邮箱地址').inputValue()).toBe('prefill@example.org');
  });
});

describe('validation messages', () => {
  it('login: required, contains @, email pattern, password required', async () => {
    const { page } = await e2e.openPage({ viewport: NARROW });
    await page.goto('/login');
    const email = fieldByLabel(page, '邮箱地址');
    const password = fieldByLabel(page, '密码');
    await email.focus();
    await email.blur();
    await expectFieldMessage(email, '请输入邮箱地址');
    await fillAndLeave(email, 'researcher');
    await expectFieldMessage(email, '请输入有效的邮箱地址');
    await fillAndLeave(email, 'researcher@uni');
    await expectFieldMessage(email, '邮箱格式不正确');
    await fillAndLeave(email, 'researcher@uni.edu');
    await expectFieldMessage(email, '');
    await password.focus();
    await password.blur();
    await expectFieldMessage(password, '请输入密码');
    await capture(page, 'login');
  });

  it('register: every email, password and confirmation rule', async () => {
    const { page } = await e2e.openPage({ viewport: WIDE });
    await page.goto('/register');
    const email = fieldByLabel(page, '邮箱地址');
    const password = fieldByLabel(page, '密码');
    const confirm = fieldByLabel(page, '确认密码');

    await page.getByTestId('register-submit').click();
    await expectFieldMessage(email, '请输入邮箱地址');
    await expectFieldMessage(password, '请输入密码');
    await expectFieldMessage(confirm, '请确认密码');

    await fillAndLeave(email, 'not-an-address');
    await expectFieldMessage(email, '请输入正确的邮箱格式');
    await fillAndLeave(email, `${'a'.repeat(250)}@uni.edu`);
    await expectFieldMessage(email, '邮箱地址过长');

    for (const [value, message] of [
      ['abc1', '密码长度至少为8位'],
      ['ABCDEFGH1', '密码必须包含至少一个小写字母'],
      ['abcdefgh', '密码必须包含至少一个数字'],
      ['password123', '密码过于简单，请使用更复杂的密码'],
    ] as const) {
      await fillAndLeave(password, value);
      await expectFieldMessage(password, message);
    }
    await fillAndLeave(password, 'Radar-2026x');
    await fillAndLeave(confirm, 'Radar-2026z');
    await expectFieldMessage(confirm, '两次输入的密码不一致');
    // Changing the password re-checks the confirmation.
    await fillAndLeave(password, 'Radar-2026z');
    await expect.poll(() => fieldMessage(confirm)).toBe('两次输入的密码一致');
    await capture(page, 'register');
  });

  it('forgot password: the address must contain @', async () => {
    const { page } = await e2e.openPage({ viewport: WIDE });
    await page.goto('/forgot-password');
    const email = fieldByLabel(page, '邮箱地址');
    await fillAndLeave(email, 'researcher');
    await expectFieldMessage(email, '请输入有效的邮箱地址');
    await capture(page, 'forgot-password');
  });

  it('reset password: minimum length and matching confirmation; without a token the link error', async () => {
    const { page } = await e2e.openPage({ viewport: WIDE });
    await page.goto('/reset-password?token=abc');
    const password = fieldByLabel(page, '新密码');
    const confirm = fieldByLabel(page, '确认新密码');
    await fillAndLeave(password, 'short1');
    await expectFieldMessage(password, '密码长度至少为8位');
    await fillAndLeave(password, 'Radar-2026x');
    await fillAndLeave(confirm, 'Radar-2026');
    await expectFieldMessage(confirm, '两次输入的密码不一致');
    await capture(page, 'reset-password');

    // A token nobody issued is refused by the server.
    await fillAndLeave(confirm, 'Radar-2026x');
    await page.getByTestId('reset-password-submit').click();
    expect(await page.getByTestId('reset-password-invalid-link').textContent()).toContain(
      '无效的重置链接，请重新申请密码重置',
    );

    await page.goto('/reset-password');
    const notice = page.getByTestId('reset-password-invalid-link');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('无效的重置链接，请重新申请密码重置');
    expect(await fieldByLabel(page, '新密码').count()).toBe(0);
    await capture(page, 'reset-password-no-token');
  });

  it('verify email: both fields required, the code is 6 digits, resend needs an email', async () => {
    const { page } = await e2e.openPage({ viewport: NARROW });
    await page.goto('/verify-email');
    await page.getByTestId('verify-submit').click();
    await expectFieldMessage(fieldByLabel(page, '邮箱地址'), '请填写邮箱和验证码');
    await expectFieldMessage(fieldByLabel(page, '验证码'), '请填写邮箱和验证码');
    await fillAndLeave(fieldByLabel(page, '验证码'), '12ab');
    await expectFieldMessage(fieldByLabel(page, '验证码'), '验证码必须是6位数字');
    await page.getByTestId('verify-resend').click();
    expect(await page.getByTestId('verify-notice').textContent()).toBe('请先输入邮箱地址');
  });
});

describe('verify email: attempts', () => {
  it('disables the code input once no attempt is left, with the lock message', async () => {
    const { page } = await e2e.openPage({ viewport: NARROW });
    const email = 'locked.out@example.org';
    await page.goto('/register');
    await fieldByLabel(page, '邮箱地址').fill(email);
    await fieldByLabel(page, '密码').fill('Radar-2026x');
    await fieldByLabel(page, '确认密码').fill('Radar-2026x');
    await page.getByTestId('register-submit').click();
    await page.waitForURL((url) => url.pathname === '/verify-email');
    const code = readVerificationCode(await waitForMail(e2e.server.runtime.parts.config.dataDir, email));

    const codeInput = fieldByLabel(page, '验证码');
    const attempts = page.getByTestId('verify-attempts');
    await expect.poll(() => attempts.getAttribute('data-attempts')).toBe('5');
    for (let left = 4; left >= 0; left--) {
      const wrong = String((Number(code) + 5 - left) % 1_000_000).padStart(6, '0');
      await codeInput.fill(wrong);
      await page.getByTestId('verify-submit').click();
      const message = page.getByTestId('verify-error-message');
      await message.waitFor();
      expect(await message.textContent()).toBe(
        left > 0 ? `验证码错误，还可尝试 ${left} 次` : '尝试次数超限，请1小时后再试或重新发送验证码',
      );
      await page.getByTestId('verify-retry').click();
      await expect.poll(() => attempts.getAttribute('data-attempts')).toBe(String(left));
    }
    expect(await codeInput.isDisabled()).toBe(true);
    expect(await page.getByTestId('verify-submit').isDisabled()).toBe(true);
    expect(await page.getByTestId('verify-code-unavailable').textContent()).toBe(
      '尝试次数超限，请1小时后再试或重新发送验证码',
    );
    await capture(page, 'verify-email-locked');
  });
});
