import os from 'node:os';
import { defineConfig } from 'vitest/config';

/*
 * One run over every package (pnpm test). Each project has its own vitest.config.ts. Tests that touch no
 * database or queue run in one of the two modes only, chosen by their project's config to keep each mode
 * within its time budget (docs/benchmarks.md, "Test suite time"): the web app's component tests (most in
 * the embedded mode, the heaviest screens with TEST_DATABASE_URL) and most of packages/ai (embedded).
 */
export default defineConfig({
  test: {
    // web/: the screens (vitest.config.ts) and the pure logic (vitest.logic.config.ts, files sharing processes).
    projects: ['packages/*', 'server', 'worker', 'web', 'web/vitest.logic.config.ts', 'e2e'],
    // One test file more than there are cores: many files spend much of their time waiting (on
    // PostgreSQL, Redis, child processes, Chromium), and the extra file keeps the cores busy meanwhile.
    // Vitest's default (cores - 1) ran one file at a time on a 2-core machine; two extra files were no
    // faster than one (docs/benchmarks.md, "Test suite time"). Projects run together must share the value.
    maxWorkers: os.availableParallelism() + 1,
  },
});
