import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

/** Test helpers for tests that start the processes operators run (server, worker, CLI). */

declare module 'vitest' {
  export interface ProvidedContext {
    /** The processes bundled once for this run (scripts/test-dist-setup.mjs), when the project builds them. */
    radarDistDir?: string;
  }
}

const REPO_ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

/** The sources `pnpm start`, `pnpm worker` and `pnpm radar` run. */
const PROCESS_SOURCES = {
  server: path.join(REPO_ROOT, 'server/src/main.ts'),
  worker: path.join(REPO_ROOT, 'worker/src/main.ts'),
  cli: path.join(REPO_ROOT, 'packages/cli/src/main.ts'),
} as const;

/**
 * The arguments of `node` that run one of the processes: its bundle of this run when the project's global
 * setup built one (the same code, compiled once instead of on every start), else its sources through tsx.
 */
export function radarProcessArgs(name: keyof typeof PROCESS_SOURCES): string[] {
  const distDir = inject('radarDistDir');
  return distDir ? [path.join(distDir, `${name}.js`)] : ['--import', 'tsx', PROCESS_SOURCES[name]];
}
