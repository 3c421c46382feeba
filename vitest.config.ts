import { defineConfig } from 'vitest/config';

// One run over every package (pnpm test). Each project has its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*', 'server', 'worker', 'web', 'e2e'],
  },
});
