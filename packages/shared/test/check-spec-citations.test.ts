import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** scripts/check-spec-citations.mjs (run by `pnpm lint`) on a small tree with a citation in code and in docs. */

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SCRIPT = path.join(REPO_ROOT, 'scripts/check-spec-citations.mjs');
const run = promisify(execFile);
// Built from parts, so this file does not cite anything itself.
const SECTION = ['sec', 'tion'].join('');
const PARAGRAPH = String.fromCodePoint(0xa7);

async function check(root: string): Promise<{ code: number; lines: string[] }> {
  try {
    const { stdout } = await run(process.execPath, [SCRIPT, root], { cwd: REPO_ROOT });
    return { code: 0, lines: stdout.split('\n').filter(Boolean) };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, lines: failed.stdout.split('\n').filter(Boolean) };
  }
}

let tree: string;

async function write(file: string, content: string) {
  const full = path.join(tree, file);
  await fs.mkdir(path.dirname(full), { recursive: true });
  await fs.writeFile(full, content);
}

beforeAll(async () => {
  tree = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-citations-'));
  await write('web/src/page.ts', `/** The menu (spec ${SECTION} 2). */\nexport const a = 1;\n`);
  await write('docs/notes.md', `# Notes\n\nAs ${SECTION}s ${4} and 9 say.\nSee ${PARAGRAPH} ${3}.\n`);
  // Rules stated, a section without a number, and third-party fixture data are fine.
  await write(
    'server/src/ok.ts',
    '/** An empty page past the last one is asked again from page 1. */\n// A section of the page.\n',
  );
  await write('packages/ingest/test/fixtures/abstract.md', `In ${SECTION} 3 we prove it.\n`);
  await write('node_modules/x/index.js', `// ${SECTION} 1\n`);
});

afterAll(async () => {
  await fs.rm(tree, { recursive: true, force: true });
});

describe('check-spec-citations', () => {
  it('prints each citation with file and line, and exits 1', async () => {
    const { code, lines } = await check(tree);
    expect(code).toBe(1);
    expect(lines.slice(0, -1).sort()).toEqual([
      `docs/notes.md:3: As ${SECTION}s ${4} and 9 say.`,
      `docs/notes.md:4: See ${PARAGRAPH} ${3}.`,
      `web/src/page.ts:1: /** The menu (spec ${SECTION} 2). */`,
    ]);
    expect(lines.at(-1)).toMatch(/^3 citations of a section of a document outside the repository/);
  });

  it('passes on this repository', async () => {
    expect(await check(REPO_ROOT)).toEqual({ code: 0, lines: [] });
  });
});
