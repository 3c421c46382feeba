/**
 * pnpm bench:first-card [--runs 5] [--papers 2000] [--news 300] [--waterfall] [--profile] [--web-dist DIR]
 *                       [--compare DIR]
 *
 * How long a reader waits for the first result card of /papers and /news, measured in the browser.
 * Builds nothing: it serves the web app `pnpm build` left in web/dist, or a copy of a build named by
 * --web-dist, and stops when there is none. --compare DIR measures a second build in the same run, each
 * run of one followed by the same run of the other (same server, same data, the same moments of a shared
 * machine's load): both builds' assets are served side by side and index.html is switched between runs.
 *
 * - Server: the real one (startRuntime) in embedded mode, as `pnpm start` runs it: PGlite in a fresh temp
 *   DATA_DIR, BullMQ on it, the in-process worker (no recurring jobs, no sources), on 127.0.0.1.
 * - Data: N papers and M news items stored through the ingestion pipeline and embedded with the active
 *   built-in model fitted on them (as the worker's maintain job fits it): the 800 real arXiv papers of the shared dev set
 *   (../shared/fixtures/eval), each reused with another paper's title appended until N, published over the
 *   last 14 days (so the default window 一周内 holds about half); one verified reader whose research
 *   direction is confirmed (POST /api/auth/research-direction/confirm/).
 * - Browser: Debian's chromium through playwright-core, launched as the e2e tests launch it, 1280x800,
 *   zh-CN, Asia/Shanghai. An init script watches the DOM (MutationObserver) and notes performance.now()
 *   when the first result card appears ("in DOM") and after the next animation frame ("painted"): a
 *   card of the early view (`early-paper-card` / `early-news-card`, drawn by the early script from the
 *   list's answer while the app loads) or of the app (`paper-card` / `news-card`), whichever comes
 *   first; the app's own first card apart ("app's card painted"); and when the list holds every card
 *   of the answer ("all cards": the app renders the first few, then the rest, and marks the list
 *   `data-complete`). The table puts issue 33's target (1 s) beside each median.
 * - cold: a new browser context (empty HTTP cache, the reader's token in localStorage) loads /papers or
 *   /news; the time counts from navigation start (performance.timeOrigin).
 * - warm: a new context loads /my and waits until its network is idle; then a click on the menu entry
 *   (in-app navigation, the app already running but this page's code and data not yet loaded); the time
 *   counts from the click.
 * - One unmeasured visit of each page first (the server's first answers after start).
 * Prints every run, median and p90 (nearest rank), and with --waterfall the requests of the median cold
 * run (start and end, ms after navigation start); with --profile, one more cold load of each page under
 * the V8 sampling profiler (CDP), until the first card: CPU time by script file and the busiest functions;
 * with --trace, one more cold load of each page under Chromium's tracing: the renderer's main thread
 * until the first card, busy time by kind of work (script, parse, style, layout, paint) and its longest
 * tasks; with --screens DIR, screenshots of each page at 1280 and 375 px wide: the early view (the
 * page's code held back 3 s so that it stays), then the app's page, to compare where the cards sit.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { readLabelledCsv } from '../packages/ai/src/testing/labelled-set';
import { createIngestRepositories, UserRepository } from '../packages/db/src';
import { sharedFixturesDir } from '../packages/db/src/testing/fixtures';
import { consumeEntries } from '../packages/ingest/src/pipeline/pipeline';
import type { IngestEntry } from '../packages/ingest/src/types';
import { loadConfig } from '../packages/shared/src/server';
import { createLogger, startRuntime } from '../server/src';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    papers: { type: 'string', default: '2000' },
    news: { type: 'string', default: '300' },
    waterfall: { type: 'boolean', default: false },
    'web-dist': { type: 'string' },
    screens: { type: 'string' },
    profile: { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    compare: { type: 'string' },
  },
  strict: true,
});
/** Measured runs of each page and mode; 0 measures nothing (for --screens, --trace or --profile alone). */
const RUNS = Math.max(0, Number.parseInt(args.runs, 10) || 0);
const PAPERS = Math.max(1, Number.parseInt(args.papers, 10) || 2000);
const NEWS = Math.max(1, Number.parseInt(args.news, 10) || 300);

const WEB_DIST_DIR = args['web-dist']
  ? path.resolve(args['web-dist'])
  : fileURLToPath(new URL('../web/dist/', import.meta.url));
/** Debian's chromium with the flags of e2e/src/browser.ts; Playwright's own browsers are never used. */
const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const WAIT_MS = 60_000;
/** Issue 33's target: the first result card painted within 1 s of navigation (cold) or of the click (warm). */
const TARGET_MS = 1000;
const READER_EMAIL = 'first-card.reader@example.org';
const RESEARCH_SUMMARY =
  'Machine learning for computer security: adversarial examples and robustness of deep neural networks, ' +
  'privacy attacks and differential privacy, intrusion and malware detection with learned models.';

const PAGES = [
  { path: '/papers', card: 'paper-card', nav: 'nav-papers' },
  { path: '/news', card: 'news-card', nav: 'nav-news' },
] as const;
type PageSpec = (typeof PAGES)[number];

interface Measurement {
  domMs: number;
  paintMs: number;
  /** The app's own first card (an earlier card of the early view not counted). */
  appPaintMs: number;
  /** When every card of the answer was in the DOM. */
  allMs: number;
  requests: { name: string; start: number; end: number; bytes: number }[];
}

const DAY_MS = 86_400_000;

async function* corpus(): AsyncGenerator<IngestEntry, undefined> {
  const documents = await readLabelledCsv(path.join(sharedFixturesDir(), 'eval/arxiv_cs_4class_balanced_800.csv'));
  const today = Date.now();
  for (let index = 0; index < PAPERS; index++) {
    const document = documents[index % documents.length];
    if (!document) continue;
    const round = Math.floor(index / documents.length);
    // Later rounds reuse a text with another paper's title appended, so no two papers share a title.
    const other = documents[(index * 7 + round * 131) % documents.length];
    const title = round === 0 || !other ? document.title : `${document.title}: ${other.title}`;
    yield {
      type: 'paper',
      draft: {
        key: `bench:${index}`,
        title,
        authors: [`Author ${index % 97}`, `Researcher ${index % 89}`, `Scientist ${index % 83}`],
        abstract: document.abstract,
        url: `http://127.0.0.1/bench/papers/${index}`,
        publishedAt: new Date(today - (index % 14) * DAY_MS).toISOString().slice(0, 10),
        journal: { name: `Bench Journal ${index % 12}`, issns: [], isPreprintServer: false },
        keywords: [document.label],
        fields: ['computer-science'],
        sourceIds: { bench: String(index) },
        notes: [],
      },
    };
  }
  for (let index = 0; index < NEWS; index++) {
    const document = documents[(index * 13) % documents.length];
    if (!document) continue;
    yield {
      type: 'news',
      draft: {
        key: `bench:news:${index}`,
        title: `Institute ${index % 9} reports: ${document.title}`,
        content: document.abstract,
        url: `http://127.0.0.1/bench/news/${index}`,
        publishDate: new Date(today - (index % 5) * DAY_MS - 3_600_000),
        institute: `Bench Institute ${index % 9}`,
        fields: ['computer-science'],
        notes: [],
      },
    };
  }
  return undefined;
}

/**
 * Notes when the first card enters the DOM and the frame after it: a card of the early view (drawn by
 * the early script from the list's answer before the app runs) or of the app's page, whichever comes
 * first; then the same for the app's own first card (its every action working); and when the list
 * holds all its cards (the web app renders the first few first and marks the list `data-complete`; a
 * build without the mark has them all at once) in `window.__firstCard`; a string, not a function, because tsx wraps named
 * functions in a helper the page does not have.
 */
const WATCH_FIRST_CARD = `(() => {
  const EARLY = '[data-testid="early-paper-card"],[data-testid="early-news-card"]';
  const APP = '[data-testid="paper-card"],[data-testid="news-card"]';
  const fresh = (start) => ({ dom: null, paint: null, appDom: null, appPaint: null, all: null, start });
  window.__resetFirstCard = () => {
    window.__firstCard = fresh(performance.now());
  };
  window.__firstCard = fresh(0);
  const painted = (watch, key) => requestAnimationFrame(() => setTimeout(() => { watch[key] = performance.now(); }, 0));
  new MutationObserver(() => {
    const watch = window.__firstCard;
    if (watch.all === null) {
      const list = document.querySelector('[data-testid="papers-list"],[data-testid="news-list"]');
      if (list && list.getAttribute('data-complete') !== 'false') watch.all = performance.now();
    }
    if (watch.appDom === null && document.querySelector(APP)) {
      watch.appDom = performance.now();
      painted(watch, 'appPaint');
    }
    if (watch.dom === null && (watch.appDom !== null || document.querySelector(EARLY))) {
      watch.dom = performance.now();
      painted(watch, 'paint');
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-complete'] });
})();`;

/**
 * Waits until `check` holds in the page, asking every 100 ms. Not page.waitForFunction: that injects
 * Playwright's selector engine into the page, about 80-100 ms of the renderer's main thread in the
 * middle of the load being measured (seen in --trace), which no reader's browser runs.
 */
async function pollPage(page: Page, check: () => boolean): Promise<void> {
  const deadline = performance.now() + WAIT_MS;
  while (!(await page.evaluate(check))) {
    if (performance.now() > deadline) throw new Error(`timed out after ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The reader signed in (the token the web app stores) and the first-card watcher, in every page of `context`. */
async function signedInWatching(context: BrowserContext, token: string): Promise<void> {
  await context.addInitScript(
    ({ entries }) => {
      if (window.localStorage.getItem('token')) return;
      for (const [key, value] of Object.entries(entries)) window.localStorage.setItem(key, value);
    },
    { entries: { token, userEmail: READER_EMAIL } },
  );
  await context.addInitScript(WATCH_FIRST_CARD);
}

async function measure(
  browser: Browser,
  baseUrl: string,
  token: string,
  spec: PageSpec,
  mode: 'cold' | 'warm',
): Promise<Measurement> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1280, height: 800 },
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    serviceWorkers: 'block',
  });
  try {
    await context.route(
      (url) => url.origin !== baseUrl,
      (route) => route.abort('blockedbyclient'),
    );
    await signedInWatching(context, token);
    const page = await context.newPage();
    if (mode === 'cold') {
      await page.goto(spec.path, { waitUntil: 'commit' });
    } else {
      await page.goto('/my', { waitUntil: 'networkidle' });
      await page.getByRole('heading', { level: 1, name: '我的' }).waitFor({ timeout: WAIT_MS });
      await page.evaluate((nav) => {
        (window as unknown as { __resetFirstCard: () => void }).__resetFirstCard();
        document.querySelector<HTMLElement>(`[data-testid="${nav}"]`)?.click();
      }, spec.nav);
    }
    await pollPage(
      page,
      () => (window as unknown as { __firstCard: { paint: number | null } }).__firstCard.paint !== null,
    ).catch(async (error: unknown) => {
      const shown = await page
        .evaluate(
          () =>
            JSON.stringify((window as unknown as { __firstCard: unknown }).__firstCard) +
            (document.body.textContent ?? '').slice(0, 300),
        )
        .catch(() => '');
      throw new Error(`no card on ${spec.path} (${mode}); the page shows: ${shown}`, { cause: error });
    });
    await pollPage(page, () => {
      const watch = (window as unknown as { __firstCard: { all: number | null; appPaint: number | null } }).__firstCard;
      return watch.all !== null && watch.appPaint !== null;
    });
    return await page.evaluate(() => {
      const watch = (
        window as unknown as {
          __firstCard: { dom: number; paint: number; appPaint: number; all: number; start: number };
        }
      ).__firstCard;
      const requests = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => entry.startTime >= watch.start)
        .map((entry) => ({
          name: new URL(entry.name).pathname + new URL(entry.name).search.slice(0, 40),
          start: entry.startTime - watch.start,
          end: entry.responseEnd - watch.start,
          bytes: entry.transferSize,
        }));
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      if (watch.start === 0 && navigation) {
        requests.unshift({
          name: 'document',
          start: navigation.startTime,
          end: navigation.responseEnd,
          bytes: navigation.transferSize,
        });
      }
      return {
        domMs: watch.dom - watch.start,
        paintMs: watch.paint - watch.start,
        appPaintMs: watch.appPaint - watch.start,
        allMs: watch.all - watch.start,
        requests,
      };
    });
  } finally {
    await context.close();
  }
}

/** A new context (1280x800, zh-CN) with the reader signed in and the first-card watcher, and its page. */
async function signedInPage(browser: Browser, baseUrl: string, token: string) {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1280, height: 800 },
    locale: 'zh-CN',
  });
  await signedInWatching(context, token);
  return { context, page: await context.newPage() };
}

/** A cold load of `spec` under the V8 sampling profiler: self time by script and by function, in ms. */
async function profileColdLoad(browser: Browser, baseUrl: string, token: string, spec: PageSpec): Promise<void> {
  const { context, page } = await signedInPage(browser, baseUrl, token);
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(spec.path, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => (window as unknown as { __firstCard: { paint: number | null } }).__firstCard.paint !== null,
      undefined,
      { timeout: WAIT_MS },
    );
    const paint = await page.evaluate(
      () => (window as unknown as { __firstCard: { paint: number } }).__firstCard.paint,
    );
    const { profile } = await cdp.send('Profiler.stop');
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const selfUs = new Map<number, number>();
    const deltas = profile.timeDeltas ?? [];
    for (const [index, id] of (profile.samples ?? []).entries()) {
      selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[index + 1] ?? 0));
    }
    const byFile = new Map<string, number>();
    const byFunction = new Map<string, number>();
    for (const [id, us] of selfUs) {
      const frame = byId.get(id)?.callFrame;
      if (!frame) continue;
      const file = frame.url ? new URL(frame.url, baseUrl).pathname : `(${frame.functionName || 'native'})`;
      byFile.set(file, (byFile.get(file) ?? 0) + us / 1000);
      const name = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + us / 1000);
    }
    const top = (map: Map<string, number>, count: number) =>
      [...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, count)
        .map(([name, value]) => `  ${ms(value).padStart(5)} ms  ${name}`);
    console.log(`\n${spec.path} cold under the profiler: first card ${ms(paint)} ms; CPU by script:`);
    for (const line of top(byFile, 12)) console.log(line);
    console.log('busiest functions (self time):');
    for (const line of top(byFunction, 15)) console.log(line);
  } finally {
    await context.close();
  }
}

/** The main-thread events whose time --trace sums, by the name Chromium's trace gives them. */
const TRACE_KINDS: Record<string, string> = {
  EvaluateScript: 'script: evaluate',
  'v8.evaluateModule': 'script: evaluate module',
  FunctionCall: 'script: callbacks',
  'v8.compile': 'script: compile',
  'v8.compileModule': 'script: compile',
  TimerFire: 'script: timers',
  FireAnimationFrame: 'script: animation frames',
  EventDispatch: 'script: events',
  ParseHTML: 'parse HTML',
  ParseAuthorStyleSheet: 'parse CSS',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  MajorGC: 'garbage collection',
  MinorGC: 'garbage collection',
};

/** A cold load of `spec` under Chromium's tracing: where the renderer's main thread went before the first card. */
async function traceColdLoad(browser: Browser, baseUrl: string, token: string, spec: PageSpec): Promise<void> {
  const { context, page } = await signedInPage(browser, baseUrl, token);
  try {
    await browser.startTracing(page, {
      categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink.user_timing'],
    });
    await page.goto(spec.path, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => (window as unknown as { __firstCard: { paint: number | null } }).__firstCard.paint !== null,
      undefined,
      { timeout: WAIT_MS },
    );
    const { paint, origin } = await page.evaluate(() => ({
      paint: (window as unknown as { __firstCard: { paint: number } }).__firstCard.paint,
      origin: performance.timeOrigin,
    }));
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
      traceEvents: { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: unknown }[];
    };
    const events = trace.traceEvents;
    // The page's main thread: the renderer's main thread (CrRendererMain) of the process that navigated
    // to the page; without that mark, the one that ran the most tasks.
    const navigation = events.find(
      (event) => event.name === 'navigationStart' && JSON.stringify(event.args ?? {}).includes(spec.path),
    );
    const mains = events.filter(
      (event) => event.name === 'thread_name' && JSON.stringify(event.args).includes('CrRendererMain'),
    );
    const taskCount = (pid: number, tid: number) =>
      events.filter((event) => event.pid === pid && event.tid === tid && TRACE_KINDS[event.name]).length;
    const main =
      mains.find((thread) => navigation && thread.pid === navigation.pid && thread.tid === navigation.tid) ??
      mains.sort((a, b) => taskCount(b.pid, b.tid) - taskCount(a.pid, a.tid))[0];
    if (!main) throw new Error('no renderer main thread in the trace');
    // Trace timestamps are microseconds on the monotonic clock; performance.timeOrigin is wall-clock ms.
    const startUs =
      navigation?.pid === main.pid
        ? navigation.ts
        : Math.min(...events.filter((event) => event.pid === main.pid).map((e) => e.ts));
    const endUs = startUs + paint * 1000;
    const onMain = events.filter(
      (event) =>
        event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.ts < endUs && event.ts >= startUs,
    );
    const byKind = new Map<string, number>();
    for (const event of onMain) {
      const kind = TRACE_KINDS[event.name];
      if (kind) byKind.set(kind, (byKind.get(kind) ?? 0) + (event.dur ?? 0) / 1000);
    }
    const tasks = onMain.filter((event) => event.name === 'RunTask');
    const busy = tasks.reduce((sum, task) => sum + (task.dur ?? 0) / 1000, 0);
    console.log(
      `\n${spec.path} cold under tracing: first card ${ms(paint)} ms; the main thread ran tasks for ${ms(busy)} ms ` +
        `of it (time origin ${Math.round(origin)}); by kind (nested kinds overlap):`,
    );
    for (const [kind, value] of [...byKind].sort((a, b) => b[1] - a[1]))
      console.log(`  ${ms(value).padStart(5)} ms  ${kind}`);
    console.log('longest tasks (start ms after navigation, duration):');
    for (const task of [...tasks].sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0)).slice(0, 8)) {
      const inside = onMain
        .filter((event) => event.ts >= task.ts && event.ts < task.ts + (task.dur ?? 0) && TRACE_KINDS[event.name])
        .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
        .slice(0, 3)
        .map((event) => {
          // Which script an evaluation ran (the file's name), which the kind alone does not say.
          const url = (event.args as { data?: { url?: string } } | undefined)?.data?.url;
          const file = url ? `(${url.split('/').pop()?.slice(0, 40)})` : '';
          return `${event.name}${file} ${ms((event.dur ?? 0) / 1000)}`;
        })
        .join(', ');
      console.log(
        `  ${ms((task.ts - startUs) / 1000).padStart(5)}  ${ms((task.dur ?? 0) / 1000).padStart(4)} ms  ${inside}`,
      );
    }
  } finally {
    await context.close();
  }
}

/** The early view, then the app's page, of `spec` at `width` px: two screenshots in `dir`. */
async function screenshotEarlyView(
  browser: Browser,
  baseUrl: string,
  token: string,
  spec: PageSpec,
  width: number,
  dir: string,
): Promise<void> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width, height: width > 600 ? 800 : 740 },
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  });
  try {
    await signedInWatching(context, token);
    // The app's code of the page arrives 3 s late, so the early view stays on screen to be photographed.
    await context.route(/\/assets\/(papers|news)-[^/]*\.js/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.continue();
    });
    const page = await context.newPage();
    // Twice: the first visit notes where the app's cards sit, which the second visit's early view uses.
    for (const visit of [1, 2]) {
      await page.goto(spec.path, { waitUntil: 'commit' });
      const early = page.getByTestId(`early-${spec.card}`).first();
      const sawEarly = await early.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      );
      if (visit === 2 && sawEarly) {
        await page.screenshot({ path: path.join(dir, `${spec.path.slice(1)}-${width}-early.png`) });
      }
      await page.getByTestId(spec.card).first().waitFor({ timeout: WAIT_MS });
      await page.waitForTimeout(300);
      if (visit === 2) await page.screenshot({ path: path.join(dir, `${spec.path.slice(1)}-${width}-app.png`) });
      if (visit === 2 && !sawEarly) console.log(`${spec.path} at ${width} px: no early view was drawn`);
    }
  } finally {
    await context.close();
  }
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
};
const ms = (value: number) => `${Math.round(value)}`;
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

if (!fs.existsSync(path.join(WEB_DIST_DIR, 'index.html'))) {
  console.error(`no built web app in ${WEB_DIST_DIR}: run \`pnpm build\` first`);
  process.exit(1);
}
if (!fs.existsSync(CHROMIUM_PATH)) {
  console.error(`Debian's chromium is missing at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
  process.exit(1);
}

const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'radar-bench-first-card-'));

/** A build's index.html and its compressed copies (absent ones are null). */
interface Build {
  name: string;
  index: Record<'' | '.br' | '.gz', Buffer | null>;
}
async function readBuild(dir: string): Promise<Build> {
  const read = (suffix: string) => fsp.readFile(path.join(dir, `index.html${suffix}`)).catch(() => null);
  return { name: dir, index: { '': await read(''), '.br': await read('.br'), '.gz': await read('.gz') } };
}
const builds: Build[] = [await readBuild(WEB_DIST_DIR)];
let servedDir = WEB_DIST_DIR;
if (args.compare) {
  const other = path.resolve(args.compare);
  if (!fs.existsSync(path.join(other, 'index.html'))) {
    console.error(`no built web app in ${other}`);
    process.exit(1);
  }
  builds.push(await readBuild(other));
  // Hashed asset names: the two builds' files sit side by side; only index.html differs.
  servedDir = path.join(dataDir, 'web');
  await fsp.cp(other, servedDir, { recursive: true });
  await fsp.cp(WEB_DIST_DIR, servedDir, { recursive: true });
}
/** Serves `build`'s index.html (read per request by the server, compressed copies included). */
async function useBuild(build: Build): Promise<void> {
  if (builds.length === 1) return;
  for (const [suffix, content] of Object.entries(build.index)) {
    const file = path.join(servedDir, `index.html${suffix}`);
    if (content) await fsp.writeFile(file, content);
    else await fsp.rm(file, { force: true });
  }
}
const config = loadConfig({
  DATA_DIR: dataDir,
  JWT_SECRET: randomBytes(36).toString('base64'),
  HOST: '127.0.0.1',
  JOURNAL_TIERS_AUTO: 'false',
  INGEST_SOURCES_JSON: '{"sources":[]}',
});
const runtime = await startRuntime(config, createLogger('silent'), {
  recurringJobs: false,
  webDistDir: servedDir,
});
let browser: Browser | undefined;
try {
  await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(runtime.app.server.address() as AddressInfo).port}`;

  const seedStarted = performance.now();
  const repositories = createIngestRepositories(runtime.database.db);
  const { summary, failure } = await consumeEntries(repositories, corpus(), { source: 'bench', isDemo: false });
  if (failure) throw failure;
  // What the worker's maintain job does after an ingestion: the first fit of the built-in model, then
  // vectors of that model for everything stored.
  const { embeddings } = runtime.parts.ai;
  await embeddings.refitIfDue();
  await embeddings.reembedStale({});
  const embedder = await embeddings.active();
  const user = await new UserRepository(runtime.database.db).create({ email: READER_EMAIL, isEmailVerified: true });
  const token = await runtime.app.signIn(user);
  const confirmed = await fetch(`${baseUrl}/api/auth/research-direction/confirm/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ research_summary_en: RESEARCH_SUMMARY }),
  });
  if (!confirmed.ok) throw new Error(`confirm answered ${confirmed.status}: ${await confirmed.text()}`);

  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  console.log(
    `first result card: embedded (PGlite in a temp DATA_DIR), ${summary.newPaperIds.length} papers and ` +
      `${summary.newNewsIds.length} news embedded with ${embedder.model.name} (${embedder.model.dimension} dimensions) in ` +
      `${((performance.now() - seedStarted) / 1000).toFixed(1)} s; ${os.cpus().length} cores, ` +
      `Node ${process.version}; web app ${builds.map((build) => build.name).join(' vs ')}; load average ${load()}`,
  );
  for (const build of builds) {
    await useBuild(build);
    for (const spec of PAGES) await measure(browser, baseUrl, token, spec, 'cold');
  }
  if (args.profile) {
    for (const build of builds) {
      await useBuild(build);
      if (builds.length > 1) console.log(`\nprofiles of ${build.name}`);
      for (const spec of PAGES) await profileColdLoad(browser, baseUrl, token, spec);
    }
  }
  if (args.screens) {
    await fsp.mkdir(args.screens, { recursive: true });
    // The build under test (--web-dist), not the one --compare names.
    await useBuild(builds[0] as Build);
    for (const spec of PAGES) {
      for (const width of [1280, 375]) await screenshotEarlyView(browser, baseUrl, token, spec, width, args.screens);
    }
    console.log(`screenshots of the early view and the app's page in ${args.screens}`);
  }
  if (args.trace) {
    for (const build of builds) {
      await useBuild(build);
      if (builds.length > 1) console.log(`\ntraces of ${build.name}`);
      for (const spec of PAGES) await traceColdLoad(browser, baseUrl, token, spec);
    }
  }

  const rows: string[] = [];
  for (const spec of RUNS > 0 ? PAGES : []) {
    for (const mode of ['cold', 'warm'] as const) {
      const results = builds.map(() => [] as Measurement[]);
      for (let run = 0; run < RUNS; run++) {
        for (const [index, build] of builds.entries()) {
          await useBuild(build);
          results[index]?.push(await measure(browser, baseUrl, token, spec, mode));
        }
      }
      for (const [index, build] of builds.entries()) {
        const runs = results[index] ?? [];
        const paint = runs.map((result) => result.paintMs);
        const dom = runs.map((result) => result.domMs);
        const all = runs.map((result) => result.allMs);
        const appPaint = runs.map((result) => result.appPaintMs);
        const median = quantile(paint, 0.5);
        rows.push(
          `| ${spec.path} | ${mode} |${builds.length > 1 ? ` ${index === 0 ? 'web-dist' : 'compare'} |` : ''} ` +
            `${ms(median)} | ${ms(quantile(paint, 0.9))} | ${TARGET_MS} (${median <= TARGET_MS ? 'met' : 'not met'}) | ` +
            `${ms(quantile(dom, 0.5))} | ${ms(quantile(appPaint, 0.5))} | ${ms(quantile(all, 0.5))} | ` +
            `${paint.map(ms).join(', ')} |`,
        );
        if (args.waterfall) {
          const medianRun = runs.find((result) => result.paintMs === median);
          console.log(
            `\n${spec.path} ${mode}${builds.length > 1 ? ` (${build.name})` : ''}, run at the median ` +
              `(ms after start; first card ${ms(medianRun?.paintMs ?? 0)}):`,
          );
          for (const request of medianRun?.requests ?? []) {
            console.log(
              `  ${ms(request.start).padStart(5)} - ${ms(request.end).padStart(5)}  ${String(request.bytes).padStart(7)} B  ${request.name}`,
            );
          }
        }
      }
    }
  }
  const buildColumn = builds.length > 1 ? [' build |', ' ----- |'] : ['', ''];
  console.log(
    `\n${RUNS} runs each; ms from navigation start (cold) or the menu click (warm) to the first card ` +
      "(the early view's or the app's, whichever painted first; the app's own in its column)",
  );
  console.log(
    `| page | mode |${buildColumn[0]} painted median | painted p90 | target (median) | in DOM median | app's card painted, median | all cards in DOM, median | painted, every run |`,
  );
  console.log(
    `| ---- | ---- |${buildColumn[1]} -------------- | ----------- | --------------- | ------------- | -------------------------- | ------------------------ | ------------------ |`,
  );
  for (const row of rows) console.log(row);
  console.log(`load average after: ${load()}`);
  console.log(`target: the first card painted within ${TARGET_MS} ms (issue 33), on a quiet machine`);
} finally {
  await browser?.close();
  await runtime.close();
  await fsp.rm(dataDir, { recursive: true, force: true });
}
process.exit(0);
