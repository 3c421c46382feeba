import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The repository's root, where the lint scripts live. The tests run them on scratch trees only: the
 * repository itself is `pnpm lint`'s to check (CI runs it before the tests), not scanned again here.
 */
const REPO_ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const run = promisify(execFile);

/**
 * Runs one of the `pnpm lint` scripts (scripts/<script>, which take the tree to check as their argument)
 * on a tree: its exit code and its non-empty output lines.
 */
export async function runLintScript(script: string, root: string): Promise<{ code: number; lines: string[] }> {
  try {
    const { stdout } = await run(process.execPath, [path.join(REPO_ROOT, 'scripts', script), root], { cwd: REPO_ROOT });
    return { code: 0, lines: stdout.split('\n').filter(Boolean) };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, lines: failed.stdout.split('\n').filter(Boolean) };
  }
}

/** A throwaway source tree to write files into (objects are written as JSON). */
export interface ScratchTree {
  root: string;
  write(file: string, content: string | object): Promise<void>;
  remove(): Promise<void>;
}

export async function createScratchTree(prefix: string): Promise<ScratchTree> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  return {
    root,
    async write(file, content) {
      const full = path.join(root, file);
      await fs.mkdir(path.dirname(full), { recursive: true });
      await fs.writeFile(full, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    },
    remove: () => fs.rm(root, { recursive: true, force: true }),
  };
}
