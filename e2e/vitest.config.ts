import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Browser test files that run in the embedded mode only: the first-session journey and the first papers
 * of a fresh install (issue 19), as `pnpm start` runs them;
 * every other one runs with TEST_DATABASE_URL.
 */
const EMBEDDED_ONLY = ['test/journey.test.ts', 'test/first-papers.test.ts'];

// Browser tests: Debian's chromium (playwright-core) against the real server and a fresh build of web/.
export default defineConfig({
  test: {
    name: 'e2e',
    // The browser tests exercise the web app against the API, which is the same in both modes (the
    // server's own tests run in both), so each file runs in one mode, chosen to keep each mode of
    // `pnpm test` within its time budget (docs/benchmarks.md, "Test suite time"): a server on in-process
    // PGlite costs about twice the CPU of one on PostgreSQL.
    include: process.env.TEST_DATABASE_URL ? ['test/**/*.test.ts'] : EMBEDDED_ONLY,
    exclude: process.env.TEST_DATABASE_URL ? EMBEDDED_ONLY : [],
    // Files share worker processes instead of a fresh process each (no re-import of the whole module
    // graph per file, the largest CPU cost after the databases). Each file still gets its own database,
    // servers and queue prefix and closes them in afterAll: only loaded modules are shared.
    isolate: false,
    // Provides the tests with a production build of web/'s current sources (inject('webDistDir')), built
    // unless a run before built the same sources (src/build-web.ts).
    globalSetup: [fileURLToPath(new URL('./src/global-setup.ts', import.meta.url))],
    // Twice the browser waits (harness.ts): a test holds several of them.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // expect.poll waits on the page like a Playwright action does (harness.ts's 30 s), not vitest's 1 s:
    // a field's message after a blur came after more than a second once under a loaded PostgreSQL run.
    expect: { poll: { timeout: 30_000 } },
  },
});
