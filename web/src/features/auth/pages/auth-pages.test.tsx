// @vitest-environment happy-dom
import type { VerificationStatusResponse } from '@radar/shared';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paperRecommendations, testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

const EMAIL = 'li.hua@example.edu.cn';

describe('auth screens', () => {
  const api = useFakeApi();

  afterEach(() => {
    vi.useRealTimers();
  });

  describe('/login', () => {
    it('validates each field once it is left and keeps submit disabled until both are filled', async () => {
      const { user } = renderApp(api, '/login');
      const email = await screen.findByLabelText('邮箱地址');
      const submit = screen.getByRole('button', { name: '登录' });
      expect(submit).toHaveProperty('disabled', true);

      await user.click(email);
      await user.tab();
      expect(await screen.findByText('请输入邮箱地址')).toBeTruthy();
      await user.type(email, 'li.hua');
      expect(await screen.findByText('请输入有效的邮箱地址')).toBeTruthy();
      await user.type(email, '@example');
      expect(await screen.findByText('邮箱格式不正确')).toBeTruthy();

      const password = screen.getByLabelText('密码');
      await user.click(password);
      await user.tab();
      expect(await screen.findByText('请输入密码')).toBeTruthy();
      expect(submit).toHaveProperty('disabled', true);

      await user.type(password, 'secret123');
      expect(submit).toHaveProperty('disabled', false);
      expect(api.requestsTo('POST', '/api/auth/login/')).toHaveLength(0);
    });

    it("shows the server's message for a wrong password", async () => {
      api.on('POST', '/api/auth/login/', {
        status: 401,
        body: { code: 'INVALID_CREDENTIALS', message: '邮箱或密码错误' },
      });
      const { user, fill } = renderApp(api, '/login');

      await fill(await screen.findByLabelText('邮箱地址'), EMAIL);
      await fill(screen.getByLabelText('密码'), 'wrong-password1');
      await user.click(screen.getByRole('button', { name: '登录' }));

      expect((await screen.findByRole('alert')).textContent).toBe('邮箱或密码错误');
      expect(api.requestsTo('POST', '/api/auth/login/').map((request) => request.body)).toEqual([
        { email: EMAIL, password: 'wrong-password1' },
      ]);
    });

    it('sends a visitor who is already signed in to /my', async () => {
      const { router } = renderApp(api, '/login', { user: testUser() });
      expect(await screen.findByRole('heading', { level: 1, name: '我的' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/my');
    });

    it('sends a visitor who is already signed in back to the page they came from', async () => {
      api.on('GET', '/api/auth/recommendations/papers/', { body: paperRecommendations([]) });
      const { router } = renderApp(api, '/login', { user: testUser(), state: { from: '/papers' } });
      expect(await screen.findByRole('heading', { level: 1, name: '论文推荐' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/papers');
    });
  });

  describe('/register', () => {
    it('rates the password weak, medium or strong and says whether the confirmation matches', async () => {
      const { user, fill } = renderApp(api, '/register');
      const password = await screen.findByLabelText('密码');

      const enter = async (field: HTMLElement, text: string) => {
        await user.clear(field);
        await fill(field, text);
      };
      await enter(password, 'abc');
      expect(screen.getByText('密码强度：弱')).toBeTruthy();
      await enter(password, 'abcdefgh1');
      expect(screen.getByText('密码强度：中')).toBeTruthy();
      await enter(password, 'abcdefgh1XYZ!');
      expect(screen.getByText('密码强度：强')).toBeTruthy();

      const confirmation = screen.getByLabelText('确认密码');
      await enter(confirmation, 'abcdefgh1');
      expect(screen.getByText('两次输入的密码不一致')).toBeTruthy();
      await enter(confirmation, 'abcdefgh1XYZ!');
      expect(screen.getByText('两次输入的密码一致')).toBeTruthy();
    });

    it('never rates a common password 强, even when it meets four rules', async () => {
      const { user, fill } = renderApp(api, '/register');
      const password = await screen.findByLabelText('密码');
      await fill(password, 'Password123');
      await user.tab();

      expect(await screen.findByText('密码过于简单，请使用更复杂的密码')).toBeTruthy();
      expect(screen.getByText('密码强度：弱')).toBeTruthy();
      expect(screen.queryByText('密码强度：强')).toBeNull();

      await user.clear(password);
      await fill(password, 'P@ssw0rd2024!');
      expect(screen.getByText('密码强度：弱')).toBeTruthy();
    });

    it('offers to log in or use another email when the address is already registered', async () => {
      api.on('POST', '/api/auth/register/', {
        status: 409,
        body: {
          code: 'EMAIL_ALREADY_REGISTERED',
          message: '该邮箱已注册，请直接登录或使用其他邮箱',
          fields: { email: ['该邮箱已注册'] },
        },
      });
      const { user, router, fill } = renderApp(api, '/register');
      await fillRegisterForm(fill, EMAIL, 'abcdefgh1');
      await user.click(screen.getByRole('button', { name: '注册' }));

      expect(await screen.findByText('该邮箱已注册')).toBeTruthy();
      expect(api.requestsTo('POST', '/api/auth/register/')[0]?.body).toEqual({
        email: EMAIL,
        password: 'abcdefgh1',
        password2: 'abcdefgh1',
      });

      await user.click(screen.getByRole('button', { name: '使用其他邮箱' }));
      expect(screen.queryByText('该邮箱已注册')).toBeNull();
      expect(screen.getByLabelText('邮箱地址')).toHaveProperty('value', '');

      await fill(screen.getByLabelText('邮箱地址'), EMAIL);
      await user.click(screen.getByRole('button', { name: '注册' }));
      await user.click(await screen.findByRole('link', { name: '去登录' }));
      expect(await screen.findByRole('heading', { level: 1, name: '登录' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/login');
      expect(screen.getByLabelText('邮箱地址')).toHaveProperty('value', EMAIL);
    });

    it('continues to /verify-email with the registration banner', async () => {
      api.on('POST', '/api/auth/register/', {
        body: { message: '注册成功，验证码已发送', email: EMAIL, resend_available_in: 60 },
      });
      api.on('GET', '/api/auth/verification-status/', { body: verificationStatus() });
      const { user, router, fill } = renderApp(api, '/register');
      await fillRegisterForm(fill, EMAIL, 'abcdefgh1');
      await user.click(screen.getByRole('button', { name: '注册' }));

      expect(await screen.findByText('注册成功！')).toBeTruthy();
      expect(router.state.location.pathname).toBe('/verify-email');
      expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
        email: EMAIL,
        from: 'register',
      });
    });
  });

  describe('/forgot-password', () => {
    it('disables the send button for the seconds a rate limit gives', async () => {
      freezeClock();
      api.on('POST', '/api/auth/forgot-password/', {
        status: 429,
        body: { code: 'RATE_LIMITED', message: '请求过于频繁，请稍后再试', remaining_seconds: 42 },
      });
      const { user, fill } = renderApp(api, '/forgot-password');
      await fill(await screen.findByLabelText('邮箱地址'), EMAIL);
      await user.click(screen.getByRole('button', { name: '发送重置邮件' }));

      expect((await screen.findByRole('alert')).textContent).toBe('请求过于频繁，请稍后再试');
      expect(screen.getByRole('button', { name: '42 秒后可重新发送' })).toHaveProperty('disabled', true);
      expect(api.requestsTo('POST', '/api/auth/forgot-password/')[0]?.body).toEqual({ email: EMAIL });
    });

    it('shows a long rate limit in minutes, and keeps counting after a reload', async () => {
      freezeClock();
      api.on('POST', '/api/auth/forgot-password/', {
        status: 429,
        body: { code: 'RATE_LIMITED', message: '请求过于频繁，请稍后再试', remaining_seconds: 3245 },
      });
      const first = renderApp(api, '/forgot-password');
      await first.fill(await screen.findByLabelText('邮箱地址'), EMAIL);
      await first.user.click(screen.getByRole('button', { name: '发送重置邮件' }));
      expect(await screen.findByRole('button', { name: '约 55 分钟后可重新发送' })).toHaveProperty('disabled', true);
      expect(screen.queryByText(/3245/)).toBeNull();

      // A reload ten minutes later: the same address, still waiting, now as m:ss once under ten minutes.
      const stored = { ...localStorage };
      first.unmount();
      moveClock(2_700_000);
      renderApp(api, '/forgot-password', { storage: stored });
      expect(await screen.findByRole('button', { name: '9:05 后可重新发送' })).toHaveProperty('disabled', true);
      expect(screen.getByLabelText('邮箱地址')).toHaveProperty('value', EMAIL);
      expect(api.requestsTo('POST', '/api/auth/forgot-password/')).toHaveLength(1);
    });

    it('says the mail was sent', async () => {
      api.on('POST', '/api/auth/forgot-password/', { body: { message: '如果该邮箱已注册，重置邮件已发送' } });
      const { user, fill } = renderApp(api, '/forgot-password');
      await fill(await screen.findByLabelText('邮箱地址'), EMAIL);
      await user.click(screen.getByRole('button', { name: '发送重置邮件' }));

      expect(await screen.findByText('重置邮件已发送')).toBeTruthy();
      expect(screen.getByText('如果该邮箱已注册，重置邮件已发送')).toBeTruthy();
      // No second mail by a second click: the button waits out a cooldown for this address.
      const button = screen.getByTestId('forgot-password-submit');
      expect(button).toHaveProperty('disabled', true);
      expect(button.textContent).toMatch(/^(60|59) 秒后可重新发送$/);
      expect(api.requestsTo('POST', '/api/auth/forgot-password/')).toHaveLength(1);
    });
  });

  describe('/reset-password', () => {
    it('shows the invalid-link error without a token, with a way to ask for a new mail', async () => {
      const { user, router } = renderApp(api, '/reset-password');
      expect((await screen.findByRole('alert')).textContent).toBe('无效的重置链接，请重新申请密码重置');
      expect(screen.queryByLabelText('新密码')).toBeNull();

      await user.click(screen.getByRole('link', { name: '重新申请重置邮件' }));
      expect(await screen.findByRole('heading', { level: 1, name: '忘记密码' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/forgot-password');
    });

    it('shows the invalid-link error when the server refuses the token', async () => {
      api.on('POST', '/api/auth/reset-password/', {
        status: 400,
        body: { code: 'RESET_TOKEN_INVALID', message: '无效的重置链接，请重新申请密码重置' },
      });
      const { user, fill } = renderApp(api, '/reset-password?token=used-token');
      await fill(await screen.findByLabelText('新密码'), 'newpass123');
      await fill(screen.getByLabelText('确认新密码'), 'newpass123');
      await user.click(screen.getByRole('button', { name: '重置密码' }));

      expect((await screen.findByRole('alert')).textContent).toBe('无效的重置链接，请重新申请密码重置');
      expect(api.requestsTo('POST', '/api/auth/reset-password/')[0]?.body).toEqual({
        token: 'used-token',
        password: 'newpass123',
        confirm_password: 'newpass123',
      });
    });
  });

  describe('/verify-email', () => {
    it('counts the code down in m:ss and says when it has expired', async () => {
      freezeClock();
      api.on('GET', '/api/auth/verification-status/', { body: verificationStatus({ remaining_time: 62 }) });
      renderApp(api, `/verify-email?email=${EMAIL}&from=register`);

      expect(await screen.findByText('1:02')).toBeTruthy();
      expect(screen.getByText(`验证码已发送至 ${EMAIL}，请查收邮件并在下方输入验证码。`)).toBeTruthy();
      expect(api.requestsTo('GET', '/api/auth/verification-status/')[0]?.query).toEqual({ email: EMAIL });

      moveClock(62_000);
      expect(await screen.findByText('已过期')).toBeTruthy();
      expect(screen.getByText('验证码已过期，请重新发送验证码')).toBeTruthy();
    });

    it('drops 请先输入邮箱地址 once an address is typed, and shows the status of an address typed by hand', async () => {
      api.on('GET', '/api/auth/verification-status/', { body: verificationStatus({ remaining_time: 299 }) });
      const { user, fill } = renderApp(api, '/verify-email');

      await user.click(await screen.findByRole('button', { name: '重新发送验证码' }));
      expect((await screen.findByTestId('verify-notice')).textContent).toBe('请先输入邮箱地址');
      expect(api.requestsTo('GET', '/api/auth/verification-status/')).toHaveLength(0);

      await fill(screen.getByLabelText('邮箱地址'), EMAIL);
      expect(screen.queryByTestId('verify-notice')).toBeNull();
      // Once the typing pauses, the typed address's code status is fetched and shown.
      expect(await screen.findByTestId('verify-code-countdown')).toBeTruthy();
      expect(api.requestsTo('GET', '/api/auth/verification-status/').map((request) => request.query)).toEqual([
        { email: EMAIL },
      ]);
    });

    it('drops 验证码已发送 and disables 验证 once the code has expired', async () => {
      freezeClock();
      api.on('GET', '/api/auth/verification-status/', {
        body: verificationStatus({ remaining_time: 30, resend_available_in: 0 }),
      });
      api.on('POST', '/api/auth/resend-verification-code/', {
        body: { message: '验证码已发送，请查收邮件', resend_available_in: 60 },
      });
      const { user, fill } = renderApp(api, `/verify-email?email=${EMAIL}`);

      await user.click(await screen.findByRole('button', { name: '重新发送验证码' }));
      expect((await screen.findByTestId('verify-notice')).textContent).toBe('验证码已发送，请查收邮件');
      await fill(screen.getByTestId('verify-code-input'), '123456');
      expect(screen.getByRole('button', { name: '验证' })).toHaveProperty('disabled', false);

      moveClock(31_000);
      expect(await screen.findByText('已过期')).toBeTruthy();
      expect(screen.getByText('验证码已过期，请重新发送验证码')).toBeTruthy();
      expect(screen.queryByTestId('verify-notice')).toBeNull();
      expect(screen.getByRole('button', { name: '验证' })).toHaveProperty('disabled', true);
    });

    it('resends the code and then waits 60 s before the next resend', async () => {
      freezeClock();
      api.on('GET', '/api/auth/verification-status/', { body: verificationStatus({ resend_available_in: 0 }) });
      api.on('POST', '/api/auth/resend-verification-code/', {
        body: { message: '验证码已发送，请查收邮件', resend_available_in: 60 },
      });
      const { user } = renderApp(api, `/verify-email?email=${EMAIL}`);

      await user.click(await screen.findByRole('button', { name: '重新发送验证码' }));
      expect(await screen.findByText('验证码已发送，请查收邮件')).toBeTruthy();
      expect(screen.getByRole('button', { name: '60 秒后可重新发送' })).toHaveProperty('disabled', true);
      expect(api.requestsTo('POST', '/api/auth/resend-verification-code/')[0]?.body).toEqual({ email: EMAIL });

      moveClock(60_000);
      await waitFor(() =>
        expect(screen.getByRole('button', { name: '重新发送验证码' })).toHaveProperty('disabled', false),
      );
    });
  });
});

/**
 * Stops the clock the countdowns read (`Date`), so the seconds shown do not depend on how fast the
 * machine is; timers stay real, so the page still loads and re-renders every second.
 */
function freezeClock() {
  vi.useFakeTimers({ toFake: ['Date'] });
}

function moveClock(milliseconds: number) {
  vi.setSystemTime(Date.now() + milliseconds);
}

type Fill = ReturnType<typeof renderApp>['fill'];

async function fillRegisterForm(fill: Fill, email: string, password: string) {
  await fill(await screen.findByLabelText('邮箱地址'), email);
  await fill(screen.getByLabelText('密码'), password);
  await fill(screen.getByLabelText('确认密码'), password);
}

function verificationStatus(overrides: Partial<VerificationStatusResponse> = {}): VerificationStatusResponse {
  return {
    remaining_time: 299,
    remaining_attempts: 5,
    has_verification_code: true,
    resend_available_in: 60,
    ...overrides,
  };
}
