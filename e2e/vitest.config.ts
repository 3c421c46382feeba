import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests: Debian's chromium (playwright-core) against the real server and a fresh build of web/.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['test/**/*.test.ts'],
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
