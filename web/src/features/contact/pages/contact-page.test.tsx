// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

const CONFIG = '/api/config/';
const CONTACT = '/api/contact/';

describe('/contact', () => {
  const api = useFakeApi();

  it('shows the support address the server publishes, with the form beside it', async () => {
    api.on('GET', CONFIG, { body: { support_email: 'help@lab.example.edu', time_zone: 'Asia/Shanghai' } });
    renderApp(api, '/contact');

    const address = await screen.findByRole('link', { name: 'help@lab.example.edu' });
    expect(address.getAttribute('href')).toMatch(/^mailto:help@lab\.example\.edu\?subject=/);
    expect(screen.getByTestId('contact-mailto').getAttribute('href')).toBe(address.getAttribute('href'));
    expect(screen.queryByTestId('contact-no-email')).toBeNull();
    expect(screen.getByRole('form', { name: '给管理员留言' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '发送留言' })).toBeTruthy();
  });

  it('without a support address offers the form, and never names a setting', async () => {
    api.on('GET', CONFIG, { body: { support_email: null, time_zone: 'Asia/Shanghai' } });
    renderApp(api, '/contact');

    expect(await screen.findByTestId('contact-no-email')).toBeTruthy();
    expect(screen.queryByTestId('contact-mailto')).toBeNull();
    expect(screen.getByRole('form', { name: '给管理员留言' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/VITE_|SUPPORT_EMAIL|环境变量|构建前端/);
  });

  it('keeps the form when the server has no public settings (a backend with only the spec calls)', async () => {
    renderApp(api, '/contact');
    expect(await screen.findByTestId('contact-no-email')).toBeTruthy();
    expect(screen.getByRole('button', { name: '发送留言' })).toBeTruthy();
  });

  it('sends a message without a login and thanks the visitor, naming the reply address', async () => {
    api.on('GET', CONFIG, { body: { support_email: null, time_zone: 'Asia/Shanghai' } });
    api.on('POST', CONTACT, { body: { success: true, message: '留言已发送' } });
    const { user, fill } = renderApp(api, '/contact');

    await fill(await screen.findByRole('textbox', { name: '姓名（选填）' }), '王老师');
    await fill(screen.getByRole('textbox', { name: '回复邮箱' }), ' Visitor@Example.org ');
    await fill(screen.getByRole('textbox', { name: '标题' }), '收不到验证码');
    await fill(screen.getByRole('textbox', { name: '详细描述' }), '注册后一直收不到验证码邮件。');
    await user.click(screen.getByRole('button', { name: '发送留言' }));

    const thanks = await screen.findByTestId('contact-thanks');
    expect(within(thanks).getByRole('heading', { name: '留言已发送' })).toBeTruthy();
    expect(thanks.textContent).toContain('visitor@example.org');
    // No reply is promised: the installation may only store the message.
    expect(thanks.textContent).not.toContain('管理员会回复');
    // The server's message only repeats the title: it is not shown twice.
    expect(within(thanks).queryByTestId('contact-server-message')).toBeNull();
    const [sent] = api.requestsTo('POST', CONTACT);
    expect(sent?.authorization).toBeUndefined();
    expect(sent?.body).toEqual({
      name: '王老师',
      email: 'visitor@example.org',
      title: '收不到验证码',
      description: '注册后一直收不到验证码邮件。',
    });

    await user.click(screen.getByRole('button', { name: '再写一条' }));
    expect(await screen.findByRole('textbox', { name: '标题' })).toHaveProperty('value', '');
  });

  it("shows the server's word on what became of the message, and promises no reply before sending", async () => {
    api.on('GET', CONFIG, { body: { support_email: null, time_zone: 'Asia/Shanghai' } });
    const stored = '留言已保存，本站未配置管理员邮箱，管理员登录后台后才能看到。';
    api.on('POST', CONTACT, { body: { success: true, message: stored } });
    const { user, fill } = renderApp(api, '/contact');
    expect((await screen.findByTestId('contact-no-email')).textContent).not.toContain('管理员会回复');
    expect(document.body.textContent).not.toContain('管理员会回复');

    await fill(screen.getByRole('textbox', { name: '回复邮箱' }), 'visitor@example.org');
    await fill(screen.getByRole('textbox', { name: '标题' }), '收不到验证码');
    await fill(screen.getByRole('textbox', { name: '详细描述' }), '注册后一直收不到验证码邮件。');
    await user.click(screen.getByRole('button', { name: '发送留言' }));

    const thanks = await screen.findByTestId('contact-thanks');
    expect(within(thanks).getByTestId('contact-server-message').textContent).toBe(stored);
    expect(thanks.textContent).toContain('如有回复，会发到 visitor@example.org');
  });

  it('checks the reply address as registration does and asks for a title and a description', async () => {
    const { user, fill } = renderApp(api, '/contact');
    await user.click(await screen.findByRole('button', { name: '发送留言' }));
    expect(await screen.findByText('请输入邮箱地址')).toBeTruthy();
    expect(screen.getByTestId('contact-validation').textContent).toBe('请填写标题和详细描述');

    await fill(screen.getByRole('textbox', { name: '回复邮箱' }), 'visitor@example');
    await fill(screen.getByRole('textbox', { name: '标题' }), '   ');
    await user.click(screen.getByRole('button', { name: '发送留言' }));
    expect(await screen.findByText('请输入正确的邮箱格式')).toBeTruthy();
    expect(screen.getByTestId('contact-validation').textContent).toBe('请填写标题和详细描述');
    expect(api.requestsTo('POST', CONTACT)).toHaveLength(0);
  });

  it('counts the title up to 50 characters', async () => {
    const { user } = renderApp(api, '/contact');
    const title = await screen.findByRole('textbox', { name: '标题' });
    await user.click(title);
    await user.paste('很'.repeat(60));
    expect(screen.getByTestId('contact-title-counter').textContent).toBe('50/50');
  });

  it('says how long to wait when the server limits the sender', async () => {
    api.on('POST', CONTACT, {
      status: 429,
      body: { code: 'RATE_LIMITED', message: '请求过于频繁，请稍后再试', remaining_seconds: 1500 },
    });
    const { user, fill } = renderApp(api, '/contact');
    await fill(await screen.findByRole('textbox', { name: '回复邮箱' }), 'visitor@example.org');
    await fill(screen.getByRole('textbox', { name: '标题' }), '问题');
    await fill(screen.getByRole('textbox', { name: '详细描述' }), '描述');
    await user.click(screen.getByRole('button', { name: '发送留言' }));
    expect((await screen.findByTestId('contact-error')).textContent).toBe('留言过于频繁，请约 25 分钟后再试');
    expect(screen.getByRole('textbox', { name: '标题' })).toHaveProperty('value', '问题');
  });

  it("fills in a signed-in visitor's address", async () => {
    renderApp(api, '/contact', { user: testUser({ email: 'ada@example.org' }) });
    const email = await screen.findByRole('textbox', { name: '回复邮箱' });
    await waitFor(() => expect(email).toHaveProperty('value', 'ada@example.org'));
  });
});
