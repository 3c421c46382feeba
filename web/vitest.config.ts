import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Pure logic (*.test.ts, Node environment) and screens (*.test.tsx, happy-dom via a docblock in each
// file) rendered with the real route table against a fake API server on 127.0.0.1 (src/testing/).
export default defineConfig({
  // Explicit so `vitest --config web/vitest.config.ts` from the repository root finds web/src.
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { tsconfigPaths: true },
  test: {
    name: 'web',
    environment: 'node',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    // A screen test's first render transforms the page's lazy chunks and MUI; on a busy 2-core machine
    // that alone can take several seconds.
    testTimeout: 20_000,
  },
});
