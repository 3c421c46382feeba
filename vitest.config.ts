import os from 'node:os';
import { defineConfig } from 'vitest/config';

/*
 * One run over every package (pnpm test). Each project has its own vitest.config.ts. The web app's
 * component tests never touch a database or queue (they run against a fake API server), so they run in
 * the embedded mode only, the one `pnpm test` runs by default: with TEST_DATABASE_URL set they would
 * repeat themselves and cost the PostgreSQL mode its time budget (docs/benchmarks.md, "Test suite time").
 */
const databaseFreeProjects = ['web'];

export default defineConfig({
  test: {
    projects: ['packages/*', 'server', 'worker', 'web', 'e2e'].filter(
      (project) => !(process.env.TEST_DATABASE_URL && databaseFreeProjects.includes(project)),
    ),
    // One test file more than there are cores: many files spend much of their time waiting (on
    // PostgreSQL, Redis, child processes, Chromium), and the extra file keeps the cores busy meanwhile.
    // Vitest's default (cores - 1) ran one file at a time on a 2-core machine; two extra files were no
    // faster than one (docs/benchmarks.md, "Test suite time"). Projects run together must share the value.
    maxWorkers: os.availableParallelism() + 1,
  },
});
