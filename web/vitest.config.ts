import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The web app's tests never touch a database, so each file runs in one of `pnpm test`'s two modes: these
 * screens (the heaviest) when TEST_DATABASE_URL is set, every other screen in the embedded mode, which
 * keeps both modes within their time budget (docs/benchmarks.md, "Test suite time"). The pure logic
 * (*.test.ts) is the `web-logic` project (vitest.logic.config.ts).
 */
const IN_POSTGRES_MODE = [
  'src/app/spec-only-answers.test.tsx',
  'src/features/auth/pages/auth-pages.test.tsx',
  'src/features/research-profile/components/research-profile-section.test.tsx',
  'src/features/paper-recommendations/pages/papers-page.test.tsx',
  'src/features/news-recommendations/pages/news-page.test.tsx',
  'src/features/contact/pages/contact-page.test.tsx',
];

// Screens (*.test.tsx, happy-dom via a docblock in each file) rendered with the real route table against
// a fake API server on 127.0.0.1 (src/testing/). The files share worker processes (`isolate: false`): a
// process of its own cost each file 3-5 CPU-seconds of loading React, MUI and the app again. Vitest keeps
// one happy-dom window per worker, so src/testing/screen-file-setup.ts puts back before each file what a
// page load starts with (document, URL, storage, cookies, timers, the app's module state);
// docs/decisions/architecture.md, "Screen tests share worker processes".
export default defineConfig({
  // Explicit so `vitest --config web/vitest.config.ts` from the repository root finds web/src.
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { tsconfigPaths: true },
  test: {
    name: 'web',
    environment: 'node',
    include: process.env.TEST_DATABASE_URL ? IN_POSTGRES_MODE : ['src/**/*.test.tsx'],
    exclude: process.env.TEST_DATABASE_URL ? configDefaults.exclude : [...configDefaults.exclude, ...IN_POSTGRES_MODE],
    // A screen test's first render transforms the page's lazy chunks and MUI; on a busy 2-core machine
    // that alone can take several seconds; a test holds several waits of up to 15 s each (render-app.tsx).
    testTimeout: 45_000,
    isolate: false,
    setupFiles: ['src/testing/screen-file-setup.ts'],
  },
});
