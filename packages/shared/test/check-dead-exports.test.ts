import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchTree, runLintScript, type ScratchTree } from './helpers/script-tree';

/** scripts/check-dead-exports.mjs (run by `pnpm lint`) on a small workspace with one finding of each kind. */

const check = (root: string) => runLintScript('check-dead-exports.mjs', root);

let scratch: ScratchTree;

const write = (file: string, content: string | object) => scratch.write(file, content);

beforeAll(async () => {
  scratch = await createScratchTree('radar-dead-exports-');
  await write('packages/util/package.json', {
    name: '@radar/util',
    exports: { '.': './src/index.ts', './testing': './src/testing/index.ts' },
  });
  await write('server/package.json', { name: '@radar/server' });
  await write(
    'packages/util/src/index.ts',
    "export { alsoUsed, configure, used, unusedReexport } from './text';\nexport * from './store';\nexport * from './numbers';\n",
  );
  await write(
    'packages/util/src/text.ts',
    [
      'export function used() { return helper(); }',
      'export function helper() { return 1; }', // used only in its own file
      'export function unusedReexport() { return 2; }', // re-exported by index.ts, imported by nobody
      'export function dead() { return 3; }', // nobody
      'export function testedHelper() { return 4; }', // its own file uses it and its test imports it
      'export const alsoUsed = testedHelper();',
      'export interface Options { a: number }', // a type its own file uses
      'export function configure(options: Options) { return options; }',
      '',
    ].join('\n'),
  );
  await write(
    'packages/util/src/store.ts',
    [
      'export class Store {',
      '  read() { return 1; }',
      '  unusedMethod() { return 2; }', // appears nowhere else
      '  testOnly() { return 3; }', // only a test calls it
      '}',
      '',
    ].join('\n'),
  );
  await write('packages/util/src/numbers.ts', 'export const ONE = 1;\nexport const TWO = 2;\n');
  await write('packages/util/src/testing/index.ts', 'export function fixture() { return 1; }\n');
  await write(
    'packages/util/test/text.test.ts',
    "import { fixture } from '@radar/util/testing';\nimport { testedHelper, dead } from '../src/text';\nimport { Store } from '../src/store';\nnew Store().testOnly();\n",
  );
  await write(
    'server/src/app.ts',
    "import { used, Store, ONE, alsoUsed, configure } from '@radar/util';\nimport * as lazy from './lazy';\nused(); new Store().read();\n",
  );
  await write('server/src/lazy.ts', 'export const viaNamespace = 1;\n');
  await write('server/src/routes.ts', "export const loaded = () => import('./page');\n");
  await write('server/src/page.ts', 'export default function page() {}\n');
});

afterAll(async () => {
  await scratch.remove();
});

describe('check-dead-exports', () => {
  // Starts node with TypeScript loaded: seconds on a busy machine, not the default 5.
  it('prints each finding on one line with file, line, name and what to do, and exits 1', {
    timeout: 30_000,
  }, async () => {
    const { code, lines } = await check(scratch.root);
    expect(code).toBe(1);
    expect(lines).toEqual([
      'packages/util/src/index.ts:1: unusedReexport: nothing imports it through this re-export: remove the re-export',
      'packages/util/src/numbers.ts:2: TWO: used nowhere: delete it',
      'packages/util/src/store.ts:3: Store.unusedMethod: used nowhere: delete it',
      'packages/util/src/store.ts:4: Store.testOnly: only tests use it: delete it with its tests (or move it under src/testing/ if it is a test helper)',
      'packages/util/src/text.ts:2: helper: used only in its own file: drop `export`',
      // The re-export nobody imports through keeps nothing alive.
      'packages/util/src/text.ts:3: unusedReexport: used nowhere: delete it',
      'packages/util/src/text.ts:4: dead: only tests use it: delete it with its tests (or move it under src/testing/ if it is a test helper)',
      'server/src/routes.ts:1: loaded: used nowhere: delete it',
      '8 dead exports (rules: scripts/check-dead-exports.mjs)',
    ]);
  });
});
