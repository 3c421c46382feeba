import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type E2eEnvironment, startE2e } from '../src';

/**
 * The Content-Security-Policy the server sends is one the built web app and swagger UI (/api/docs) run
 * under: the pages render and the browser reports no violation.
 */

let e2e: E2eEnvironment;

beforeAll(async () => {
  e2e = await startE2e();
});

afterEach(async () => {
  await e2e?.closePages();
});

afterAll(async () => {
  await e2e?.close();
});

/** Records every `securitypolicyviolation` event of the context's pages, from their first script on. */
async function recordCspViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const violations: string[] = [];
    Object.defineProperty(window, '__cspViolations', { value: violations });
    document.addEventListener('securitypolicyviolation', (event) => {
      violations.push(
        `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
}

const cspViolations = (page: Page) =>
  page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);

describe('Content-Security-Policy', () => {
  it('is sent with the web app, which renders under it without violations', async () => {
    const { page, context, errors, failedResponses } = await e2e.openPage();
    await recordCspViolations(context);
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");

    await page.getByRole('heading', { level: 1, name: '科研雷达' }).waitFor();
    // A client-side navigation loads the lazy chunks of another page under the same policy.
    await page.getByTestId('landing-cta-register').click();
    await page.getByRole('heading', { level: 1, name: '注册' }).waitFor();
    await page.waitForLoadState('networkidle');

    expect(await cspViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    expect(failedResponses).toEqual([]);
  });

  it('lets swagger UI at /api/docs render the API', async () => {
    const { page, context, errors, blockedRequests } = await e2e.openPage();
    await recordCspViolations(context);
    const response = await page.goto('/api/docs');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");

    // The operations come from /api/docs/json, rendered by swagger UI's scripts.
    await page.locator('.swagger-ui .opblock-summary-path', { hasText: '/api/auth/login/' }).first().waitFor();
    await page.waitForLoadState('networkidle');

    expect(await cspViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    expect(blockedRequests).toEqual([]);
  });
});
