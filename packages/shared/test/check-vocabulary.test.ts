import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchTree, runLintScript, type ScratchTree } from './helpers/script-tree';

/**
 * scripts/check-vocabulary.mjs (run by `pnpm lint`) on a small tree: a banned word in identifiers and a
 * file name is reported, the same word in comments, strings and an allowed identifier is not.
 */

const check = (root: string) => runLintScript('check-vocabulary.mjs', root);

let scratch: ScratchTree;

beforeAll(async () => {
  scratch = await createScratchTree('radar-vocabulary-');
  await scratch.write(
    'docs/vocabulary.md',
    [
      '# Vocabulary',
      '',
      '## Words the code does not use',
      '',
      '| word | use instead | allowed | why |',
      '| --- | --- | --- | --- |',
      '| favourite | favorite | `favourites` (a stored value) | the API says favorite |',
      '| not interested | dismiss | `not_interested` (a wire field) | one name for 不感兴趣 |',
      '',
    ].join('\n'),
  );
  await scratch.write(
    'web/src/favourite-button.tsx',
    [
      '// A favourite is a toggle: comments are prose.',
      "const label = 'favourite';",
      'export function toggleFavourite(isFavourited: boolean) {',
      '  return { favourites: 1, label, isFavourited };',
      '}',
      '',
    ].join('\n'),
  );
  await scratch.write('server/src/ok.ts', 'export const favoriteCount = (favorites: number[]) => favorites.length;\n');
  // A phrase: its words in a row, the last with endings; one of its words alone is free.
  await scratch.write(
    'server/src/not-interested.ts',
    [
      'export const markNotInterested = (isInterested: boolean, notUsed: number) => ({ not_interested: true, isInterested, notUsed });',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await scratch.remove();
});

describe('check-vocabulary', () => {
  // Starts node with TypeScript loaded: seconds on a busy machine, not the default 5.
  it('reports banned words in identifiers and file names, not in comments, strings or allowed names', {
    timeout: 30_000,
  }, async () => {
    const { code, lines } = await check(scratch.root);
    expect(code).toBe(1);
    expect(lines).toEqual([
      'server/src/not-interested.ts:1: not interested -> dismiss: file name',
      'server/src/not-interested.ts:1: not interested -> dismiss: markNotInterested',
      'web/src/favourite-button.tsx:1: favourite -> favorite: file name',
      'web/src/favourite-button.tsx:3: favourite -> favorite: toggleFavourite',
      'web/src/favourite-button.tsx:3: favourite -> favorite: isFavourited',
      'web/src/favourite-button.tsx:4: favourite -> favorite: isFavourited',
      '6 identifiers or file names with a word docs/vocabulary.md replaces',
    ]);
  });
});
