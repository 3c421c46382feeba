import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'db',
    include: ['test/**/*.test.ts'],
    // PGlite start-up and HNSW builds in WASM are slow on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
