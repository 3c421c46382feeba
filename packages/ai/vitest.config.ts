import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'ai',
    // Only the model registry touches the database; the other files (embedders, adapters against local
    // HTTP servers, learning, reasons, the dev-set checks) are the same in both modes, so they run in the
    // embedded one only (the root vitest.config.ts does the same for the web app).
    include: process.env.TEST_DATABASE_URL ? ['test/embedding-models.test.ts'] : ['test/**/*.test.ts'],
    // Files share worker processes instead of a fresh process each (no re-import of the whole module
    // graph per file, the largest CPU cost after the databases). Each file still gets its own database,
    // servers and queue prefix and closes them in afterAll: only loaded modules are shared.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
