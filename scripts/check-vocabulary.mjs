#!/usr/bin/env node
/**
 * One name per concept (run by `pnpm lint`): the words docs/vocabulary.md lists under "Words the code does
 * not use" may not appear in an identifier or a file name of the code. Identifiers are split into words
 * (camelCase, PascalCase, snake_case, kebab-case file names), so `refreshFavouriteVectors` has the word
 * "favourite" and `favoritesHelp` does not. Comments and strings are prose and free: the spec's
 * URLs and fields are strings, and a comment may say what a reader calls a thing.
 *
 * A row may name identifiers it allows (a stored or wire value spelled the other way, such as an enum
 * value used as an object key): those exact identifiers pass.
 *
 * Prints one line per finding (file:line: word -> the word to use: the identifier) and exits 1; exits 0
 * when there is none. `node scripts/check-vocabulary.mjs [root]` checks another tree (the self-test does).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'data', 'coverage', '.git', 'fixtures', 'artifacts']);
const TABLE_HEADING = '## Words the code does not use';
const allowedIdentifiers = new Set();

/**
 * The banned words of docs/vocabulary.md: rows `| word | use instead | allowed | why |` under TABLE_HEADING
 * (allowed: the exact identifiers in its code spans, or -).
 */
function bannedWords() {
  const doc = fs.readFileSync(path.join(root, 'docs', 'vocabulary.md'), 'utf8');
  const start = doc.indexOf(TABLE_HEADING);
  if (start < 0) throw new Error(`docs/vocabulary.md has no "${TABLE_HEADING}" section`);
  const rows = doc
    .slice(start)
    .split('\n')
    .slice(1)
    .filter((line) => line.startsWith('|'));
  const banned = new Map();
  for (const row of rows.slice(2)) {
    const [word, instead, allowed = ''] = row
      .split('|')
      .slice(1, 4)
      .map((cell) => cell.trim());
    if (word) banned.set(word.replace(/`/g, '').toLowerCase().trim(), instead.replace(/`/g, ''));
    // Only the identifiers in code spans; the rest of the cell says why they are allowed.
    for (const [, name] of allowed.matchAll(/`([^`]+)`/g)) allowedIdentifiers.add(name);
  }
  return banned;
}

/** `refreshFavouriteVectors` -> refresh, favourite, vectors; `user_article_states` -> user, article, states. */
const wordsOf = (name) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());

/**
 * The banned entry an identifier's words contain, if any. An entry is a word with its plural or verb endings
 * (favourite, favourites, favourited, favouriting) or a phrase of several words in a row whose last word takes
 * the endings ("research info" matches `hasResearchInfo` and `research-info-section`, not `researchFields`).
 */
function matcher(banned) {
  const entries = [...banned.keys()].map((entry) => {
    const words = entry.split(/\s+/);
    const last = words.pop();
    return { entry, words, last: new RegExp(`^${last}(s|es|d|ed|ing)?$`) };
  });
  return (identifierWords) =>
    entries.find(({ words, last }) =>
      identifierWords.some(
        (word, at) =>
          at >= words.length && last.test(word) && words.every((w, i) => identifierWords[at - words.length + i] === w),
      ),
    )?.entry;
}

function* sourceFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (SOURCE.test(entry.name)) yield full;
  }
}

const banned = bannedWords();
const bannedStem = matcher(banned);
const findings = [];
const rel = (file) => path.relative(root, file).split(path.sep).join('/');

for (const file of sourceFiles(root)) {
  const fileWord = bannedStem(wordsOf(path.basename(file).replace(SOURCE, '')));
  if (fileWord) findings.push(`${rel(file)}:1: ${fileWord} -> ${banned.get(fileWord)}: file name`);
  const text = fs.readFileSync(file, 'utf8');
  const kind = /\.[jt]sx$/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Set();
  const visit = (node) => {
    if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && !allowedIdentifiers.has(node.text)) {
      const name = node.text;
      const stem = bannedStem(wordsOf(name));
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      if (stem && !seen.has(`${line}:${name}`)) {
        seen.add(`${line}:${name}`);
        findings.push(`${rel(file)}:${line}: ${stem} -> ${banned.get(stem)}: ${name}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

if (findings.length) {
  process.stdout.write(`${findings.join('\n')}\n`);
  process.stdout.write(
    `${findings.length} identifier${findings.length === 1 ? '' : 's'} or file name${findings.length === 1 ? '' : 's'} with a word docs/vocabulary.md replaces\n`,
  );
  process.exit(1);
}
