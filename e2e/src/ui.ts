import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { E2ePage } from './harness';

/** Screenshots of the browser tests (gitignored). */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../artifacts/', import.meta.url));

/** The two widths every screen is checked and captured at. */
export const SCREENSHOT_VIEWPORTS = {
  narrow: { width: 375, height: 812 },
  wide: { width: 1440, height: 900 },
} as const;

/**
 * Saves the screen as it is at 375 and at 1440 px (`e2e/artifacts/<name>-<width>.png`), checking that
 * neither width scrolls sideways, then restores the viewport. `fullPage: false` captures the viewport
 * only, for a dialog (its backdrop covers the viewport, not the whole page).
 */
export async function captureBothWidths(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  await fs.mkdir(ARTIFACTS_DIR, { recursive: true });
  const original = page.viewportSize();
  for (const viewport of [SCREENSHOT_VIEWPORTS.narrow, SCREENSHOT_VIEWPORTS.wide]) {
    await page.setViewportSize(viewport);
    await expectNoSidewaysScroll(page, `${name} at ${viewport.width} px`);
    await page.screenshot({ path: `${ARTIFACTS_DIR}${name}-${viewport.width}.png`, fullPage });
  }
  if (original) await page.setViewportSize(original);
}

/**
 * Fails, naming the elements that stick out, when the page is wider than the viewport. Waits up to 5 s
 * first: layouts chosen by media queries (the navigation, the settings panels) re-render a moment after
 * a resize, and on a loaded machine the first read can still be the previous width's layout.
 */
async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const deadline = Date.now() + 5_000;
  while ((await overflow()) > 0 && Date.now() < deadline) await page.waitForTimeout(100);
  const excess = await overflow();
  if (excess <= 0) return;
  const culprits = await page.evaluate(() =>
    Array.from(document.body.querySelectorAll<HTMLElement>('*'))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(-5)
      .map((element) => {
        const { left, right } = element.getBoundingClientRect();
        const label = element.dataset.testid ?? element.className.toString().split(' ')[0] ?? '';
        return `<${element.tagName.toLowerCase()} ${label}> ${Math.round(left)}-${Math.round(right)} px "${(element.textContent ?? '').slice(0, 40)}"`;
      }),
  );
  expect.fail(`${what} scrolls sideways by ${excess} px; outermost offenders: ${culprits.join('; ')}`);
}

/**
 * Waits until a recommendation list (`papers-list`, `news-list`) holds every card of its answer: the web
 * app renders the first cards, then the rest (web/src/hooks/use-staged-list.ts).
 */
export async function waitForCompleteList(page: Page, testId: string): Promise<void> {
  await page.locator(`[data-testid="${testId}"][data-complete="true"]`).first().waitFor();
}

/** A form input by its exact label. */
export const fieldByLabel = (page: Page, label: string): Locator => page.getByLabel(label, { exact: true });

/** The helper text (error or hint) linked to an input by aria-describedby; '' when there is none. */
export async function fieldMessage(input: Locator): Promise<string> {
  const id = await input.getAttribute('aria-describedby');
  if (!id) return '';
  const text = (await input.page().locator(`[id="${id}"]`).textContent()) ?? '';
  // MUI renders an empty helper line as a zero-width space.
  return text.replace(/\u200b/g, '').trim();
}

/** Waits until the input shows `message` (and is marked invalid), or no message at all for ''. */
export async function expectFieldMessage(input: Locator, message: string): Promise<void> {
  await expect.poll(() => fieldMessage(input)).toBe(message);
  if (message) expect(await input.getAttribute('aria-invalid')).toBe('true');
}

/** Types a value and leaves the field, so validation on blur runs. */
export async function fillAndLeave(input: Locator, value: string): Promise<void> {
  await input.fill(value);
  await input.blur();
}

/**
 * No console errors or outside requests, and exactly the expected failed responses ("STATUS METHOD
 * path"). Chromium logs every failed response as a console error too; those lines are left out here.
 */
export function expectCleanPage(
  { errors, failedResponses, blockedRequests }: E2ePage,
  expectedFailures: string[] = [],
): void {
  expect(errors.filter((line) => !line.startsWith('console.error: Failed to load resource:'))).toEqual([]);
  expect(failedResponses).toEqual(expectedFailures);
  expect(blockedRequests).toEqual([]);
}
