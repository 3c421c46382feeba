import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests: Debian's chromium (playwright-core) against the real server and a fresh build of web/.
export default defineConfig({
  test: {
    name: 'e2e',
    // The browser tests exercise the web app against the API, which is the same in both modes (the
    // server's own tests run in both). Each runs in one mode: the first-session journey in the embedded
    // mode, as `pnpm start` runs (and again on PostgreSQL + Redis); every other browser test only with
    // TEST_DATABASE_URL set (CI's PostgreSQL + Redis run), where a server costs about 2.5 times less CPU
    // than on in-process PGlite. That keeps each mode of `pnpm test` within its time budget
    // (docs/benchmarks.md, "Test suite time").
    include: process.env.TEST_DATABASE_URL ? ['test/**/*.test.ts'] : ['test/journey.test.ts'],
    // Files share worker processes instead of a fresh process each (no re-import of the whole module
    // graph per file, the largest CPU cost after the databases). Each file still gets its own database,
    // servers and queue prefix and closes them in afterAll: only loaded modules are shared.
    isolate: false,
    // Builds web/ once per run into a temp directory and provides it to the tests (inject('webDistDir')).
    globalSetup: [fileURLToPath(new URL('./src/global-setup.ts', import.meta.url))],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
