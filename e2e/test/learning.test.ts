import { LEARNING_PATHS, LEARNING_TEXTS, type PaperRecommendationResponse } from '@radar/shared';
import type { Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { captureBothWidths, type E2eEnvironment, expectCleanPage, loadEmbeddedDemoCorpus, startE2e } from '../src';

/**
 * Recommendations that learn from the reader and explain themselves (issue 13) against the real API, on
 * the demo corpus embedded with the server's built-in model: 'not interested' on /papers with its undo
 * and a reload, the reason line of each card, and the learning status with its reset on /my.
 */

let e2e: E2eEnvironment;
let readerToken: string;
const READER_EMAIL = 'learner@example.org';
/** Written from the demo corpus' computer-science vocabulary, so those papers come first. */
const RESEARCH_SUMMARY =
  'Large language models and graph neural networks for recommender systems: contrastive pre-training, retrieval-augmented generation, federated learning with differential privacy, program synthesis and formal verification of distributed database consistency.';

const PAPERS_PATH = '/api/auth/recommendations/papers/';

beforeAll(async () => {
  e2e = await startE2e();
  await loadEmbeddedDemoCorpus(e2e.server);
  const reader = await e2e.server.createSignedInUser(READER_EMAIL);
  readerToken = reader.token;
  // Sets the research summary as the account page does; the server computes the profile vector.
  const response = await fetch(e2e.url('/api/auth/research-direction/confirm/'), {
    method: 'POST',
    headers: { authorization: `Bearer ${readerToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ research_summary_en: RESEARCH_SUMMARY }),
  });
  expect(response.status).toBe(200);
});

afterEach(async () => {
  await e2e?.closePages();
});

afterAll(async () => {
  await e2e?.close();
});

const isResponseTo = (method: string, path: string) => (response: Response) =>
  new URL(response.url()).pathname === path && response.request().method() === method;

/** Runs `action` and returns the response to `method path` it caused. */
async function responseOf(page: Page, method: string, path: string, action: () => Promise<unknown>): Promise<Response> {
  const [response] = await Promise.all([page.waitForResponse(isResponseTo(method, path)), action()]);
  return response;
}

const cardIds = (page: Page) =>
  page.getByTestId('paper-card').evaluateAll((cards) => cards.map((card) => (card as HTMLElement).dataset.paperId));
const cardOf = (page: Page, id: string) => page.locator(`[data-testid="paper-card"][data-paper-id="${id}"]`);

it("'not interested' hides a paper (undo brings it back, a reload keeps it hidden); /my counts it and resets", async () => {
  const session = await e2e.openPage({
    localStorage: { token: readerToken, userEmail: READER_EMAIL, 'research-guide-dismissed': 'true' },
  });
  const { page } = session;

  const loaded = await responseOf(page, 'GET', PAPERS_PATH, () => page.goto('/papers'));
  const body = (await loaded.json()) as PaperRecommendationResponse;
  expect(body.recommendations.length).toBeGreaterThan(1);
  await page.getByTestId('papers-list').waitFor();
  const allIds = body.recommendations.map((paper) => paper.id);
  expect(await cardIds(page)).toEqual(allIds);

  // Each card says why it is recommended, as the API does; the sources' freshness is above the list.
  const firstCard = page.getByTestId('paper-card').first();
  const [first] = body.recommendations;
  expect(first?.reason.text).toBeTruthy();
  const reason = firstCard.getByTestId('paper-card-reason');
  await reason.waitFor();
  expect(await reason.textContent()).toBe(first?.reason.text);
  // The demo corpus came without a source run: the line dates the newest paper and counts the week's.
  expect(await page.getByTestId('papers-freshness').textContent()).toMatch(/^最新论文收录于.+（近 7 天新增 \d+ 篇）$/);
  await captureBothWidths(page, 'papers-reasons');

  // Not interested: the card goes at once, the snackbar offers the undo.
  const dismissedId = allIds[0] ?? '';
  const notInterestedPath = LEARNING_PATHS.paperNotInterested(dismissedId);
  const dismissed = await responseOf(page, 'POST', notInterestedPath, () =>
    firstCard.getByRole('button', { name: LEARNING_TEXTS.notInterested }).click(),
  );
  expect(await dismissed.json()).toEqual({ success: true, id: dismissedId, not_interested: true });
  await cardOf(page, dismissedId).waitFor({ state: 'detached' });
  expect(await cardIds(page)).toEqual(allIds.slice(1));
  const notice = page.getByTestId('papers-notice');
  await notice.getByText(LEARNING_TEXTS.notInterestedDone).waitFor();

  // 撤销 puts it back in its place, on the server too.
  const undone = await responseOf(page, 'DELETE', notInterestedPath, () =>
    notice.getByRole('button', { name: LEARNING_TEXTS.undo }).click(),
  );
  expect(await undone.json()).toEqual({ success: true, id: dismissedId, not_interested: false });
  await expect.poll(() => cardIds(page)).toEqual(allIds);

  // Marked again, it stays away after a reload.
  await responseOf(page, 'POST', notInterestedPath, () =>
    cardOf(page, dismissedId).getByRole('button', { name: LEARNING_TEXTS.notInterested }).click(),
  );
  await cardOf(page, dismissedId).waitFor({ state: 'detached' });
  const reloaded = await responseOf(page, 'GET', PAPERS_PATH, () => page.reload());
  const reloadedIds = ((await reloaded.json()) as PaperRecommendationResponse).recommendations.map((paper) => paper.id);
  expect(reloadedIds).not.toContain(dismissedId);
  // The threshold is about the research summary, so every other paper is still recommended (the learned
  // profile may reorder them, and a paper beyond the first top_k may move up into the gap).
  expect(reloadedIds).toEqual(expect.arrayContaining(allIds.slice(1)));
  await page.getByTestId('papers-list').waitFor();
  await expect.poll(() => cardIds(page)).toEqual(reloadedIds);

  // The server's worker recomputes the learned profile after the mark; the next answers rank by it.
  await expect
    .poll(
      async () => {
        const response = await fetch(e2e.url(`${PAPERS_PATH}?date_filter=不限`), {
          headers: { authorization: `Bearer ${readerToken}` },
        });
        return ((await response.json()) as PaperRecommendationResponse).learning;
      },
      { timeout: 15_000, interval: 250 },
    )
    .toEqual({ applied: true, signal_count: 1 });

  // /my: one signal (the mark; the undone one does not count), then the reset.
  await responseOf(page, 'GET', LEARNING_PATHS.status, () => page.getByTestId('nav-my').first().click());
  const status = page.getByTestId('learning-status');
  await status.filter({ hasText: LEARNING_TEXTS.adjusted(1) }).waitFor();
  expect(await status.textContent()).toBe(LEARNING_TEXTS.adjusted(1));
  expect(await page.getByTestId('learning-note').textContent()).toBe(LEARNING_TEXTS.dismissedStayHidden);
  await captureBothWidths(page, 'account-learning');

  const reset = await responseOf(page, 'POST', LEARNING_PATHS.reset, () =>
    page.getByRole('button', { name: LEARNING_TEXTS.reset }).click(),
  );
  expect(await reset.json()).toMatchObject({ success: true, signal_count: 0 });
  await page.getByText(LEARNING_TEXTS.resetDone).waitFor();
  await status.filter({ hasText: LEARNING_TEXTS.plain }).waitFor();
  expect(await page.getByRole('button', { name: LEARNING_TEXTS.reset }).count()).toBe(0);

  // The reset keeps the mark: the paper is still not recommended.
  const afterReset = await responseOf(page, 'GET', PAPERS_PATH, () => page.getByTestId('nav-papers').first().click());
  const afterResetIds = ((await afterReset.json()) as PaperRecommendationResponse).recommendations.map(
    (paper) => paper.id,
  );
  expect(afterResetIds).not.toContain(dismissedId);
  expectCleanPage(session);
});
