// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, useFakeApi } from '@/testing/render-app';
import {
  SPEC_EMAIL,
  signInWithSpecUser,
  specArticleSearch,
  specKeywordSuggestions,
  specKeywords,
  specLibrary,
  specLoginAnswer,
  specNewsRecommendations,
  specNewsSearch,
  specPaperRecommendations,
  specVerificationStatus,
} from '@/testing/spec-only-fixtures';

/**
 * Every screen against a backend that answers with only the product contract's fields (none of the
 * ones our server adds): each shows its data, and none falls into the error boundary.
 */

const expectNoErrorBoundary = () => expect(screen.queryByTestId('error-fallback')).toBeNull();

describe('screens rendered from answers with only the contract’s fields', () => {
  const api = useFakeApi();

  it('landing: a signed-in visitor is offered the recommendations', async () => {
    renderApp(api, '/', { storage: signInWithSpecUser(api) });
    expect(await screen.findByTestId('landing-cta-papers')).toBeTruthy();
    expectNoErrorBoundary();
  });

  it('login: signs in with the token and the user’s id, email and description', async () => {
    api.on('POST', '/api/auth/login/', { body: specLoginAnswer });
    signInWithSpecUser(api);
    const { user, router, fill } = renderApp(api, '/login');

    await fill(await screen.findByLabelText('邮箱地址'), SPEC_EMAIL);
    await fill(screen.getByLabelText('密码'), 'catalyst2026');
    await user.click(screen.getByRole('button', { name: '登录' }));

    expect(await screen.findByRole('heading', { level: 1, name: '我的' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/my');
    expect(localStorage.getItem('token')).toBe(specLoginAnswer.token);
    expectNoErrorBoundary();
  });

  describe('register', () => {
    const submitRegister = async (answer: { status?: number; body?: unknown }) => {
      api.on('POST', '/api/auth/register/', answer);
      api.on('GET', '/api/auth/verification-status/', { body: specVerificationStatus });
      const rendered = renderApp(api, '/register');
      await rendered.fill(await screen.findByLabelText('邮箱地址'), SPEC_EMAIL);
      await rendered.fill(screen.getByLabelText('密码'), 'catalyst2026');
      await rendered.fill(screen.getByLabelText('确认密码'), 'catalyst2026');
      await rendered.user.click(screen.getByRole('button', { name: '注册' }));
      return rendered;
    };

    it('continues to /verify-email when the success answer carries only a message', async () => {
      const { router } = await submitRegister({ status: 201, body: { message: '注册成功，请查收验证码' } });
      expect(await screen.findByText('注册成功！')).toBeTruthy();
      expect(router.state.location.pathname).toBe('/verify-email');
      expect(new URLSearchParams(router.state.location.search).get('email')).toBe(SPEC_EMAIL);
    });

    it('shows the already-registered warning for a 409 carrying only its message', async () => {
      await submitRegister({ status: 409, body: { message: '该邮箱已被注册' } });
      expect(await screen.findByTestId('register-already-registered')).toBeTruthy();
      expect(screen.getByRole('link', { name: '去登录' })).toBeTruthy();
      expect(screen.getByRole('button', { name: '使用其他邮箱' })).toBeTruthy();
      expect(screen.queryByTestId('register-error')).toBeNull();
    });

    it('shows the already-registered warning for {"email": ["该邮箱已被注册"]}', async () => {
      await submitRegister({ status: 400, body: { email: ['该邮箱已被注册'] } });
      expect(await screen.findByTestId('register-already-registered')).toBeTruthy();
      expect(screen.queryByTestId('register-error')).toBeNull();
    });

    it('puts a password array on the password field', async () => {
      await submitRegister({ status: 400, body: { password: ['密码过于简单，请使用更复杂的密码'] } });
      const password = screen.getByLabelText('密码');
      expect(await screen.findByText('密码过于简单，请使用更复杂的密码')).toBeTruthy();
      expect(password.getAttribute('aria-invalid')).toBe('true');
      expect(screen.queryByTestId('register-error')).toBeNull();
    });

    it('turns an email-format message into the hint with an example address', async () => {
      await submitRegister({ status: 400, body: { email: ['请输入正确的邮箱格式'] } });
      expect(await screen.findByText('请输入正确的邮箱格式，例如：name@university.edu.cn')).toBeTruthy();
      expect(screen.queryByTestId('register-error')).toBeNull();
    });

    it('asks to re-enter mismatched passwords given under password2', async () => {
      await submitRegister({ status: 400, body: { password2: ['两次输入的密码不一致'] } });
      expect(await screen.findByText('两次输入的密码不一致，请重新输入')).toBeTruthy();
      expect(screen.getByLabelText('确认密码').getAttribute('aria-invalid')).toBe('true');
    });

    it('asks to re-enter mismatched passwords given as the error alone', async () => {
      await submitRegister({ status: 400, body: { error: '两次输入的密码不一致' } });
      expect(await screen.findByText('两次输入的密码不一致，请重新输入')).toBeTruthy();
      expect(screen.queryByTestId('register-error')).toBeNull();
    });

    it('names an unparseable answer', async () => {
      await submitRegister({ status: 201, body: 'not json' });
      expect((await screen.findByTestId('register-error')).textContent).toBe('服务器响应格式错误，请稍后重试');
    });
  });

  it('forgot password: says the mail was sent from a message-only answer', async () => {
    api.on('POST', '/api/auth/forgot-password/', { body: { message: '重置邮件已发送' } });
    const { user, fill } = renderApp(api, '/forgot-password');
    await fill(await screen.findByLabelText('邮箱地址'), SPEC_EMAIL);
    await user.click(screen.getByRole('button', { name: '发送重置邮件' }));
    expect(await screen.findByTestId('forgot-password-sent')).toBeTruthy();
    expectNoErrorBoundary();
  });

  it('reset password: succeeds from a message-only answer', async () => {
    api.on('POST', '/api/auth/reset-password/', { body: { message: '密码重置成功' } });
    const { user, fill } = renderApp(api, '/reset-password?token=abc');
    await fill(await screen.findByLabelText('新密码'), 'newpass123');
    await fill(screen.getByLabelText('确认新密码'), 'newpass123');
    await user.click(screen.getByRole('button', { name: '重置密码' }));
    expect(await screen.findByTestId('reset-password-success')).toBeTruthy();
    expectNoErrorBoundary();
  });

  it('verify email: shows the code’s time and attempts, then signs in from the contract’s answer', async () => {
    api.on('GET', '/api/auth/verification-status/', { body: specVerificationStatus });
    api.on('POST', '/api/auth/verify-email/', { body: { message: '验证成功', ...specLoginAnswer } });
    signInWithSpecUser(api);
    const { user, fill } = renderApp(api, `/verify-email?email=${SPEC_EMAIL}&from=register`);

    expect(await screen.findByText('2:05')).toBeTruthy();
    await fill(screen.getByTestId('verify-code-input'), '123456');
    await user.click(screen.getByTestId('verify-submit'));
    expect(await screen.findByText('验证成功')).toBeTruthy();
    expect(localStorage.getItem('token')).toBe(specLoginAnswer.token);
    expectNoErrorBoundary();
  });

  it('papers: lists the papers with similarity and links, and no freshness line', async () => {
    api.on('GET', '/api/auth/recommendations/papers/', { body: specPaperRecommendations });
    renderApp(api, '/papers', { storage: signInWithSpecUser(api) });

    expect(await screen.findByRole('heading', { level: 2, name: '为你推荐 3 篇论文' })).toBeTruthy();
    const cards = screen.getAllByTestId('paper-card');
    expect(cards).toHaveLength(3);
    const [withUrl, withDoi, withNeither] = cards as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(withUrl).getByRole('link', { name: /Graph networks for catalyst screening/ })).toHaveProperty(
      'href',
      'https://journal.example.org/p-1',
    );
    expect(within(withUrl).getByTestId('paper-chip-similarity').textContent).toBe('相似度 81.2%');
    expect(within(withUrl).getByTestId('paper-chip-author').textContent).toBe('Zhou Min');
    expect(within(withDoi).getByRole('link', { name: /Active learning of adsorption energies/ })).toHaveProperty(
      'href',
      'https://doi.org/10.1021/acscatal.5b00001',
    );
    expect(within(withDoi).getByTestId('paper-chip-similarity').textContent).toBe('相似度 74.6%');
    expect(within(withNeither).queryByRole('link')).toBeNull();
    expect(within(withNeither).getByText('A survey without any link')).toBeTruthy();
    expect(screen.queryByTestId('papers-freshness')).toBeNull();
    // No has_more: no 加载更多 (such a backend would answer the same papers again), no 没有更多了.
    expect(screen.queryByRole('button', { name: '加载更多' })).toBeNull();
    expect(screen.queryByText('没有更多了')).toBeNull();
    // 含已评价 is offered but off: the request is the spec's, with no include_rated or exclude_ids.
    expect(Object.keys(api.requestsTo('GET', '/api/auth/recommendations/papers/')[0]?.query ?? {}).sort()).toEqual([
      'date_filter',
      'excluded_jcr',
      'similarity_threshold',
      'top_k',
    ]);
    expectNoErrorBoundary();
  });

  it('papers: favourite and share work when their answers carry no state or link', async () => {
    api.on('GET', '/api/auth/recommendations/papers/', { body: specPaperRecommendations });
    // The contract does not show these answers: a backend may say no more than this.
    api.on('POST', '/articles/:id/favorite/', { body: { message: 'ok' } });
    api.on('POST', '/articles/:id/share/', { body: {} });
    const { user } = renderApp(api, '/papers', { storage: signInWithSpecUser(api) });

    const cards = await screen.findAllByTestId('paper-card');
    const withDoi = cards[1] as HTMLElement;
    await user.click(within(withDoi).getByTestId('paper-favorite'));
    expect(await screen.findByText('已收藏')).toBeTruthy();
    expect(within(withDoi).getByTestId('paper-favorite').getAttribute('aria-pressed')).toBe('true');

    await user.click(within(withDoi).getByTestId('paper-share'));
    expect(await screen.findByText('链接已复制到剪贴板')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe('https://doi.org/10.1021/acscatal.5b00001');
    expectNoErrorBoundary();
  });

  it('news: lists the news with either score name, and no freshness line', async () => {
    api.on('GET', '/api/news/recommendations/', { body: specNewsRecommendations });
    renderApp(api, '/news', { storage: signInWithSpecUser(api) });

    expect(await screen.findByRole('heading', { level: 2, name: '共 2 条推荐新闻' })).toBeTruthy();
    const cards = screen.getAllByTestId('news-card');
    expect(cards.map((card) => within(card).getByTestId('news-chip-similarity').textContent)).toEqual([
      '相似度 71%',
      '相似度 64%',
    ]);
    expect(screen.getByRole('link', { name: /复旦大学发布催化剂筛选新方法/ })).toHaveProperty(
      'href',
      'https://news.example.edu.cn/n-1',
    );
    expect(screen.queryByTestId('news-freshness')).toBeNull();
    expect(screen.queryByRole('button', { name: '加载更多' })).toBeNull();
    expect(screen.queryByText('没有更多了')).toBeNull();
    expect(api.requestsTo('GET', '/api/news/recommendations/')[0]?.query).not.toHaveProperty('include_rated');
    expectNoErrorBoundary();
  });

  it('papers and news: an empty answer shows the empty states, without an explanation', async () => {
    api.on('GET', '/api/auth/recommendations/papers/', {
      body: { ...specPaperRecommendations, recommendations: [], recommendations_count: 0 },
    });
    api.on('GET', '/api/news/recommendations/', {
      body: { data: [], pagination: { total_count: 0, current_page: 1 } },
    });
    const { router } = renderApp(api, '/papers', { storage: signInWithSpecUser(api) });

    expect(await screen.findByText('暂未找到合适的推荐论文')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: '为你推荐 0 篇论文' })).toBeTruthy();
    expect(screen.queryByTestId('papers-empty-explanation')).toBeNull();
    expectNoErrorBoundary();

    await router.navigate('/news');
    expect(await screen.findByText('暂无推荐新闻')).toBeTruthy();
    expect(screen.queryByTestId('news-empty-explanation')).toBeNull();
    expectNoErrorBoundary();
  });

  it('my: shows the profile and leaves out learning when the backend has none', async () => {
    renderApp(api, '/my', { storage: signInWithSpecUser(api) });

    expect(await screen.findByText('Machine learning for catalyst discovery.')).toBeTruthy();
    expect(screen.getByText('化学')).toBeTruthy();
    expect(screen.getByText('复旦大学')).toBeTruthy();
    // GET /api/auth/recommendations/learning/ is ours alone: the fake answers 404.
    await waitFor(() => expect(api.requestsTo('GET', '/api/auth/recommendations/learning/')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByTestId('learning-loading')).toBeNull());
    expect(screen.queryByTestId('learning-error')).toBeNull();
    expectNoErrorBoundary();
  });

  it('feedback: thanks the user after a message-only answer', async () => {
    api.on('POST', '/api/feedback/send/', { body: { message: '反馈已发送' } });
    const { user, fill } = renderApp(api, '/feedback', { storage: signInWithSpecUser(api) });
    await fill(await screen.findByRole('textbox', { name: '标题' }), '希望支持导出');
    await fill(screen.getByRole('textbox', { name: '详细描述' }), '希望可以导出 BibTeX。');
    await user.click(screen.getByRole('button', { name: '提交反馈' }));
    expect(await screen.findByText('感谢你的反馈')).toBeTruthy();
    expectNoErrorBoundary();
  });

  it('keywords: lists a bare keyword list and suggestions given as names', async () => {
    api.on('GET', '/user-keywords/', { body: specKeywords });
    api.on('GET', '/user-rkeywords/', { body: specKeywordSuggestions });
    renderApp(api, '/keywords', { storage: signInWithSpecUser(api) });

    expect(await screen.findByText('已关注 2/50 个')).toBeTruthy();
    expect(screen.getAllByTestId('keyword-item').map((item) => item.getAttribute('data-name'))).toEqual([
      'catalysis',
      'graph neural networks',
    ]);
    // 'catalysis' is followed already: only the other suggestion is offered.
    const suggestions = await screen.findAllByTestId('keyword-suggestion');
    expect(suggestions.map((chip) => chip.getAttribute('data-name'))).toEqual(['density functional theory']);
    expectNoErrorBoundary();
  });

  it('keywords: follows a keyword when the add answer carries no keyword', async () => {
    api.on('GET', '/user-keywords/', { body: specKeywords });
    api.on('GET', '/user-rkeywords/', { body: [] });
    api.on('POST', '/user-keywords/add/', (request) => {
      const name = String((request.body as { keyword: string }).keyword);
      api.on('GET', '/user-keywords/', {
        body: [{ id: 13, name, created_at: '2026-11-03T08:00:00Z' }, ...specKeywords],
      });
      return { status: 201, body: { message: '添加成功' } };
    });
    const { user, fill } = renderApp(api, '/keywords', { storage: signInWithSpecUser(api) });

    expect(await screen.findByText('已关注 2/50 个')).toBeTruthy();
    await fill(screen.getByRole('textbox', { name: '关键词' }), 'zeolites');
    await user.click(screen.getByRole('button', { name: '添加' }));

    expect(await screen.findByText('已关注关键词“zeolites”')).toBeTruthy();
    expect(await screen.findByText('已关注 3/50 个')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: '关键词' })).toHaveProperty('value', '');
    expectNoErrorBoundary();
  });

  it('search: lists the papers with the count and the DOI link', async () => {
    api.on('GET', '/user-keywords/', { body: specKeywords });
    api.on('GET', '/articles/search/', { body: specArticleSearch });
    renderApp(api, '/search?q=catalyst', { storage: signInWithSpecUser(api) });

    expect(await screen.findByRole('heading', { level: 2, name: '找到 1 篇相关论文' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Catalyst discovery with transformers/ })).toHaveProperty(
      'href',
      'https://doi.org/10.1021/jacs.6b00002',
    );
    expect(screen.getByTestId('paper-favorite').getAttribute('aria-pressed')).toBe('true');
    expectNoErrorBoundary();
  });

  it('news search: lists the news found with the count', async () => {
    api.on('POST', '/api/news/search/', { body: specNewsSearch });
    renderApp(api, '/search/news?query=%E5%82%AC%E5%8C%96%E5%89%82', { storage: signInWithSpecUser(api) });

    expect(await screen.findByRole('heading', { level: 2, name: '找到 1 条相关新闻' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /催化剂研究获得国家自然科学奖/ })).toBeTruthy();
    expect(screen.queryByTestId('news-card-recommended')).toBeNull();
    expectNoErrorBoundary();
  });

  it('library: lists the saved papers with the count and the DOI link', async () => {
    api.on('GET', '/articles/library/', { body: specLibrary });
    renderApp(api, '/library', { storage: signInWithSpecUser(api) });

    expect(await screen.findByTestId('library-count')).toBeTruthy();
    expect(screen.getByTestId('library-count').textContent).toContain('1');
    expect(screen.getByRole('link', { name: /Catalyst discovery with transformers/ })).toHaveProperty(
      'href',
      'https://doi.org/10.1021/jacs.6b00002',
    );
    expectNoErrorBoundary();
  });
});
