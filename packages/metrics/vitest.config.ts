import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'metrics',
    include: ['test/**/*.test.ts'],
    // Files share worker processes (no re-import of the module graph per file): nothing in them outlives
    // the file but loaded modules (the fast loop runs the unit tests the same way).
    isolate: false,
    // Unit tests (*.unit.test.ts) touch no database or queue: they run once, in the embedded mode.
    exclude: process.env.TEST_DATABASE_URL
      ? [...configDefaults.exclude, 'test/**/*.unit.test.ts']
      : configDefaults.exclude,
  },
});
