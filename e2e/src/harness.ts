import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';
import { launchChromium } from './browser';
import { WEB_DIST_DIR_KEY } from './provided-context';
import { type E2eServer, type StartServerOptions, startServer } from './server';

/** Viewports of the shell's two layouts (the md breakpoint is 768 px). */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 390, height: 844 },
} as const;

/**
 * Playwright waits fail after this long, inside vitest's test timeout, with a useful message. 30 s: on the
 * 2-core machines of 2026-11-27 a full PostgreSQL-mode run took 570 s with the same code that took 200 s
 * before, and a 15 s wait for a search's empty state ran out once.
 */
const ACTION_TIMEOUT_MS = 30_000;

/** localStorage key of the marker that says the seed entries were already written in this context. */
const SEEDED_MARKER_KEY = 'radar-e2e:seeded';

export interface OpenPageOptions {
  /** Defaults to the desktop viewport. */
  viewport?: { width: number; height: number };
  /**
   * localStorage entries written before the app's first script runs, once per browser context: a reload
   * or a second tab does not restore them, so tests can check what the app removed.
   */
  localStorage?: Record<string, string>;
}

export interface E2ePage {
  page: Page;
  context: BrowserContext;
  /** console.error messages and uncaught exceptions, in order. */
  errors: string[];
  /** Responses with a status of 400 or more, as "STATUS METHOD path". */
  failedResponses: string[];
  /** Requests to anywhere but the test server; they are aborted, the tests only talk to 127.0.0.1. */
  blockedRequests: string[];
}

export interface E2eEnvironment {
  server: E2eServer;
  browser: Browser;
  /** http://127.0.0.1:<port>; pages opened with openPage() resolve relative URLs against it. */
  baseUrl: string;
  /** Absolute URL of a path on the test server. */
  url(path: string): string;
  /** A new, isolated browser context (own storage) with one page. */
  openPage(options?: OpenPageOptions): Promise<E2ePage>;
  /** Closes every context opened so far (call in afterEach). */
  closePages(): Promise<void>;
  /** Closes the pages, the server and its database (the browser is the worker's: see sharedChromium). */
  close(): Promise<void>;
}

/**
 * One chromium per worker process, shared by the test files it runs (e2e/vitest.config.ts: isolate
 * false): a launch and a close cost about 0.5 CPU-seconds each. Files stay apart as they did: each test
 * opens its pages in browser contexts of its own (own storage, cookies and cache), and a file's close()
 * closes its contexts. Playwright kills the browser when the worker process exits; one that crashed or
 * was closed is launched again.
 */
let workerBrowser: Promise<Browser> | undefined;

async function sharedChromium(): Promise<Browser> {
  const current = workerBrowser;
  if (current) {
    const browser = await current.catch(() => undefined);
    if (browser?.isConnected()) return browser;
    if (workerBrowser === current) workerBrowser = undefined;
  }
  workerBrowser ??= launchChromium();
  return workerBrowser;
}

/**
 * One environment per test file: the real server on a fresh database plus a headless chromium (the
 * worker process's, shared with the files before and after it).
 * Use in beforeAll and close it in afterAll; see e2e/README.md.
 */
export async function startE2e(serverOptions: Omit<StartServerOptions, 'webDistDir'> = {}): Promise<E2eEnvironment> {
  const webDistDir = inject(WEB_DIST_DIR_KEY);
  if (!webDistDir) {
    throw new Error('No built web app was provided: run the e2e tests with e2e/vitest.config.ts (its globalSetup).');
  }

  const [serverResult, browserResult] = await Promise.allSettled([
    startServer({ webDistDir, ...serverOptions }),
    sharedChromium(),
  ]);
  if (serverResult.status === 'rejected' || browserResult.status === 'rejected') {
    if (serverResult.status === 'fulfilled') await serverResult.value.close().catch(() => {});
    throw serverResult.status === 'rejected' ? serverResult.reason : (browserResult as PromiseRejectedResult).reason;
  }
  const server = serverResult.value;
  const browser = browserResult.value;
  const { baseUrl } = server;
  const contexts = new Set<BrowserContext>();

  const isTestServer = (url: URL) => url.origin === baseUrl;

  const openPage = async (options: OpenPageOptions = {}): Promise<E2ePage> => {
    const context = await browser.newContext({
      baseURL: baseUrl,
      viewport: options.viewport ?? VIEWPORTS.desktop,
      locale: 'zh-CN',
      timezoneId: 'Asia/Shanghai',
      serviceWorkers: 'block',
      // The app then shows collapses, drawers and dialogs without transitions (its theme honours the
      // setting): no click lands on a panel still opening, and the browser has less to draw.
      reducedMotion: 'reduce',
    });
    contexts.add(context);
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);

    const blockedRequests: string[] = [];
    await context.route(
      (url) => !isTestServer(url),
      (route) => {
        blockedRequests.push(route.request().url());
        return route.abort('blockedbyclient');
      },
    );

    if (options.localStorage) {
      await context.addInitScript(
        ({ origin, entries, marker }) => {
          if (window.location.origin !== origin || window.localStorage.getItem(marker)) return;
          for (const [key, value] of Object.entries(entries)) window.localStorage.setItem(key, value);
          window.localStorage.setItem(marker, '1');
        },
        { origin: baseUrl, entries: options.localStorage, marker: SEEDED_MARKER_KEY },
      );
    }

    const page = await context.newPage();
    const errors: string[] = [];
    const failedResponses: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console.error: ${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => errors.push(`uncaught: ${error.stack ?? error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) {
        failedResponses.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
      }
    });
    return { page, context, errors, failedResponses, blockedRequests };
  };

  const closePages = async () => {
    const open = [...contexts];
    contexts.clear();
    await Promise.all(open.map((context) => context.close()));
  };

  return {
    server,
    browser,
    baseUrl,
    url: (path) => new URL(path, baseUrl).toString(),
    openPage,
    closePages,
    async close() {
      const failures: unknown[] = [];
      await closePages().catch((error: unknown) => failures.push(error));
      await server.close().catch((error: unknown) => failures.push(error));
      if (failures.length > 0) throw new AggregateError(failures, 'e2e environment shutdown failed');
    },
  };
}

/** The session keys the app keeps in localStorage, read from the page. */
export async function readSession(page: Page): Promise<{ token: string | null; userEmail: string | null }> {
  return page.evaluate(() => ({
    token: window.localStorage.getItem('token'),
    userEmail: window.localStorage.getItem('userEmail'),
  }));
}
