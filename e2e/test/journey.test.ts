import {
  ArticleRepository,
  createIngestRepositories,
  FeedbackRepository,
  KeywordRepository,
  UserRepository,
} from '@radar/db';
import { embedContent, loadDemoCorpus } from '@radar/ingest';
import type { ArticleSearchResponse, NewsListResponse, PaperRecommendationResponse } from '@radar/shared';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS_DIR,
  captureBothWidths,
  type E2eEnvironment,
  type E2ePage,
  expectCleanPage,
  fieldByLabel,
  readSession,
  readVerificationCode,
  SCREENSHOT_VIEWPORTS,
  startE2e,
  waitForCompleteList,
  waitForMail,
} from '../src';

/**
 * One visitor's whole first session (issue 11), strictly through the UI of one browser tab: the
 * landing page, the guard and the need-login dialog, registration with the mailed code, the first
 * visit of /my, the research profile from a pasted homepage (offline extractor, no LLM), paper and
 * news recommendations, a filter, a favourite, article search, a keyword, feedback, logout; the
 * narrow layout's drawer on the way. The demo corpus is stored and embedded (what `pnpm radar demo`
 * and the worker would do) while the visitor signs up; the papers step waits for it. The steps share
 * the tab and run in order; after a failed step the rest are skipped, since each starts where the one
 * before left off.
 */

let e2e: E2eEnvironment;
let tab: E2ePage;
let page: Page;

const EMAIL = 'lin.chen@cs.example.edu';
const PASSWORD = 'Radar-2026x';
/** A computer-science homepage written from the demo corpus' vocabulary, so its papers and news match. */
const HOMEPAGE_TEXT = `Home | Publications | Group | Teaching

Lin Chen
Associate Professor
School of Computer Science, Example University
Email: lin.chen (at) cs.example.edu

Research
My research group studies large language models for recommender systems in computer science. We build retrieval-augmented generation for large language models, and our experiments show that hallucinations are markedly reduced. We also work on distributed database consistency with formal verification, and on program synthesis for query engines. A third line of research is federated learning with differential privacy, where privacy is preserved with little utility loss. In production recommender systems our methods show that latency halves at the same throughput.

Teaching: Machine Learning Systems (graduate), Databases (undergraduate).`;

const PAPERS_PATH = '/api/auth/recommendations/papers/';
const NEWS_PATH = '/api/news/recommendations/';

/** Settles when the demo corpus is stored and embedded; the papers step waits for it. */
let corpusReady: Promise<void> | undefined;

/** `pnpm radar demo`, then what the worker's content-embed jobs would do, done here directly. */
async function loadEmbeddedDemoCorpus(): Promise<void> {
  const repositories = createIngestRepositories(e2e.server.database.db);
  const { content } = await loadDemoCorpus(repositories);
  const embedder = await e2e.server.runtime.parts.ai.embeddings.active();
  await embedContent(repositories, embedder, { target: 'papers', ids: content.newPaperIds.map(Number) });
  await embedContent(repositories, embedder, { target: 'news', ids: content.newNewsIds.map(Number) });
}

beforeAll(async () => {
  e2e = await startE2e();
  // Activates the built-in model before anything embeds, so the corpus and the profile vector the
  // server computes meanwhile cannot race to activate it.
  await e2e.server.runtime.parts.ai.embeddings.active();
  // Loaded while the visitor registers, as the worker would fill a fresh install in the background;
  // the rejection is kept for the step that needs the corpus.
  corpusReady = loadEmbeddedDemoCorpus();
  corpusReady.catch(() => {});
  tab = await e2e.openPage({ viewport: SCREENSHOT_VIEWPORTS.wide });
  page = tab.page;
});

afterAll(async () => {
  await corpusReady?.catch(() => {});
  await e2e?.close();
});

let failedStep: string | undefined;

/** A step of the journey: skipped once an earlier one failed; checks the tab stayed clean. */
function step(name: string, run: () => Promise<void>): void {
  it(name, async (context) => {
    if (failedStep) context.skip(`the step '${failedStep}' failed`);
    try {
      await run();
      expectCleanPage(tab);
    } catch (error) {
      failedStep = name;
      // What the tab showed when the step failed, for the report (e2e/artifacts is gitignored).
      await page.screenshot({ path: `${ARTIFACTS_DIR}journey-failed-step.png`, fullPage: true }).catch(() => {});
      throw error;
    }
  });
}

const isCall = (method: string, path: string) => (response: Response) =>
  response.request().method() === method && new URL(response.url()).pathname === path;

/** Runs `action` and returns the response of the call it makes. */
async function callOf(method: string, path: string, action: () => Promise<unknown>): Promise<Response> {
  const [response] = await Promise.all([page.waitForResponse(isCall(method, path)), action()]);
  return response;
}

const queryOf = (response: Response) => Object.fromEntries(new URL(response.url()).searchParams);
const dataIds = (testId: string, attribute: string) =>
  page
    .getByTestId(testId)
    .evaluateAll((elements, name) => elements.map((element) => element.getAttribute(name)), attribute);
const heading = (name: string) => page.getByRole('heading', { level: 1, name });

async function storedUser() {
  const user = await new UserRepository(e2e.server.database.db).findByEmail(EMAIL);
  if (!user) throw new Error(`no user ${EMAIL}`);
  return user;
}

describe('a new researcher’s first session', () => {
  step('the landing page', async () => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await heading('科研雷达').waitFor();
    expect(await page.getByTestId('landing-cta-register').getAttribute('href')).toBe('/register');
    expect(await page.getByTestId('app-drawer').getAttribute('data-variant')).toBe('permanent');
    await captureBothWidths(page, 'journey-landing');
  });

  step('signed out, /papers is guarded and the menu asks to log in; the visitor goes on to register', async () => {
    await page.goto('/papers');
    await page.waitForURL(e2e.url('/'));
    await page.getByTestId('landing-login-required').getByText('该页面需要登录后访问。').waitFor();
    expect(await page.getByTestId('papers-list').count()).toBe(0);

    await page.getByTestId('nav-papers').click();
    const dialog = page.getByTestId('need-login-dialog');
    await dialog.getByRole('heading', { name: '需要登录' }).waitFor();
    expect(page.url()).toBe(e2e.url('/'));
    await page.getByTestId('need-login-confirm').click();
    await page.waitForURL(e2e.url('/login'));
    await page.getByTestId('login-register').click();
    await page.waitForURL(e2e.url('/register'));
    await heading('注册').waitFor();
  });

  step('registers and verifies with the mailed code; signed in, /my follows', async () => {
    await fieldByLabel(page, '邮箱地址').fill(EMAIL);
    await fieldByLabel(page, '密码').fill(PASSWORD);
    await fieldByLabel(page, '确认密码').fill(PASSWORD);
    expect(await page.getByTestId('password-match').getAttribute('data-match')).toBe('true');
    await captureBothWidths(page, 'journey-register');
    const registered = await callOf('POST', '/api/auth/register/', () => page.getByTestId('register-submit').click());
    expect(registered.status()).toBe(201);

    await page.waitForURL((url) => url.pathname === '/verify-email');
    expect(await page.getByTestId('verify-registered-banner').textContent()).toContain(EMAIL);
    const code = readVerificationCode(await waitForMail(e2e.server.runtime.parts.config.dataDir, EMAIL));
    await fieldByLabel(page, '验证码').fill(code);
    await captureBothWidths(page, 'journey-verify-email');
    const verified = await callOf('POST', '/api/auth/verify-email/', () => page.getByTestId('verify-submit').click());
    expect(verified.status()).toBe(200);
    await page.locator('[data-testid="verify-panel"][data-panel="success"]').waitFor();
    // Signed in at once; the page moves on to /my by itself 2 s later.
    expect(await readSession(page)).toEqual({ token: expect.any(String), userEmail: EMAIL });
    await page.waitForURL(e2e.url('/my'));
    expect(await page.getByTestId('account-email').textContent()).toBe(EMAIL);
    expect((await storedUser()).isEmailVerified).toBe(true);
  });

  step('the first-visit guide is put off; the AI dialog builds the profile from a pasted homepage', async () => {
    // The guide opens 500 ms after /my renders and hides the page from the accessibility tree meanwhile.
    const guide = page.getByTestId('research-guide');
    await guide.getByText('完善研究信息，获取个性化推荐').waitFor();
    await page.getByTestId('research-guide-later').click();
    await guide.waitFor({ state: 'detached' });
    expect(await page.getByTestId('research-summary').textContent()).toBe('未填写');

    const generate = page.getByTestId('research-generate');
    expect(await generate.getAttribute('data-pulsing')).toBe('true');
    await generate.click();
    const dialog = page.getByTestId('research-dialog');
    await page.locator('[data-testid="research-dialog"][data-stage="input"]').waitFor();
    await page.getByTestId('research-dialog-input').fill(HOMEPAGE_TEXT);
    // The task is queued; the page polls it, then saves the result through the confirm call.
    const [submitted, confirmed] = await Promise.all([
      page.waitForResponse(isCall('POST', '/api/auth/research-direction/process-async/')),
      page.waitForResponse(isCall('POST', '/api/auth/research-direction/confirm/'), { timeout: 20_000 }),
      page.getByTestId('research-dialog-start').click(),
    ]);
    expect(submitted.status()).toBe(202);
    expect(confirmed.status()).toBe(200);
    await page.getByTestId('research-dialog-success').getByText('研究信息已生成').waitFor({ timeout: 20_000 });
    await page.getByTestId('research-dialog-confirm').click();
    await dialog.waitFor({ state: 'detached' });

    const user = await storedUser();
    expect(user.researchSummaryEn).toContain('large language models for recommender systems');
    expect(user.researchFields).toContain('computer-science');
    expect(user.researchName).toBe('Lin Chen');
    await page.getByTestId('research-summary').getByText(user.researchSummaryEn).waitFor();
    expect(await page.getByTestId('research-fields').getByText('计算机科学').count()).toBe(1);
    expect(await generate.getAttribute('data-pulsing')).toBe('false');
    await captureBothWidths(page, 'journey-my');
  });

  step('/papers recommends papers; a wider date filter is applied from the settings card', async () => {
    await corpusReady;
    const first = await callOf('GET', PAPERS_PATH, () => page.getByTestId('nav-papers').click());
    const firstBody = (await first.json()) as PaperRecommendationResponse;
    expect(firstBody.recommendations.length).toBeGreaterThan(0);
    await page
      .getByTestId('papers-result-heading')
      .getByText(`为你推荐 ${firstBody.recommendations_count} 篇论文`)
      .waitFor();
    await waitForCompleteList(page, 'papers-list');
    expect(await dataIds('paper-card', 'data-paper-id')).toEqual(firstBody.recommendations.map((paper) => paper.id));
    expect(await page.getByTestId('papers-chip-date').allTextContents()).toEqual(['发表时间：一周内']);

    await page.getByTestId('papers-settings-toggle').click();
    await page.locator('[data-testid="papers-settings"][data-open="true"]').waitFor();
    await page.getByTestId('papers-settings-date').getByRole('checkbox', { name: '一月内', exact: true }).check();
    const applied = await callOf('GET', PAPERS_PATH, () => page.getByTestId('papers-settings-apply').click());
    expect(queryOf(applied).date_filter).toBe('一天内,两天内,三天内,一周内,一月内');
    const appliedBody = (await applied.json()) as PaperRecommendationResponse;
    expect(appliedBody.recommendations_count).toBeGreaterThan(firstBody.recommendations_count);
    await page.getByTestId('papers-chip-date').getByText('发表时间：一月内').waitFor();
    await expect
      .poll(() => dataIds('paper-card', 'data-paper-id'))
      .toEqual(appliedBody.recommendations.map((paper) => paper.id));
    await captureBothWidths(page, 'journey-papers');
  });

  step('a favourite is kept across a reload', async () => {
    const card = page.getByTestId('paper-card').first();
    const paperId = (await card.getAttribute('data-paper-id')) ?? '';
    const favorite = card.getByTestId('paper-favorite');
    expect(await favorite.getAttribute('aria-pressed')).toBe('false');
    const favorited = await callOf('POST', `/articles/${paperId}/favorite/`, () => favorite.click());
    expect(await favorited.json()).toMatchObject({ id: paperId, is_favorited: true });

    // The reload asks with the applied settings, kept in the browser.
    const reloaded = await callOf('GET', PAPERS_PATH, () => page.reload());
    expect(queryOf(reloaded).date_filter).toContain('一月内');
    const again = page.locator(`[data-testid="paper-card"][data-paper-id="${paperId}"]`);
    await expect.poll(() => again.getByTestId('paper-favorite').getAttribute('aria-pressed')).toBe('true');
    const user = await storedUser();
    const library = await new ArticleRepository(e2e.server.database.db).library({
      userId: user.id,
      list: 'favorited',
      limit: 10,
      offset: 0,
    });
    expect(library.papers.map((paper) => String(paper.id))).toEqual([paperId]);
  });

  step('follows a card’s author: their papers head /papers under 关注的作者; /my lists and unfollows', async () => {
    const paperId = (await page.getByTestId('paper-card').first().getAttribute('data-paper-id')) ?? '';
    // Once followed, the section above the list may show this paper too: its card in the list is the last.
    const card = page.locator(`[data-testid="paper-card"][data-paper-id="${paperId}"]`).last();
    await card.getByTestId('paper-authors-follow').click();
    const author = page.getByTestId('paper-authors-follow-item').first();
    const name = ((await author.locator('.MuiListItemText-primary').textContent()) ?? '').trim();
    expect(await author.locator('.MuiListItemText-secondary').textContent()).toBe('关注该作者');

    // Following loads /papers again: the followed author's papers in the window come first, this one too.
    const [followed, reloaded] = await Promise.all([
      page.waitForResponse(isCall('POST', '/api/auth/followed-authors/')),
      page.waitForResponse(isCall('GET', PAPERS_PATH)),
      author.click(),
    ]);
    expect(followed.status()).toBe(201);
    expect(await followed.json()).toMatchObject({ followed: { name } });
    const sectionPapers = ((await reloaded.json()) as PaperRecommendationResponse).followed_author_papers ?? [];
    expect(sectionPapers.length).toBeGreaterThan(0);
    for (const paper of sectionPapers) expect(paper.followed_authors.map((entry) => entry.name)).toContain(name);
    // The section shows one-line entries first; 展开 shows the full cards.
    const section = page.getByTestId('papers-followed');
    await section.getByTestId('papers-followed-expand').click();
    // The full cards render in stages (the first ones paint first): read them once all are in.
    await waitForCompleteList(page, 'papers-followed-list');
    expect(
      await section
        .getByTestId('paper-card')
        .evaluateAll((cards) => cards.map((element) => element.getAttribute('data-paper-id'))),
    ).toEqual(sectionPapers.map((paper) => paper.id));
    // The card's own author list now says so.
    await card.getByTestId('paper-authors-follow').click();
    expect(await page.getByTestId('paper-authors-follow-item').first().textContent()).toContain('已关注');
    await page.keyboard.press('Escape');
    await captureBothWidths(page, 'journey-followed-authors');

    await page.getByTestId('nav-my').click();
    const listed = page.getByTestId('followed-author');
    await listed.getByText(name, { exact: true }).waitFor();
    expect(await listed.count()).toBe(1);
    const unfollowed = await callOf(
      'DELETE',
      `/api/auth/followed-authors/${(await followed.json()).followed.id}/`,
      () => listed.getByTestId('followed-author-unfollow').click(),
    );
    expect(await unfollowed.json()).toMatchObject({ followed_authors: [] });
    await page.getByTestId('followed-authors-empty').waitFor();
  });

  step('/news recommends news', async () => {
    const response = await callOf('GET', NEWS_PATH, () => page.getByTestId('nav-news').click());
    const body = (await response.json()) as NewsListResponse;
    expect(body.data.length).toBeGreaterThan(0);
    await page.getByTestId('news-result-heading').getByText(`共 ${body.pagination.total_count} 条推荐新闻`).waitFor();
    await waitForCompleteList(page, 'news-list');
    expect(await dataIds('news-card', 'data-news-id')).toEqual(body.data.map((item) => item.id));
    await captureBothWidths(page, 'journey-news');
  });

  step('at 375 px the drawer menu opens and navigates; article search finds papers by keyword', async () => {
    await page.setViewportSize(SCREENSHOT_VIEWPORTS.narrow);
    const toggle = page.getByTestId('app-drawer-toggle');
    await toggle.click();
    const drawer = page.getByTestId('app-drawer');
    await drawer.getByTestId('nav-search').waitFor();
    expect(await drawer.getAttribute('data-variant')).toBe('temporary');
    expect(await drawer.locator('[data-testid^="nav-"]').allInnerTexts()).toEqual([
      '官网',
      '论文推荐',
      '新闻推荐',
      '关键词',
      '检索',
      '我的收藏',
      '意见反馈',
      '我的',
    ]);
    await drawer.getByTestId('nav-search').click();
    await page.waitForURL(e2e.url('/search'));
    await drawer.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    await heading('论文检索').waitFor();
    const searched = await callOf('GET', '/articles/search/', async () => {
      await page.getByTestId('article-search-input').fill('language models');
      await page.getByTestId('article-search-submit').click();
    });
    expect(queryOf(searched)).toMatchObject({ q: 'language models', page: '1' });
    const body = (await searched.json()) as ArticleSearchResponse;
    expect(body.count).toBeGreaterThan(0);
    await page.getByTestId('article-search-count').getByText(`找到 ${body.count} 篇相关论文`).waitFor();
    expect(await dataIds('paper-card', 'data-paper-id')).toEqual(body.results.map((paper) => paper.id));
    // Both words, anywhere in the paper (the server joins keywords with AND).
    for (const paper of body.results) {
      const text = `${paper.title} ${paper.abstract} ${paper.journal}`.toLowerCase();
      expect(text).toContain('language');
      expect(text).toContain('models');
    }
    await captureBothWidths(page, 'journey-search');
    await page.setViewportSize(SCREENSHOT_VIEWPORTS.wide);
  });

  step('/keywords follows a new keyword', async () => {
    await page.getByTestId('nav-keywords').click();
    await heading('关键词').waitFor();
    const added = await callOf('POST', '/user-keywords/add/', async () => {
      await page.getByTestId('keyword-add-input').fill('federated learning');
      await page.getByTestId('keyword-add-submit').click();
    });
    expect(added.status()).toBe(201);
    await page.locator('[data-testid="keyword-item"][data-name="federated learning"]').waitFor();
    await page.getByTestId('keyword-count').getByText('已关注 1/50 个').waitFor();
    const user = await storedUser();
    const keywords = await new KeywordRepository(e2e.server.database.db).listByUser(user.id);
    expect(keywords.map((keyword) => keyword.name)).toEqual(['federated learning']);
    await captureBothWidths(page, 'journey-keywords');
  });

  step('/feedback sends feedback, stores it and thanks', async () => {
    await page.getByTestId('nav-feedback').click();
    await heading('意见反馈').waitFor();
    expect(await page.getByTestId('feedback-user-info-email').textContent()).toBe(EMAIL);
    await page.getByRole('radio', { name: '功能建议' }).check();
    await page.getByTestId('feedback-title').fill('希望推荐结果可以导出');
    await page.getByTestId('feedback-description').fill('希望能把论文推荐列表导出为 BibTeX。');
    const sent = await callOf('POST', '/api/feedback/send/', () => page.getByTestId('feedback-submit').click());
    expect(sent.status()).toBe(200);
    const { id } = (await sent.json()) as { id: string };
    await page.getByTestId('feedback-thanks').getByRole('heading', { name: '感谢你的反馈' }).waitFor();

    const user = await storedUser();
    const stored = await new FeedbackRepository(e2e.server.database.db).findById(Number(id));
    expect(stored).toMatchObject({
      userId: user.id,
      type: '功能建议',
      title: '希望推荐结果可以导出',
      description: '希望能把论文推荐列表导出为 BibTeX。',
    });
    await captureBothWidths(page, 'journey-feedback');
  });

  step('logs out from /my and is signed out', async () => {
    await page.getByTestId('nav-my').click();
    await heading('我的').waitFor();
    await page.getByTestId('account-logout').click();
    await page.waitForURL(e2e.url('/'));
    await page.getByTestId('nav-login').waitFor();
    await page.getByTestId('landing-cta-register').waitFor();
    expect(await readSession(page)).toEqual({ token: null, userEmail: null });

    // The session is gone for good: /papers is guarded again after a fresh load.
    await page.goto('/papers');
    await page.waitForURL(e2e.url('/'));
    await page.getByTestId('landing-login-required').waitFor();
  });
});
