// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

const PASTED = '李华，清华大学博士研究生，研究分子图神经网络。邮箱 lihua.lab(at)tsinghua.edu.cn';
const EXTRACTED_EMAIL = 'lihua.lab@tsinghua.edu.cn';

/** Every item of both storages, as `key=value` lines, to search for a person's data. */
const storedItems = () =>
  [localStorage, sessionStorage].flatMap((storage) =>
    Array.from({ length: storage.length }, (_, index) => {
      const key = storage.key(index) ?? '';
      return `${key}=${storage.getItem(key)}`;
    }),
  );

/** Settings that hold nobody's data and outlive a session. */
const SETTINGS = {
  recommendationParams: JSON.stringify({ topK: 20, threshold: 0.3, excludedJCR: [4, 3], dateFilter: ['一周内'] }),
  'research-guide-dismissed': 'true',
};

describe('personal data in the browser (shared lab computers)', () => {
  const api = useFakeApi();

  it('logout removes every stored item holding personal data, and keeps the settings', async () => {
    const user = testUser({ research_description: PASTED, research_email: EXTRACTED_EMAIL });
    const later = Date.now() + 10 * 60_000;
    const { user: events } = renderApp(api, '/my', {
      user,
      storage: { ...SETTINGS, forgotPasswordRetryAt: JSON.stringify({ [user.email]: later }) },
    });
    await screen.findByTestId('account-email');
    // The account page caches the research profile (the pasted text and the e-mail read from it).
    await waitFor(() => expect(localStorage.getItem('research_description')).toBe(PASTED));
    expect(localStorage.getItem('research_email')).toBe(EXTRACTED_EMAIL);

    await events.click(screen.getByRole('button', { name: '退出登录' }));

    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    const items = storedItems();
    for (const personal of [user.email, EXTRACTED_EMAIL, PASTED, user.research_name, user.research_institution]) {
      expect(items.filter((item) => item.includes(personal))).toEqual([]);
    }
    expect(items.filter((item) => /^(token|userEmail|research_|forgotPasswordRetryAt)/.test(item))).toEqual([]);
    expect(localStorage.getItem('recommendationParams')).toBe(SETTINGS.recommendationParams);
    expect(localStorage.getItem('research-guide-dismissed')).toBe('true');
  });

  it('an e-mail change keeps the old address nowhere in the browser', async () => {
    const user = testUser({ research_email: EXTRACTED_EMAIL });
    const later = Date.now() + 10 * 60_000;
    const { user: events, fill } = renderApp(api, '/my', {
      user,
      storage: { forgotPasswordRetryAt: JSON.stringify({ [user.email]: later, 'someone@example.org': later }) },
    });
    const section = await screen.findByTestId('email-change-section');
    await events.click(within(section).getByRole('button', { name: '更改邮箱' }));
    await fill(within(section).getByLabelText('新邮箱'), 'new@example.org');
    await fill(within(section).getByLabelText('当前密码'), 'right-password1');
    api.on('POST', '/api/auth/user/email/', {
      body: { message: '验证码已发送至 new@example.org，请查收', new_email: 'new@example.org', expires_in: 300 },
    });
    await events.click(within(section).getByRole('button', { name: '发送验证码' }));
    const changed = { ...user, email: 'new@example.org' };
    api.on('POST', '/api/auth/user/email/confirm/', { body: changed });
    api.on('GET', '/api/auth/user/', { body: changed });
    await fill(await within(section).findByLabelText('验证码'), '123456');
    await events.click(within(section).getByRole('button', { name: '确认更改' }));

    await waitFor(() => expect(screen.getByTestId('account-email').textContent).toContain('new@example.org'));
    expect(localStorage.getItem('userEmail')).toBe('new@example.org');
    expect(storedItems().filter((item) => item.includes(user.email))).toEqual([]);
    // Another address's countdown (typed on /forgot-password) is not this account's to drop.
    expect(localStorage.getItem('forgotPasswordRetryAt')).toContain('someone@example.org');
  });
});
