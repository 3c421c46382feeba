#!/usr/bin/env node
/**
 * No citations of a document outside the repository (run by `pnpm lint`): the product spec the code was
 * written from is not in the repository, so "spec section N" tells a reader nothing. A comment or a doc
 * states the rule it implements instead ("an empty page past the last one is asked again from page 1").
 *
 * Flags "section" or "sections" followed by a number, and "§" followed by one, in the source and docs of
 * the repository (code, Markdown, YAML); test fixtures (third-party data) and generated or installed
 * folders are skipped.
 *
 * Prints one line per citation (file:line: the text) and exits 1; exits 0 when there is none.
 * `node scripts/check-spec-citations.mjs [root]` checks another tree (the self-test does).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const CHECKED = /\.(?:[cm]?[jt]s|[jt]sx|md|ya?ml)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'data', 'coverage', '.git', 'fixtures', 'artifacts']);
const CITATION = /\bsections?\s+\d|§\s*\d/i;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (CHECKED.test(entry.name)) yield full;
  }
}

const findings = [];
for (const file of files(root)) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, index) => {
    if (CITATION.test(line)) {
      const where = path.relative(root, file).split(path.sep).join('/');
      findings.push(`${where}:${index + 1}: ${line.trim()}`);
    }
  });
}

for (const finding of findings) process.stdout.write(`${finding}\n`);
if (findings.length) {
  process.stdout.write(
    `${findings.length} citation${findings.length === 1 ? '' : 's'} of a section of a document outside the repository: state the rule instead (scripts/check-spec-citations.mjs)\n`,
  );
  process.exitCode = 1;
}
