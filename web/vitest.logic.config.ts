import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The web app's pure logic (*.test.ts: Node environment, no screen), in the embedded mode only (it
 * touches no database, like the screens of vitest.config.ts). The files share worker processes instead of
 * a process each: 36 files took about 50 CPU-seconds with a process each and 13 sharing them
 * (docs/benchmarks.md, "Test suite time"). A file that replaces a global (api-client's localStorage)
 * restores it after its tests.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { tsconfigPaths: true },
  test: {
    name: 'web-logic',
    environment: 'node',
    include: process.env.TEST_DATABASE_URL ? [] : ['src/**/*.test.ts'],
    passWithNoTests: true,
    isolate: false,
  },
});
