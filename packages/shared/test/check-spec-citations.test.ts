import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchTree, runLintScript, type ScratchTree } from './helpers/script-tree';

/** scripts/check-spec-citations.mjs (run by `pnpm lint`) on a small tree with a citation in code and in docs. */

// Built from parts, so this file does not cite anything itself.
const SECTION = ['sec', 'tion'].join('');
const PARAGRAPH = String.fromCodePoint(0xa7);

const check = (root: string) => runLintScript('check-spec-citations.mjs', root);

let scratch: ScratchTree;

const write = (file: string, content: string | object) => scratch.write(file, content);

beforeAll(async () => {
  scratch = await createScratchTree('radar-citations-');
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
  await scratch.remove();
});

describe('check-spec-citations', () => {
  it('prints each citation with file and line, and exits 1', async () => {
    const { code, lines } = await check(scratch.root);
    expect(code).toBe(1);
    expect(lines.slice(0, -1).sort()).toEqual([
      `docs/notes.md:3: As ${SECTION}s ${4} and 9 say.`,
      `docs/notes.md:4: See ${PARAGRAPH} ${3}.`,
      `web/src/page.ts:1: /** The menu (spec ${SECTION} 2). */`,
    ]);
    expect(lines.at(-1)).toMatch(/^3 citations of a section of a document outside the repository/);
  });
});
