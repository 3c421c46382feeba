import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { assertChromiumInstalled } from './browser';
import { buildWebApp } from './build-web';
import { WEB_DIST_DIR_KEY } from './provided-context';

/**
 * Runs once per `vitest run` that includes e2e tests: checks the browser first (fails fast), builds the
 * web app from the current sources into a temp directory, and provides its path to the test files.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  assertChromiumInstalled();
  const outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-e2e-web-'));
  const removeOutDir = () => fs.rm(outDir, { recursive: true, force: true });
  try {
    await buildWebApp(outDir);
  } catch (error) {
    await removeOutDir();
    throw error;
  }
  project.provide(WEB_DIST_DIR_KEY, outDir);
  return removeOutDir;
}
