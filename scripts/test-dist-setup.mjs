// Vitest global setup of the projects whose tests start the server, worker or CLI as processes of their
// own (server, worker, cli): bundles the three processes once per run with esbuild (scripts/build-dist.mjs)
// and provides the directory to the tests (`radarProcessArgs` in @radar/shared/testing). A bundled process
// starts on about 2 CPU-seconds, against about 5 for `node --import tsx` compiling the sources on each
// start (docs/benchmarks.md, "Test suite time"). The bundles live under node_modules/.cache, inside the
// checkout, so that their npm imports resolve (linked into their node_modules), and are removed after
// the run.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDist } from './build-dist.mjs';

const CACHE = fileURLToPath(new URL('../node_modules/.cache/radar-test-dist/', import.meta.url));

/**
 * One build per run for all projects: every project's global setup runs in Vitest's main process, each
 * possibly in its own module instance, so the build is kept on globalThis; the last teardown removes it.
 */
const SHARED = Symbol.for('radar.test-dist');

/** @param {import('vitest/node').TestProject} project */
export default async function setup(project) {
  /** @type {{ build: Promise<string>; users: number } | undefined} */
  let shared = globalThis[SHARED];
  if (!shared) {
    const build = (async () => {
      await fs.mkdir(CACHE, { recursive: true });
      const outDir = await fs.mkdtemp(path.join(CACHE, 'run-'));
      try {
        await buildDist(outDir, { linkDependencies: true, sourcemap: false });
      } catch (error) {
        await fs.rm(outDir, { recursive: true, force: true });
        throw error;
      }
      return outDir;
    })();
    shared = { build, users: 0 };
    globalThis[SHARED] = shared;
  }
  shared.users += 1;
  const outDir = await shared.build;
  project.provide('radarDistDir', outDir);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    globalThis[SHARED] = undefined;
    await fs.rm(outDir, { recursive: true, force: true });
  };
}
