// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

const START = '/api/auth/user/email/';
const CONFIRM = '/api/auth/user/email/confirm/';

describe('/my change email', () => {
  const api = useFakeApi();

  it('asks for the new address and the password, then the code, and shows the new address', async () => {
    const user = testUser();
    const { user: events } = renderApp(api, '/my', { user });
    const section = await screen.findByTestId('email-change-section');
    await events.click(within(section).getByRole('button', { name: '更改邮箱' }));

    // Checked here before anything is sent.
    await events.type(within(section).getByLabelText('新邮箱'), user.email);
    await events.type(within(section).getByLabelText('当前密码'), 'right-password1');
    await events.click(within(section).getByRole('button', { name: '发送验证码' }));
    expect(await within(section).findByText('新邮箱与当前邮箱相同')).toBeTruthy();
    expect(api.requestsTo('POST', START)).toHaveLength(0);

    api.on('POST', START, {
      status: 400,
      body: { code: 'INVALID_CREDENTIALS', message: '密码错误，请重新输入', fields: { password: ['密码错误'] } },
    });
    await events.clear(within(section).getByLabelText('新邮箱'));
    await events.type(within(section).getByLabelText('新邮箱'), 'New@Example.org');
    await events.click(within(section).getByRole('button', { name: '发送验证码' }));
    expect(await within(section).findByText('密码错误，请重新输入')).toBeTruthy();

    api.on('POST', START, {
      body: { message: '验证码已发送至 new@example.org，请查收', new_email: 'new@example.org', expires_in: 300 },
    });
    await events.click(within(section).getByRole('button', { name: '发送验证码' }));
    expect(await within(section).findByText(/验证码已发送至 new@example.org/)).toBeTruthy();

    api.on('POST', CONFIRM, {
      status: 400,
      body: { code: 'VERIFICATION_CODE_INVALID', message: '验证码错误，还可尝试 4 次', remaining_attempts: 4 },
    });
    await events.type(within(section).getByLabelText('验证码'), '111111');
    await events.click(within(section).getByRole('button', { name: '确认更改' }));
    expect(await within(section).findByText('验证码错误，还可尝试 4 次')).toBeTruthy();

    const changed = { ...user, email: 'new@example.org' };
    api.on('POST', CONFIRM, { body: changed });
    api.on('GET', '/api/auth/user/', { body: changed });
    await events.clear(within(section).getByLabelText('验证码'));
    await events.type(within(section).getByLabelText('验证码'), '123456');
    await events.click(within(section).getByRole('button', { name: '确认更改' }));

    expect(await screen.findByText('邮箱已更改为 new@example.org')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('account-email').textContent).toContain('new@example.org'));
    expect(api.requestsTo('POST', START).map((request) => request.body)).toEqual([
      { new_email: 'new@example.org', password: 'right-password1' },
      { new_email: 'new@example.org', password: 'right-password1' },
    ]);
    expect(api.requestsTo('POST', CONFIRM).map((request) => request.body)).toEqual([
      { code: '111111' },
      { code: '123456' },
    ]);
  });
});
