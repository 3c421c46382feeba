import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'cli',
    include: ['test/**/*.test.ts'],
    // Unit tests (*.unit.test.ts) touch no database or queue: they run once, in the embedded mode. So do
    // the ingestion commands' tests, which always use an embedded DATA_DIR of their own (the test run's
    // database settings never reach them): the PostgreSQL mode only repeated them (about 25 CPU-seconds).
    exclude: process.env.TEST_DATABASE_URL
      ? [...configDefaults.exclude, 'test/**/*.unit.test.ts', 'test/ingest-cli.test.ts']
      : configDefaults.exclude,
    // Files share worker processes instead of a fresh process each (no re-import of the whole module
    // graph per file, the largest CPU cost after the databases). Each file still gets its own database,
    // servers and queue prefix and closes them in afterAll: only loaded modules are shared.
    isolate: false,
    // Bundles the processes once per run: the tests that start the server or CLI as processes run the bundles.
    globalSetup: [fileURLToPath(new URL('../../scripts/test-dist-setup.mjs', import.meta.url))],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
