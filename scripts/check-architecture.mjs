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
 * - feature-import:        a feature folder (server/src/features/<name>/, web/src/features/<name>/) imports
 *                          no other feature folder; what two features share lives outside features/
 *                          (server: plugins/, security/, presenters/, services/, packages; web:
 *                          components/, hooks/, lib/, api/).
 * - repository-construction: repositories (`new XRepository(`, or a bundle of them: a call of a
 *                          `createXRepositories(` function such as @radar/db's createIngestRepositories)
 *                          are built only in the composition roots (REPOSITORY_ROOTS: the server's
 *                          runtime, the worker app and the start-up path it shares with the server, the
 *                          CLI's commands) and handed to the services and jobs that use them; tests,
 *                          src/testing/ and bench/ build their own, and packages/db/src/ (the
 *                          repositories' own package) defines the bundles.
 *
 * - unit-test:             a *.unit.test.ts (`pnpm test:fast`) imports no database test support, queue, process,
 *                          browser, mail server or server runtime.
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

/** Folders whose subfolders are features, with the import alias that reaches their src/ (web: '@/'). */
const FEATURE_ROOTS = [
  { features: 'server/src/features', alias: null },
  { features: 'web/src/features', alias: { prefix: '@/', dir: 'web/src' } },
];
/**
 * Where repositories may be constructed: the processes' composition roots. A prefix ending in '/' covers
 * a folder (each CLI command is the root of its own run). process-startup.ts is the part of the
 * server's and the worker's roots they share: it opens the database and builds the AI providers over it.
 * packages/db/src/ is the repositories' own package, where the bundles (repository-bundles.ts) are defined.
 */
const REPOSITORY_ROOTS = [
  'server/src/runtime.ts',
  'server/src/app.ts',
  'worker/src/main.ts',
  'packages/jobs/src/worker-app.ts',
  'packages/jobs/src/process-startup.ts',
  'packages/cli/src/',
  'packages/db/src/',
];

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

// Unit tests (*.unit.test.ts, the fast loop of `pnpm test:fast`, run in one mode only) touch no database,
// queue, process, browser or server runtime: those make a test an integration test (*.test.ts).
const UNIT_TEST = /\.unit\.test\.tsx?$/;
const UNIT_TEST_FORBIDDEN = [
  /^@radar\/db\/testing$/,
  /^@radar\/jobs(\/|$)/,
  /^@radar\/server(\/|$)/,
  /^(pg|ioredis|bullmq|playwright-core|nodemailer|smtp-server)$/,
  /^(node:)?child_process$/,
  /(^|\/)(test-runtime|server-process|installation|run-radar|smtp-sink|script-tree)$/,
];
for (const dir of ['packages', 'server', 'worker'].map((name) => path.join(root, name))) {
  if (!fs.existsSync(dir)) continue;
  for (const file of sourceFiles(dir)) {
    if (!UNIT_TEST.test(file)) continue;
    for (const { specifier, line } of importsOf(file)) {
      if (UNIT_TEST_FORBIDDEN.some((pattern) => pattern.test(specifier))) {
        report(file, line, 'unit-test', `a unit test imports '${specifier}': name it *.test.ts (an integration test)`);
      }
    }
  }
}

// Feature folders import no other feature folder.
for (const { features, alias } of FEATURE_ROOTS) {
  const featuresDir = path.join(root, features);
  if (!fs.existsSync(featuresDir)) continue;
  const featureOf = (target) => {
    const inside = toPosix(path.relative(featuresDir, target));
    return inside === '..' || inside.startsWith('../') || path.isAbsolute(inside) ? null : inside.split('/')[0];
  };
  for (const file of sourceFiles(featuresDir)) {
    const own = featureOf(file);
    for (const { specifier, line } of importsOf(file)) {
      let target = null;
      if (specifier.startsWith('.')) target = path.resolve(path.dirname(file), specifier);
      else if (alias && specifier.startsWith(alias.prefix)) {
        target = path.join(root, alias.dir, specifier.slice(alias.prefix.length));
      }
      const other = target && featureOf(target);
      if (!other || other === own) continue;
      report(
        file,
        line,
        'feature-import',
        `feature ${own} imports feature ${other} ('${specifier}'): move what both need out of features/`,
      );
    }
  }
}

/**
 * `new XRepository(` expressions and calls of a bundle factory (`createXRepositories(`, also as a
 * property: `db.createIngestRepositories(`), with their line and what they build (comments and strings
 * excluded).
 */
function repositoryConstructions(file) {
  const text = fs.readFileSync(file, 'utf8');
  if (!/new\s+[A-Z]\w*Repository\s*\(|create\w*Repositories\s*\(/.test(text)) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found = [];
  const lineOf = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const calleeName = (expression) =>
    ts.isIdentifier(expression)
      ? expression.text
      : ts.isPropertyAccessExpression(expression)
        ? expression.name.text
        : undefined;
  const walk = (node) => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && /Repository$/.test(node.expression.text)) {
      found.push({ line: lineOf(node), what: `new ${node.expression.text}()` });
    } else if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      if (name && /^create\w*Repositories$/.test(name)) found.push({ line: lineOf(node), what: `${name}()` });
    }
    ts.forEachChild(node, walk);
  };
  walk(source);
  return found;
}

// Repositories are built in the composition roots only (e2e/ is all test code: its harness may).
for (const pkg of packages.filter((candidate) => candidate.name !== '@radar/e2e')) {
  for (const file of sourceFiles(pkg.dir)) {
    const relInPackage = toPosix(path.relative(pkg.dir, file));
    const relInRoot = rel(file);
    if (isDevFile(relInPackage)) continue;
    if (
      REPOSITORY_ROOTS.some(
        (allowed) => relInRoot === allowed || (allowed.endsWith('/') && relInRoot.startsWith(allowed)),
      )
    ) {
      continue;
    }
    for (const { line, what } of repositoryConstructions(file)) {
      report(
        file,
        line,
        'repository-construction',
        `${what} outside a composition root: build it in ${REPOSITORY_ROOTS.slice(0, 4).join(', ')} or a CLI command and pass it in`,
      );
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
