#!/usr/bin/env node
/**
 * Import boundaries of the workspace (run by `pnpm lint`; docs/decisions.md, "Runtime and layout"):
 *
 * - app-import:            nothing imports @radar/server or @radar/worker (entry points, not libraries);
 *                          e2e/ may import @radar/server, whose app it drives.
 * - relative-import:       a relative import stays inside its own folder: packages/<name>/, server/,
 *                          worker/, web/, e2e/, scripts/. Other code is reached through its package name,
 *                          so server/ and worker/ never import each other and packages never import either.
 *                          bench/ (benchmarks, no package of its own) may import packages/ and server/ by path.
 * - undeclared-dependency: every @radar/* import is in that package's dependencies (devDependencies
 *                          will do for tests: test/, *.test.*, src/testing/, vite and vitest configs).
 * - package-cycle:         the @radar packages' dependencies have no cycle.
 *
 * Prints one line per violation (file:line: rule: what) and exits 1; exits 0 when there is none.
 * `node scripts/check-architecture.mjs [root]` checks another tree (the self-test does).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'data', 'coverage', '.git']);
/** Folders of code that is not a workspace package: relative imports stay inside, except as allowed here. */
const LOOSE_FOLDERS = { scripts: [], bench: ['packages', 'server'] };

const toPosix = (file) => file.split(path.sep).join('/');
const rel = (file) => toPosix(path.relative(root, file));

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The workspace packages: packages/* plus the app folders, each with its package.json. */
function findPackages() {
  const dirs = [];
  const packagesDir = path.join(root, 'packages');
  if (fs.existsSync(packagesDir)) {
    for (const entry of fs.readdirSync(packagesDir, { withFileTypes: true })) {
      if (entry.isDirectory()) dirs.push(path.join(packagesDir, entry.name));
    }
  }
  for (const app of ['server', 'worker', 'web', 'e2e']) dirs.push(path.join(root, app));
  return dirs
    .filter((dir) => fs.existsSync(path.join(dir, 'package.json')))
    .map((dir) => {
      const manifestFile = path.join(dir, 'package.json');
      const manifest = readJson(manifestFile);
      return {
        dir,
        name: manifest.name,
        manifestFile,
        manifestText: fs.readFileSync(manifestFile, 'utf8'),
        dependencies: new Set(Object.keys(manifest.dependencies ?? {})),
        devDependencies: new Set(Object.keys(manifest.devDependencies ?? {})),
      };
    });
}

function* sourceFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // Test fixtures are data in other formats, never code of ours.
      if (entry.name === 'fixtures') continue;
      yield* sourceFiles(full);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      yield full;
    }
  }
}

/** Import, export-from, import(), require() specifiers with their line, comments and strings excluded. */
function importsOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (pos) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid] <= pos) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((ref) => ({ specifier: ref.fileName, line: lineOf(ref.pos) }));
}

const isDevFile = (relInPackage) =>
  /(^|\/)test\//.test(relInPackage) ||
  /\.(test|spec)\.[^/]+$/.test(relInPackage) ||
  relInPackage.startsWith('src/testing/') ||
  /^(vite|vitest)\.config\.[^/]+$/.test(relInPackage);

/** `@radar/db/testing` -> `@radar/db`. */
const packageNameOf = (specifier) => specifier.split('/').slice(0, 2).join('/');

const violations = [];
const report = (file, line, rule, message) => violations.push(`${rel(file)}:${line}: ${rule}: ${message}`);

const packages = findPackages();
const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));
const topFolder = (file) => rel(file).split('/')[0];

function checkRelative(file, line, specifier, ownDir, looseAllowed) {
  const target = path.resolve(path.dirname(file), specifier);
  if (!toPosix(path.relative(ownDir, target)).startsWith('../')) return;
  const targetTop = toPosix(path.relative(root, target)).split('/')[0];
  if (looseAllowed?.includes(targetTop)) return;
  const owner = packages.find((pkg) => !toPosix(path.relative(pkg.dir, target)).startsWith('../'));
  const entryPoint = owner && (owner.name === '@radar/server' || owner.name === '@radar/worker');
  const hint = !owner
    ? 'it is outside every package'
    : entryPoint
      ? `${rel(owner.dir)}/ is an entry point: move the code into a package`
      : `import ${owner.name} instead`;
  report(file, line, 'relative-import', `'${specifier}' leaves ${rel(ownDir)}/ (${hint})`);
}

for (const pkg of packages) {
  for (const file of sourceFiles(pkg.dir)) {
    const relInPackage = toPosix(path.relative(pkg.dir, file));
    for (const { specifier, line } of importsOf(file)) {
      if (specifier.startsWith('.')) {
        checkRelative(file, line, specifier, pkg.dir);
        continue;
      }
      if (!specifier.startsWith('@radar/')) continue;
      const name = packageNameOf(specifier);
      if (name === pkg.name) continue; // a package may import itself through its exports
      if (name === '@radar/worker' || (name === '@radar/server' && pkg.name !== '@radar/e2e')) {
        report(file, line, 'app-import', `${pkg.name} imports ${name}, an entry point (move the code into a package)`);
        continue;
      }
      if (!byName.has(name)) {
        report(file, line, 'undeclared-dependency', `${name} is not a workspace package`);
      } else if (!pkg.dependencies.has(name) && !(isDevFile(relInPackage) && pkg.devDependencies.has(name))) {
        const where = isDevFile(relInPackage) ? 'dependencies or devDependencies' : 'dependencies';
        report(file, line, 'undeclared-dependency', `${name} is not in the ${where} of ${rel(pkg.manifestFile)}`);
      }
    }
  }
}

for (const [folder, allowed] of Object.entries(LOOSE_FOLDERS)) {
  const dir = path.join(root, folder);
  if (!fs.existsSync(dir)) continue;
  for (const file of sourceFiles(dir)) {
    for (const { specifier, line } of importsOf(file)) {
      if (specifier.startsWith('.')) checkRelative(file, line, specifier, dir, allowed);
      else if (/^@radar\/(server|worker)(\/|$)/.test(specifier)) {
        report(file, line, 'app-import', `${topFolder(file)}/ imports ${packageNameOf(specifier)}, an entry point`);
      }
    }
  }
}

// Cycles among the declared @radar dependencies (a depth-first search; each cycle reported once).
const edges = new Map(
  packages.map((pkg) => [
    pkg.name,
    [...pkg.dependencies, ...pkg.devDependencies].filter((dep) => byName.has(dep) && dep !== pkg.name),
  ]),
);
const state = new Map();
const seenCycles = new Set();
function visit(name, trail) {
  state.set(name, 'open');
  for (const dep of edges.get(name) ?? []) {
    if (state.get(dep) === 'open') {
      const cycle = [...trail.slice(trail.indexOf(dep)), dep];
      const key = [...cycle.slice(0, -1)].sort().join(' ');
      if (seenCycles.has(key)) continue;
      seenCycles.add(key);
      const from = byName.get(name);
      const line = from.manifestText.slice(0, from.manifestText.indexOf(`"${dep}"`)).split('\n').length;
      report(from.manifestFile, line, 'package-cycle', cycle.join(' -> '));
    } else if (!state.has(dep)) {
      visit(dep, [...trail, dep]);
    }
  }
  state.set(name, 'done');
}
for (const pkg of [...packages].sort((a, b) => a.name.localeCompare(b.name))) {
  if (!state.has(pkg.name)) visit(pkg.name, [pkg.name]);
}

for (const violation of violations) process.stdout.write(`${violation}\n`);
if (violations.length) {
  process.stdout.write(
    `${violations.length} import-boundary violation${violations.length === 1 ? '' : 's'} (rules: scripts/check-architecture.mjs)\n`,
  );
  process.exitCode = 1;
}
