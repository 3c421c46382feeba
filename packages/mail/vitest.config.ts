import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'mail',
    include: ['test/**/*.test.ts'],
    // Unit tests (*.unit.test.ts) touch no database or queue: they run once, in the embedded mode.
    exclude: process.env.TEST_DATABASE_URL
      ? [...configDefaults.exclude, 'test/**/*.unit.test.ts']
      : configDefaults.exclude,
  },
});
