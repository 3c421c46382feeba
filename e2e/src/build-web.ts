import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export const WEB_ROOT = fileURLToPath(new URL('../../web/', import.meta.url));
export const WEB_VITE_CONFIG = path.join(WEB_ROOT, 'vite.config.ts');
/** The fingerprint `pnpm start` compares too (scripts/build-inputs.mjs): the web app's sources, hashed. */
const BUILD_INPUTS_SCRIPT = fileURLToPath(new URL('../../scripts/build-inputs.mjs', import.meta.url));
/** The browser tests' builds, one per fingerprint of the web app's sources. */
const BUILD_CACHE = fileURLToPath(new URL('../../node_modules/.cache/radar-e2e-web/', import.meta.url));
/** Builds of other sources kept besides the current one (another branch checked out, then back). */
const OLDER_BUILDS_KEPT = 2;

/**
 * Production build of web/ from the current sources into `outDir`, exactly as `vite build` would make
 * it. Vitest sets NODE_ENV=test, which would make Vite produce a development build (React's dev
 * runtime), so NODE_ENV is production for the duration of the build. Global setups run before any
 * test worker starts, so no other code sees the change.
 */
export async function buildWebApp(outDir: string): Promise<void> {
  const previousNodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: WEB_ROOT,
      configFile: WEB_VITE_CONFIG,
      mode: 'production',
      build: { outDir, emptyOutDir: true },
      logLevel: 'warn',
    });
  } finally {
    if (previousNodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previousNodeEnv;
  }
}

/**
 * The production build of the current sources, made only when no run before made one of the same
 * sources: a build of the same fingerprint is the same app (CI's second mode and reruns build nothing,
 * about 6 CPU-seconds and 10 s before the first test). A build is written beside the cache's entries
 * and renamed into place whole, so a run never reads half a build.
 */
export async function currentWebBuild(): Promise<string> {
  const fingerprint = execFileSync(process.execPath, [BUILD_INPUTS_SCRIPT, 'web'], { encoding: 'utf8' }).trim();
  const dir = path.join(BUILD_CACHE, fingerprint.slice(0, 24));
  if (await exists(path.join(dir, 'index.html'))) {
    // Touched, so the pruning below counts it as recent.
    const now = new Date();
    await fs.utimes(dir, now, now);
    return dir;
  }
  await fs.mkdir(BUILD_CACHE, { recursive: true });
  const building = await fs.mkdtemp(path.join(BUILD_CACHE, 'building-'));
  try {
    await buildWebApp(building);
    await fs.rename(building, dir);
  } catch (error) {
    await fs.rm(building, { recursive: true, force: true });
    // Another run of the same sources renamed its build into place first: that one serves.
    if (!(await exists(path.join(dir, 'index.html')))) throw error;
  }
  await pruneOlderBuilds(dir);
  return dir;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** Keeps the newest few builds of other sources; builds still being written are left alone. */
async function pruneOlderBuilds(current: string): Promise<void> {
  const entries = await fs.readdir(BUILD_CACHE, { withFileTypes: true });
  const others = await Promise.all(
    entries
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('building-'))
      .map((entry) => path.join(BUILD_CACHE, entry.name))
      .filter((dir) => dir !== current)
      .map(async (dir) => ({ dir, mtime: (await fs.stat(dir)).mtimeMs })),
  );
  others.sort((a, b) => b.mtime - a.mtime);
  for (const { dir } of others.slice(OLDER_BUILDS_KEPT)) await fs.rm(dir, { recursive: true, force: true });
}
