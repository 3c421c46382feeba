import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Pure logic only (api client, formatters); screens are covered by the browser tests in e2e/.
export default defineConfig({
  // Explicit so `vitest --config web/vitest.config.ts` from the repository root finds web/src.
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { tsconfigPaths: true },
  test: {
    name: 'web',
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
