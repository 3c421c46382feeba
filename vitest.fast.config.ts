import os from 'node:os';
import { defineConfig } from 'vitest/config';

/*
 * `pnpm test:fast`: the fast loop. Unit tests only: the packages' *.unit.test.ts (pure logic, no database,
 * queue, process or browser; `pnpm lint` checks their imports), the server's services over in-memory
 * repositories (server/src/**.unit.test.ts) and the web app's logic (web/src/**.test.ts).
 * A change is then checked by `pnpm test`, which runs these too, with the database, process, screen and
 * browser tests in both modes.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/test/**/*.unit.test.ts',
            'server/src/**/*.unit.test.ts',
            'server/test/**/*.unit.test.ts',
            'worker/test/**/*.unit.test.ts',
          ],
          // Files share worker processes: nothing in a unit test outlives it but loaded modules.
          isolate: false,
          // A cold first import of the Chinese dictionaries takes seconds on a busy machine.
          testTimeout: 30_000,
        },
      },
      'web/vitest.logic.config.ts',
    ],
    maxWorkers: os.availableParallelism(),
  },
});
