#!/usr/bin/env node
/**
 * Dead exports (run by `pnpm lint`): what the workspace's source (packages/<name>/src, server/src,
 * worker/src, web/src) exports and nothing in the product uses.
 *
 * - An export no other file imports: "delete it" when its own file does not use it either, "drop
 *   `export`" when it does. Kept without a report: an export its own file uses and a test imports (it is
 *   exported for its unit test), and a type its own file uses (it names a parameter or result of the
 *   file's exports).
 * - A re-export (`export { a } from './a'`, a package's index.ts) that nothing imports through: "remove
 *   the re-export". `export * from` passes on only the names someone imports through it.
 * - A public member of a class (a repository's method) whose name appears nowhere else in the product's
 *   code: "delete it". Matched by name, so a member sharing its name with something used is not found.
 * - Who counts as a user: any source file of the workspace, bench/ and scripts/ included (benchmarks are
 *   programs of ours). Tests (test/, *.test.*, *.spec.*, e2e/) count only for what a testing/ folder of
 *   src/ exports, the helpers made for them: code that only tests call is reported ("only tests use it").
 *   `import * as ns`, `import()` and `typeof import()` without a name use every export of the module.
 *
 * ALLOWED_HERE lists what stays without a user, each with its reason; an entry that is no longer needed
 * (used anyway, or gone) is reported too, so the list does not outlive its reasons.
 *
 * Prints one line per finding (file:line: name: what to do) and exits 1; exits 0 when there is none.
 * `node scripts/check-dead-exports.mjs [root]` checks another tree (the self-test does).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const root = path.resolve(process.argv[2] ?? REPO_ROOT);
const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'data', 'coverage', '.git', 'fixtures']);
/** Folders whose files use the workspace's exports; packages/* is added from the tree. */
const USER_FOLDERS = ['server', 'worker', 'web', 'e2e', 'bench', 'scripts'];

/**
 * 'file:name' (or 'file:Class.member') -> why it stays although nothing in the product uses it. The
 * entries name this repository's files, so another tree (the self-test's) is checked without them.
 */
const ALLOWED_HERE = new Map([
  // Tests of other packages reach these through the package (a relative import may not leave a package).
  ['packages/ai/src/index.ts:profileEmbeddingText', 'packages/cli tests embed a profile text as the server does'],
  ['packages/ai/src/reasons/index.ts:vocabularyWeighting', 'packages/jobs tests weigh alert terms as the job does'],
  ['packages/ingest/src/index.ts:catalogueEntries', 'jobs, cli and server tests list the catalogue to pick sources'],
  ['packages/ingest/src/index.ts:DatabasePolitenessLease', 'packages/jobs tests hold the lease a source run takes'],
  ['packages/ingest/src/index.ts:DEFAULT_TIER_REFRESH_SETTINGS', 'packages/jobs tests start from the defaults'],
  ['packages/ingest/src/index.ts:NEWS_TRUNCATED_NOTE', 'packages/jobs tests check a long news text is cut with it'],
  ['packages/ingest/src/index.ts:NEWS_TRUNCATION_MARK', 'packages/jobs tests check a long news text is cut with it'],
  ['packages/ingest/src/index.ts:SourceFileError', 'packages/jobs tests check a bad source file fails with it'],
  [
    'packages/recommend/src/index.ts:fieldOrderScore',
    'server tests order items by the field rule as the pipeline does',
  ],
  ['packages/recommend/src/index.ts:OUT_OF_FIELD_FACTOR', 'server tests check the factor the field rule applies'],
  ['packages/jobs/src/index.ts:syncActiveSources', 'server tests schedule the active sources as the worker does'],
  // Test support on the classes whose tables it reads or writes (tests of several packages use them).
  ['packages/db/src/repositories/paper.repository.ts:PaperRepository.findByIds', 'tests read stored papers back'],
  [
    'packages/db/src/user-change-listener.ts:UserChangeListener.slowDownForTests',
    'server tests slow one instance down, as a busy process is, to prove revocation waits for it',
  ],
  ['packages/db/src/repositories/paper.repository.ts:PaperRepository.findSimilar', 'tests check nearest papers'],
  ['packages/db/src/repositories/paper.repository.ts:PaperRepository.explainRecommend', 'tests check the index used'],
  ['packages/jobs/src/queue-connection.ts:removeRedisQueueData', "tests remove their queues' data from Redis"],
  ['packages/cli/src/radar-command.ts:checkRadarCommandLine', 'a test checks every radar command the docs name'],
  // Called by a library or framework, not by name in our code.
  ['packages/db/src/pglite-socket-server.ts:BroadcastingQueryQueue.getQueueLength', "pglite-socket's QueryQueue"],
  ['packages/db/src/pglite-socket-server.ts:BroadcastingQueryQueue.clearQueueForHandler', "pglite-socket's QueryQueue"],
  [
    'packages/db/src/pglite-socket-server.ts:BroadcastingQueryQueue.clearTransactionIfNeeded',
    "pglite-socket's QueryQueue",
  ],
  ['web/src/app/error-boundary.tsx:AppErrorBoundary.getDerivedStateFromError', 'React calls it on a render error'],
  [
    'packages/db/src/repositories/one-trip.ts:RequestValue.toPostgres',
    'node-postgres calls it for a parameter (a RequestValue sent by drizzle)',
  ],
]);
const ALLOWED = path.resolve(root) === path.resolve(REPO_ROOT) ? ALLOWED_HERE : new Map();

const toPosix = (file) => file.split(path.sep).join('/');
const rel = (file) => toPosix(path.relative(root, file));

function* sourceFiles(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

const isTestFile = (relPath) =>
  relPath.startsWith('e2e/') || /(^|\/)test\//.test(relPath) || /\.(test|spec)\.[^/]+$/.test(relPath);
const isTestingHelper = (relPath) => /^(packages\/[^/]+|server|worker|web)\/src\/(.+\/)?testing\//.test(relPath);
/** The files whose exports are checked. */
const isChecked = (relPath) => /^(packages\/[^/]+|server|worker|web)\/src\//.test(relPath) && !isTestFile(relPath);

// Package names -> their `exports` map, to resolve '@radar/db/testing' to a file.
const packageDirs = [
  ...(fs.existsSync(path.join(root, 'packages'))
    ? fs
        .readdirSync(path.join(root, 'packages'), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => path.join(root, 'packages', entry.name))
    : []),
  ...['server', 'worker', 'web', 'e2e'].map((app) => path.join(root, app)),
].filter((dir) => fs.existsSync(path.join(dir, 'package.json')));
const packageExports = new Map();
for (const dir of packageDirs) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const exports = typeof manifest.exports === 'string' ? { '.': manifest.exports } : (manifest.exports ?? {});
  const entries = new Map();
  for (const [subpath, target] of Object.entries(exports)) {
    const file = typeof target === 'string' ? target : (target?.import ?? target?.default);
    if (typeof file === 'string') entries.set(subpath, path.resolve(dir, file));
  }
  if (!entries.size && manifest.main) entries.set('.', path.resolve(dir, manifest.main));
  packageExports.set(manifest.name, entries);
}

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.jsx', '.mjs'];
function resolveFile(base) {
  const candidates = [base];
  const jsExtension = /\.(m?j)sx?$/.exec(base);
  if (jsExtension) candidates.push(base.replace(/\.m?jsx?$/, (ext) => ext.replace('j', 't')));
  for (const ext of EXTENSIONS) candidates.push(base + ext);
  for (const ext of EXTENSIONS) candidates.push(path.join(base, `index${ext}`));
  return candidates.find((file) => fs.existsSync(file) && fs.statSync(file).isFile()) ?? null;
}

/** A module specifier as seen from `fromFile` -> the workspace file it names, or null (outside packages). */
function resolveSpecifier(fromFile, specifier) {
  if (specifier.startsWith('.')) return resolveFile(path.resolve(path.dirname(fromFile), specifier));
  if (specifier.startsWith('@/') && rel(fromFile).startsWith('web/')) {
    return resolveFile(path.join(root, 'web/src', specifier.slice(2)));
  }
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const entries = packageExports.get(name);
  if (!entries) return null;
  const subpath = `.${specifier.slice(name.length)}`;
  const target = entries.get(subpath === '.' ? '.' : subpath);
  return target ? resolveFile(target) : null;
}

const hasModifier = (node, kind) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

function bindingNames(name, out = []) {
  if (ts.isIdentifier(name)) out.push(name);
  else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bindingNames(element.name, out);
  return out;
}

/**
 * One file's exports and what it imports.
 * exports: name -> { line, local (identifier name in this file) | target+targetName (re-export) | namespace }
 * stars:   files re-exported with `export * from`.
 * uses:    { file, name } imported from other files ('*' = every export).
 */
function parse(file) {
  const text = fs.readFileSync(file, 'utf8');
  const kind = file.endsWith('x')
    ? ts.ScriptKind.TSX
    : file.endsWith('.mjs') || file.endsWith('.js')
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const exports = new Map();
  const stars = [];
  const uses = [];
  /** Local names bound by imports: local -> { file, name }, so `export { x }` of an import is a re-export. */
  const importedBindings = new Map();
  const declarationNodes = new Set();

  const use = (specifier, name) => {
    const target = resolveSpecifier(file, specifier);
    if (target) uses.push({ file: target, name });
    return target;
  };

  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const specifier = statement.moduleSpecifier.text;
      const clause = statement.importClause;
      if (!clause) continue;
      if (clause.name) {
        const target = use(specifier, 'default');
        if (target) importedBindings.set(clause.name.text, { file: target, name: 'default' });
      }
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) use(specifier, '*');
      else if (bindings) {
        for (const element of bindings.elements) {
          const name = (element.propertyName ?? element.name).text;
          const target = use(specifier, name);
          if (target) importedBindings.set(element.name.text, { file: target, name });
        }
      }
    } else if (ts.isExportDeclaration(statement)) {
      const specifier =
        statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : null;
      const clause = statement.exportClause;
      if (specifier) {
        const target = resolveSpecifier(file, specifier);
        if (!target) continue;
        if (!clause) stars.push(target);
        else if (ts.isNamespaceExport(clause)) {
          exports.set(clause.name.text, { line: lineOf(clause), target, targetName: '*' });
        } else {
          for (const element of clause.elements) {
            exports.set(element.name.text, {
              line: lineOf(element),
              target,
              targetName: (element.propertyName ?? element.name).text,
            });
          }
        }
      } else if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements) {
          const local = (element.propertyName ?? element.name).text;
          declarationNodes.add(element.propertyName ?? element.name);
          const imported = importedBindings.get(local);
          exports.set(
            element.name.text,
            imported
              ? { line: lineOf(element), target: imported.file, targetName: imported.name }
              : { line: lineOf(element), local },
          );
        }
      }
    } else if (ts.isExportAssignment(statement)) {
      exports.set('default', { line: lineOf(statement), local: null });
    } else if (hasModifier(statement, ts.SyntaxKind.ExportKeyword)) {
      const isDefault = hasModifier(statement, ts.SyntaxKind.DefaultKeyword);
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          for (const id of bindingNames(declaration.name)) {
            declarationNodes.add(id);
            exports.set(id.text, { line: lineOf(id), local: id.text, isType: false });
          }
        }
      } else if (statement.name && ts.isIdentifier(statement.name)) {
        declarationNodes.add(statement.name);
        exports.set(isDefault ? 'default' : statement.name.text, {
          line: lineOf(statement.name),
          local: statement.name.text,
          isType: ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement),
        });
      } else if (isDefault) {
        exports.set('default', { line: lineOf(statement), local: null });
      }
    }
  }

  // Public members of top-level classes: a method nothing calls is dead although its class is used.
  const members = [];
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement)) continue;
    for (const member of statement.members) {
      const isMember =
        ts.isMethodDeclaration(member) ||
        ts.isPropertyDeclaration(member) ||
        ts.isGetAccessorDeclaration(member) ||
        ts.isSetAccessorDeclaration(member);
      // `override` members are called by what they override (Error.name, a base class), not by name here.
      if (!isMember || !member.name || !ts.isIdentifier(member.name)) continue;
      if (hasModifier(member, ts.SyntaxKind.OverrideKeyword) || hasModifier(member, ts.SyntaxKind.PrivateKeyword))
        continue;
      declarationNodes.add(member.name);
      members.push({ className: statement.name?.text ?? 'default', name: member.name.text, line: lineOf(member.name) });
    }
  }

  // import('x'), typeof import('x').Name, and how often each identifier appears (for "used in its own file").
  const identifierCounts = new Map();
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) use(argument.text, '*');
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      const qualifier = node.qualifier;
      let first = qualifier;
      while (first && ts.isQualifiedName(first)) first = first.left;
      use(node.argument.literal.text, first ? first.text : '*');
    } else if (ts.isIdentifier(node) && !declarationNodes.has(node)) {
      identifierCounts.set(node.text, (identifierCounts.get(node.text) ?? 0) + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { exports, stars, uses, identifierCounts, members };
}

const files = new Map();
const userFolders = [...packageDirs.filter((dir) => rel(dir).startsWith('packages/')).map(rel), ...USER_FOLDERS];
for (const folder of new Set(userFolders)) {
  for (const file of sourceFiles(path.join(root, folder))) files.set(file, { rel: rel(file), ...parse(file) });
}

// Walk each use to the declarations it reaches, through re-exports and `export *`.
const used = new Set();
const usedByTests = new Set();
function markUsed(file, name, byTest, seen = new Set()) {
  const key = `${file}\0${name}`;
  if (seen.has(key)) return false;
  seen.add(key);
  const info = files.get(file);
  if (!info) return false;
  if (name === '*') {
    for (const exported of info.exports.keys()) markUsed(file, exported, byTest, seen);
    for (const star of info.stars) markUsed(star, '*', byTest, seen);
    return true;
  }
  const entry = info.exports.get(name);
  if (entry) {
    if (!byTest || isTestingHelper(info.rel)) used.add(key);
    else usedByTests.add(key);
    if (entry.target) markUsed(entry.target, entry.targetName, byTest, seen);
    return true;
  }
  if (name === 'default') return false;
  for (const star of info.stars) if (markUsed(star, name, byTest, seen)) return true;
  return false;
}
for (const [file, info] of files) {
  const byTest = isTestFile(info.rel);
  for (const use of info.uses) if (use.file !== file) markUsed(use.file, use.name, byTest);
}

// Identifiers by name over the product's files and over the tests', for class members.
const productNames = new Map();
const testNames = new Map();
for (const info of files.values()) {
  const counts = isTestFile(info.rel) ? testNames : productNames;
  for (const [name, count] of info.identifierCounts) counts.set(name, (counts.get(name) ?? 0) + count);
}

// An allowed export is a user of what it re-exports; an entry whose export is used anyway is stale.
const findings = [];
for (const id of ALLOWED.keys()) {
  const [relPath, name] = id.split(':');
  const file = path.join(root, relPath);
  const info = files.get(file);
  const isMember = name.includes('.');
  const exists =
    info && (isMember ? info.members.some((m) => `${m.className}.${m.name}` === name) : info.exports.has(name));
  const alreadyUsed = isMember ? productNames.has(name.split('.')[1]) : used.has(`${file}\0${name}`);
  if (!exists || alreadyUsed) {
    findings.push(
      `scripts/check-dead-exports.mjs: ALLOWED has '${id}', which is ${exists ? 'used' : 'gone'}: remove the entry`,
    );
  } else if (!isMember) {
    markUsed(file, name, false);
  }
}
const report = (info, line, id, what) => {
  if (!ALLOWED.has(`${info.rel}:${id}`)) findings.push(`${info.rel}:${line}: ${id}: ${what}`);
};
const ONLY_TESTS = 'only tests use it: delete it with its tests (or move it under src/testing/ if it is a test helper)';
for (const [file, info] of files) {
  if (!isChecked(info.rel)) continue;
  for (const [name, entry] of info.exports) {
    const key = `${file}\0${name}`;
    if (used.has(key)) continue;
    if (entry.target) {
      report(info, entry.line, name, 'nothing imports it through this re-export: remove the re-export');
      continue;
    }
    const usedInOwnFile = entry.local && (info.identifierCounts.get(entry.local) ?? 0) > 0;
    if (usedInOwnFile) {
      // Exported for its unit test, or a type that names a parameter or result of the file's exports.
      if (usedByTests.has(key) || entry.isType) continue;
      report(info, entry.line, name, 'used only in its own file: drop `export`');
    } else {
      report(info, entry.line, name, usedByTests.has(key) ? ONLY_TESTS : 'used nowhere: delete it');
    }
  }
  for (const member of info.members) {
    if (productNames.get(member.name) || (isTestingHelper(info.rel) && testNames.get(member.name))) continue;
    const id = `${member.className}.${member.name}`;
    report(info, member.line, id, testNames.get(member.name) ? ONLY_TESTS : 'used nowhere: delete it');
  }
}

for (const finding of findings.sort()) process.stdout.write(`${finding}\n`);
if (findings.length) {
  process.stdout.write(
    `${findings.length} dead export${findings.length === 1 ? '' : 's'} (rules: scripts/check-dead-exports.mjs)\n`,
  );
  process.exitCode = 1;
}
