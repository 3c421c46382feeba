import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The PostgreSQL mode runs the projects whose files take longest first: the browser tests, worker-process
 * and the heaviest web screens, which vitest's own order (alphabetical by project) left running alone at
 * the end of the run (248 s against 225 s on a quiet 2-core machine, docs/benchmarks.md). The embedded mode
 * keeps vitest's order: its web project is 50-odd short component files, and moving its longest projects
 * first measured no faster (206 s alphabetical, 213 s reordered). Within a project the order stays vitest's:
 * longest first from its results cache, else largest file first (a fresh clone, as in CI). Projects not
 * listed follow, alphabetically.
 */
const PROJECTS_LONGEST_FIRST = process.env.TEST_DATABASE_URL
  ? ['e2e', 'worker', 'web', 'server', 'jobs', 'cli', 'ingest', 'ai', 'db']
  : [];

class LongestProjectsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = PROJECTS_LONGEST_FIRST.indexOf(file.project.name);
      return index === -1 ? PROJECTS_LONGEST_FIRST.length : index;
    };
    // Array.prototype.sort is stable: vitest's order holds within each project.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

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
    sequence: { sequencer: LongestProjectsFirst },
  },
});
