import { defineConfig } from 'vitest/config';

// Pure logic only (api client, formatters); components are covered by the browser tests in e2e/.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    name: 'web',
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
