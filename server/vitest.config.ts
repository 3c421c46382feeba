import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    // A feature's tests live beside it (src/features/<name>/*.test.ts); test/ holds the tests of the whole
    // app (contracts, limits, processes, logs) and the helpers every test uses (test-runtime.ts, smtp-sink.ts).
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The unit tests (*.unit.test.ts: services over in-memory repositories) touch no database or queue,
    // so they run in the embedded mode only, as every package's do.
    exclude: process.env.TEST_DATABASE_URL ? [...configDefaults.exclude, '**/*.unit.test.ts'] : configDefaults.exclude,
    // Files share worker processes instead of a fresh process each (no re-import of the whole module
    // graph per file, the largest CPU cost after the databases). Each file still gets its own database,
    // servers and queue prefix and closes them in afterAll: only loaded modules are shared.
    isolate: false,
    // Bundles the processes once per run: the tests that start the server or CLI as processes run the bundles.
    globalSetup: [fileURLToPath(new URL('../scripts/test-dist-setup.mjs', import.meta.url))],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
