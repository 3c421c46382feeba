import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'worker',
    include: ['test/**/*.test.ts'],
    // Bundles the processes once per run (the worker-process test starts the worker, on PostgreSQL only).
    globalSetup: process.env.TEST_DATABASE_URL
      ? [fileURLToPath(new URL('../scripts/test-dist-setup.mjs', import.meta.url))]
      : [],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
