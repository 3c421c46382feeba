import { KeywordRepository, type NewNewsItemRow, NewsRepository, PaperRepository, UserRepository } from '@radar/db';
import type { Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import {
  captureBothWidths,
  type E2eEnvironment,
  type E2ePage,
  expectCleanPage,
  expectFieldMessage,
  SCREENSHOT_VIEWPORTS,
  startE2e,
} from '../src';

/**
 * The screens implied by the calls of the API, with a signed-in user on a small corpus inserted
 * through the repositories: keywords (/keywords: add, duplicate, alert settings, suggestion, remove),
 * article search (/search: AND of keywords, an empty page past the last asked again from page 1, favourite), the
 * favourites screen (/library: progress, un-favourite) and news search (/search/news).
 */

let e2e: E2eEnvironment;
const paperIds: Record<string, string> = {};

const PAPERS = {
  gnnMolecules: {
    title: 'Graph neural networks for molecular property prediction',
    abstract: 'We predict properties of small molecules from their structure.',
    journalName: 'Journal of Chemical Information and Modeling',
    publishedAt: '2026-11-10',
  },
  mdGraph: {
    title: 'Molecular dynamics accelerated by graph networks',
    abstract: 'Force fields learned on graphs speed up simulations.',
    journalName: 'Physical Review Letters',
    publishedAt: '2026-11-01',
  },
  graphOnly: {
    title: 'Graph theory for social networks',
    abstract: 'Communities in friendship graphs.',
    publishedAt: '2026-10-01',
  },
  moleculesOnly: {
    title: 'Molecular biology of the cell cycle',
    abstract: 'How cells divide.',
    publishedAt: '2026-09-01',
  },
  chinese: {
    title: '基于图神经网络的分子性质预测',
    abstract: '本文提出一种新的分子表示学习方法。',
    journalName: '化学学报',
    publishedAt: '2026-08-01',
  },
  protein: {
    title: 'Protein folding with transformers',
    abstract: 'Attention models predict protein structure.',
    publishedAt: '2026-07-01',
  },
} as const;

const NEWS = [
  {
    title: '中国科学技术大学量子计算新进展',
    content: '研究团队在量子纠错方面取得突破。',
    institute: '中国科学技术大学',
  },
  { title: '精密测量实验室揭牌', content: '该实验室将开展量子精密测量研究。', institute: '中国科学院' },
  { title: '复旦大学举办人工智能论坛', content: '论坛讨论了大模型与科学研究。', institute: '复旦大学' },
  {
    title: 'Quantum sensing for medical imaging',
    content: 'Quantum sensors improve MRI.',
    institute: 'Stanford University',
  },
];

/** Makes the suggestions (GET /user-rkeywords/) come from the summary: its phrases that match papers. */
const RESEARCH_SUMMARY = 'Graph neural networks for molecular property prediction and protein folding.';

beforeAll(async () => {
  e2e = await startE2e();
  const { db } = e2e.server.database;
  const rows = await new PaperRepository(db).insertMany(
    Object.entries(PAPERS).map(([key, paper]) => ({
      source: 'test',
      authors: ['Ada Lovelace', 'Alan Turing'],
      url: `https://papers.example.org/${key}`,
      ...paper,
    })),
  );
  Object.keys(PAPERS).forEach((key, index) => {
    paperIds[key] = String(rows[index]?.id);
  });
  const news = new NewsRepository(db);
  const newsRows: NewNewsItemRow[] = [];
  for (const [index, item] of NEWS.entries()) {
    newsRows.push({
      title: item.title,
      content: item.content,
      url: `https://news.example.org/${index}`,
      urlNormalized: `news.example.org/${index}`,
      source: 'test',
      publishDate: new Date(Date.now() - (index + 1) * 86_400_000),
      instituteId: await news.ensureInstitute(item.institute),
    });
  }
  await news.insertMany(newsRows);
});

afterEach(async () => {
  await e2e?.closePages();
});

afterAll(async () => {
  await e2e?.close();
});

/** A signed-in user (with a research summary when given) on a wide page; the /my guide stays away. */
async function signIn(email: string, researchSummaryEn?: string): Promise<E2ePage & { userId: string }> {
  const { user, token } = await e2e.server.createSignedInUser(email);
  if (researchSummaryEn) await new UserRepository(e2e.server.database.db).update(user.id, { researchSummaryEn });
  const opened = await e2e.openPage({
    viewport: SCREENSHOT_VIEWPORTS.wide,
    localStorage: { token, userEmail: user.email, 'research-guide-dismissed': 'true' },
  });
  return { ...opened, userId: user.id };
}

const isCall = (method: string, path: string | RegExp) => (response: Response) =>
  response.request().method() === method &&
  (typeof path === 'string' ? new URL(response.url()).pathname === path : path.test(new URL(response.url()).pathname));

/** Runs `action` and returns the response of the call it makes. */
async function callOf(page: Page, method: string, path: string | RegExp, action: () => Promise<unknown>) {
  const [response] = await Promise.all([page.waitForResponse(isCall(method, path)), action()]);
  return response;
}

const keywordItem = (page: Page, name: string) => page.locator(`[data-testid="keyword-item"][data-name="${name}"]`);
const paperCard = (page: Page, key: keyof typeof PAPERS) =>
  page.locator(`[data-testid="paper-card"][data-paper-id="${paperIds[key]}"]`);

it('manages keywords: add, duplicate, alert settings, a suggestion, remove', async () => {
  const opened = await signIn('keywords.user@example.org', RESEARCH_SUMMARY);
  const { page, userId } = opened;
  const keywords = new KeywordRepository(e2e.server.database.db);

  // Reached through the menu, which lists the screen after news for a session.
  await page.goto('/my');
  await page.getByTestId('nav-keywords').click();
  await page.getByRole('heading', { level: 1, name: '关键词' }).waitFor();
  // The reader is logged in: the empty list says what is missing, not the visitor's 请登录….
  await page.getByTestId('keyword-list-empty').getByText('你还没有关注任何关键词').waitFor();
  await page.getByTestId('keyword-suggestion').first().waitFor();

  // The server's rules on submit; nothing is sent for a blank keyword.
  const input = page.getByTestId('keyword-add-input');
  await input.fill('   ');
  await page.getByTestId('keyword-add-submit').click();
  await expectFieldMessage(input, '关键词不能为空');

  const added = await callOf(page, 'POST', '/user-keywords/add/', async () => {
    await input.fill('  graph neural network ');
    await page.getByTestId('keyword-add-submit').click();
  });
  expect(added.status()).toBe(201);
  expect(JSON.parse(added.request().postData() ?? '{}')).toEqual({ keyword: 'graph neural network' });
  await keywordItem(page, 'graph neural network').waitFor();
  await expect.poll(() => input.inputValue()).toBe('');
  expect(await page.getByTestId('keyword-count').textContent()).toBe('已关注 1/50 个');
  expect(await keywordItem(page, 'graph neural network').getByTestId('keyword-alert').textContent()).toBe('提醒已关闭');

  // Alert settings: on, weekly, two negative terms (Enter adds one; a pasted list is split).
  await keywordItem(page, 'graph neural network').getByTestId('keyword-settings').click();
  const dialog = page.getByTestId('keyword-settings-dialog');
  await dialog.getByRole('heading', { name: '提醒设置：graph neural network' }).waitFor();
  const weekly = dialog.getByRole('radio', { name: '每周' });
  expect(await weekly.isDisabled()).toBe(true);
  await dialog.getByRole('switch', { name: '有新论文时邮件提醒我' }).check();
  await weekly.check();
  const terms = dialog.getByTestId('keyword-settings-terms-input');
  await terms.fill('survey');
  await terms.press('Enter');
  await terms.fill('综述，survey');
  await terms.press('Enter');
  expect(await dialog.getByTestId('keyword-settings-term').allInnerTexts()).toEqual(['survey', '综述']);
  await captureBothWidths(page, 'keywords-alert-settings', { fullPage: false });
  const patched = await callOf(page, 'PATCH', /^\/user-keywords\/\d+\/update\/$/, () =>
    dialog.getByTestId('keyword-settings-save').click(),
  );
  expect(patched.status()).toBe(200);
  expect(JSON.parse(patched.request().postData() ?? '{}')).toEqual({
    alert_enabled: true,
    alert_frequency: 'weekly',
    negative_terms: ['survey', '综述'],
  });
  await dialog.waitFor({ state: 'hidden' });
  const item = keywordItem(page, 'graph neural network');
  await expect.poll(() => item.getByTestId('keyword-alert').textContent()).toBe('每周提醒');
  expect(await item.getByTestId('keyword-negative-terms').textContent()).toBe('排除 2 个词');
  expect((await keywords.listByUser(userId))[0]).toMatchObject({
    name: 'graph neural network',
    alertEnabled: true,
    alertFrequency: 'weekly',
    negativeTerms: ['survey', '综述'],
  });

  // One click on a suggestion follows it; its chip goes away.
  const suggestion = page.getByTestId('keyword-suggestion').first();
  const suggested = (await suggestion.getAttribute('data-name')) ?? '';
  expect(suggested).not.toBe('');
  const followed = await callOf(page, 'POST', '/user-keywords/add/', () => suggestion.click());
  expect(followed.status()).toBe(201);
  await keywordItem(page, suggested).waitFor();
  await page.locator(`[data-testid="keyword-suggestion"][data-name="${suggested}"]`).waitFor({ state: 'detached' });
  expect(await page.getByTestId('keyword-item').count()).toBe(2);
  await captureBothWidths(page, 'keywords');

  // A keyword followed already: the server's 409 message under the box.
  const duplicate = await callOf(page, 'POST', '/user-keywords/add/', async () => {
    await input.fill('Graph Neural Network');
    await page.getByTestId('keyword-add-submit').click();
  });
  expect(duplicate.status()).toBe(409);
  await expectFieldMessage(input, '你已关注关键词“graph neural network”');

  // Remove after confirming; cancel keeps it.
  await item.getByTestId('keyword-remove').click();
  const confirm = page.getByTestId('keyword-remove-dialog');
  await confirm.getByText('确定不再关注“graph neural network”吗？', { exact: false }).waitFor();
  await confirm.getByTestId('keyword-remove-cancel').click();
  await confirm.waitFor({ state: 'hidden' });
  await item.getByTestId('keyword-remove').click();
  await captureBothWidths(page, 'keywords-remove', { fullPage: false });
  const removed = await callOf(page, 'POST', /^\/user-keywords\/\d+\/remove\/$/, () =>
    confirm.getByTestId('keyword-remove-confirm').click(),
  );
  expect(removed.status()).toBe(200);
  await item.waitFor({ state: 'detached' });
  expect((await keywords.listByUser(userId)).map((row) => row.name)).toEqual([suggested]);

  expectCleanPage(opened, ['409 POST /user-keywords/add/']);
});

it('searches papers by two keywords (AND), favourites one, and finds it on the favourites screen', async () => {
  const opened = await signIn('search.user@example.org');
  const { page, userId } = opened;
  await new KeywordRepository(e2e.server.database.db).create(userId, 'molecular', 50);

  await page.goto('/my');
  await page.getByTestId('nav-search').click();
  await page.getByRole('heading', { level: 1, name: '论文检索' }).waitFor();
  await page.getByTestId('article-search-start').waitFor();

  // Both keywords must match: the papers with only one of them are left out.
  const searched = await callOf(page, 'GET', '/articles/search/', async () => {
    await page.getByTestId('article-search-input').fill('graph  molecular');
    await page.getByTestId('article-search-submit').click();
  });
  expect(Object.fromEntries(new URL(searched.url()).searchParams)).toEqual({
    q: 'graph  molecular',
    page: '1',
    page_size: '50',
  });
  await page.getByTestId('article-search-count').getByText('找到 2 篇相关论文').waitFor();
  const shown = await page
    .getByTestId('paper-card')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-paper-id')));
  expect(new Set(shown)).toEqual(new Set([paperIds.gnnMolecules, paperIds.mdGraph]));
  expect(new URL(page.url()).searchParams.get('q')).toBe('graph  molecular');

  // The followed keyword is a chip that adds itself to the search (already there: selected).
  const chip = page.locator('[data-testid="article-search-keyword"][data-name="molecular"]');
  expect(await chip.getAttribute('aria-pressed')).toBe('true');

  // Favourite a result: the button shows the new state.
  const card = paperCard(page, 'gnnMolecules');
  const favorite = await callOf(page, 'POST', `/articles/${paperIds.gnnMolecules}/favorite/`, () =>
    card.getByTestId('paper-favorite').click(),
  );
  expect(await favorite.json()).toMatchObject({ is_favorited: true });
  await expect.poll(() => card.getByTestId('paper-favorite').getAttribute('aria-pressed')).toBe('true');
  await captureBothWidths(page, 'article-search');

  // An empty page past the last one is asked again from page 1.
  const requestedPages: string[] = [];
  const onResponse = (response: Response) => {
    if (isCall('GET', '/articles/search/')(response))
      requestedPages.push(new URL(response.url()).searchParams.get('page') ?? '');
  };
  page.on('response', onResponse);
  await page.goto('/search?q=graph+molecular&page=7');
  await page.getByTestId('article-search-count').getByText('找到 2 篇相关论文').waitFor();
  await page.waitForURL((url) => url.searchParams.get('page') === null);
  page.off('response', onResponse);
  expect(requestedPages).toEqual(['7', '1']);

  // Chinese: a two-character word matches the Chinese title, and through its English gloss (分子:
  // molecule) the English paper about molecules.
  await page.getByTestId('article-search-input').fill('分子');
  await page.getByTestId('article-search-submit').click();
  await page.getByTestId('article-search-count').getByText('找到 2 篇相关论文').waitFor();
  await paperCard(page, 'chinese').waitFor();
  await paperCard(page, 'gnnMolecules').waitFor();

  // Nothing matches: the spec's message.
  await page.getByTestId('article-search-input').fill('graph protein');
  await page.getByTestId('article-search-submit').click();
  await page.getByTestId('article-search-empty').getByText('未找到与关键词相关的论文，请尝试其他关键词').waitFor();

  // The favourites screen lists it, with its reading progress.
  await page.getByTestId('nav-library').click();
  await page.getByRole('heading', { level: 1, name: '我的收藏' }).waitFor();
  const listed = paperCard(page, 'gnnMolecules');
  await listed.waitFor();
  expect(await page.getByTestId('paper-card').count()).toBe(1);
  expect(await listed.getByTestId('library-progress').textContent()).toBe('未读');
  const read = await callOf(page, 'POST', `/articles/${paperIds.gnnMolecules}/read/`, () =>
    listed.getByTestId('library-mark-read').click(),
  );
  expect(JSON.parse(read.request().postData() ?? '{}')).toEqual({ progress: 100 });
  await expect.poll(() => listed.getByTestId('library-progress').textContent()).toBe('已读完');

  await page.getByTestId('library-tab-saved').click();
  await page.getByTestId('library-empty').waitFor();
  await page.getByTestId('library-tab-favorited').click();
  await page.waitForURL((url) => url.searchParams.get('list') === 'favorited');
  await listed.waitFor();
  await captureBothWidths(page, 'library');

  // Un-favourite on the favourites tab: it leaves the list when the list refetches.
  await callOf(page, 'POST', `/articles/${paperIds.gnnMolecules}/favorite/`, () =>
    listed.getByTestId('paper-favorite').click(),
  );
  await page.getByTestId('library-empty').getByText('还没有收藏的论文。').waitFor();
  expect(await page.getByTestId('paper-card').count()).toBe(0);

  expectCleanPage(opened);
});

it('searches news by a Chinese two-character word, with institute and date filters', async () => {
  const opened = await signIn('news.search@example.org');
  const { page } = opened;
  await page.goto('/search');
  await page.getByTestId('search-tab-news').click();
  await page.getByRole('heading', { level: 1, name: '新闻检索' }).waitFor();

  const query = page.getByTestId('news-search-query');
  await page.getByTestId('news-search-submit').click();
  await expectFieldMessage(query, '请输入搜索关键词');

  const searched = await callOf(page, 'POST', '/api/news/search/', async () => {
    await query.fill('量子');
    await page.getByTestId('news-search-submit').click();
  });
  expect(JSON.parse(searched.request().postData() ?? '{}')).toEqual({
    query: '量子',
    search_type: 'keyword',
    page: 1,
    page_size: 20,
  });
  // The Chinese items match the word itself, the English one its gloss (量子: quantum).
  await page.getByTestId('news-search-count').getByText('找到 3 条相关新闻').waitFor();
  expect(await page.getByTestId('news-card-title').allInnerTexts()).toEqual(
    expect.arrayContaining([
      expect.stringContaining('中国科学技术大学量子计算新进展'),
      expect.stringContaining('精密测量实验室揭牌'),
      expect.stringContaining('Quantum sensing for medical imaging'),
    ]),
  );
  await captureBothWidths(page, 'news-search');

  // The institute narrows it; the criteria are kept in the URL.
  await page.getByTestId('news-search-institute').fill('科学技术');
  await page.getByTestId('news-search-submit').click();
  await page.getByTestId('news-search-count').getByText('找到 1 条相关新闻').waitFor();
  expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ query: '量子', institute_name: '科学技术' });

  // A start after the end is refused in the browser with the server's message.
  await page.getByTestId('news-search-date-from').fill('2026-11-20');
  await page.getByTestId('news-search-date-to').fill('2026-11-01');
  await page.getByTestId('news-search-submit').click();
  await expectFieldMessage(page.getByTestId('news-search-date-from'), '开始日期不能晚于结束日期');

  // Nothing matches.
  await page.getByTestId('news-search-clear').click();
  // Cleared once the page has rendered with no criteria: the form resets itself from the cleared URL
  // then, and would wipe a word typed before that.
  await page.getByTestId('news-search-start').waitFor();
  await query.fill('火星');
  await page.getByTestId('news-search-submit').click();
  await page.getByTestId('news-search-empty').waitFor();

  expectCleanPage(opened);
});
