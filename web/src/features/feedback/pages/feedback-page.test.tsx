// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

const SEND = '/api/feedback/send/';

describe('/feedback', () => {
  const api = useFakeApi();

  it('asks for a title and a description before sending', async () => {
    const { user } = renderApp(api, '/feedback', { user: testUser() });
    await user.click(await screen.findByRole('button', { name: '提交反馈' }));
    expect(await screen.findByText('请填写标题和详细描述')).toBeTruthy();

    // Blank after trimming counts as empty.
    await user.type(screen.getByRole('textbox', { name: '标题' }), '   ');
    await user.type(screen.getByRole('textbox', { name: '详细描述' }), '   ');
    await user.click(screen.getByRole('button', { name: '提交反馈' }));
    expect(await screen.findByText('请填写标题和详细描述')).toBeTruthy();
    expect(api.requestsTo('POST', SEND)).toHaveLength(0);
  });

  it('counts the title up to its 50-character limit', async () => {
    const { user } = renderApp(api, '/feedback', { user: testUser() });
    const title = await screen.findByRole('textbox', { name: '标题' });
    expect(screen.getByText('0/50')).toBeTruthy();
    await user.type(title, '搜索结果');
    expect(screen.getByText('4/50')).toBeTruthy();
    await user.paste('很'.repeat(60));
    expect(screen.getByText('50/50')).toBeTruthy();
    expect((title as HTMLInputElement).value).toHaveLength(50);
  });

  it('sends the feedback with the user info and thanks the user', async () => {
    api.on('POST', SEND, { body: { success: true, message: '感谢您的反馈', id: 'feedback-7' } });
    const account = testUser();
    const { user, fill } = renderApp(api, '/feedback', { user: account });

    await user.click(await screen.findByRole('radio', { name: '功能建议' }));
    await fill(screen.getByRole('textbox', { name: '标题' }), '希望支持导出');
    await fill(screen.getByRole('textbox', { name: '详细描述' }), '希望可以把推荐论文导出为 BibTeX。');
    await user.click(screen.getByRole('button', { name: '提交反馈' }));

    expect(await screen.findByText('感谢你的反馈')).toBeTruthy();
    const [sent] = api.requestsTo('POST', SEND);
    expect(sent?.body).toMatchObject({
      type: '功能建议',
      title: '希望支持导出',
      description: '希望可以把推荐论文导出为 BibTeX。',
      userInfo: { email: account.email, userId: account.id, currentPage: `${api.origin}/feedback` },
    });
    expect(screen.getByRole('button', { name: '返回首页' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: '继续反馈' }));
    expect(await screen.findByRole('textbox', { name: '标题' })).toHaveProperty('value', '');
  });

  it('keeps the form and says so when sending fails', async () => {
    api.on('POST', SEND, { status: 500, body: { code: 'INTERNAL_ERROR', message: '服务器内部错误，请稍后重试' } });
    const { user, fill } = renderApp(api, '/feedback', { user: testUser() });
    await fill(await screen.findByRole('textbox', { name: '标题' }), '无法登录');
    await fill(screen.getByRole('textbox', { name: '详细描述' }), '点击登录没有反应。');
    await user.click(screen.getByRole('button', { name: '提交反馈' }));

    expect(await screen.findByText('发送反馈失败，请稍后重试')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: '标题' })).toHaveProperty('value', '无法登录');
  });
});
