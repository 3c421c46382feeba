#!/usr/bin/env node
// `pnpm start`: the app in one process, built only when its sources changed. The web app (web/dist) is
// rebuilt when a file it is built from changed since the last build, the server is bundled to plain
// JavaScript (scripts/build-dist.mjs) when one of the files esbuild read for the last bundle changed;
// otherwise both are reused and the server starts at once (a bundled server starts on about a fifth of
// the CPU of `node --import tsx` compiling the sources on every start).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The server bundle of `pnpm start`: inside the checkout, so its npm imports resolve (linked beside it). */
const SERVER_BUILD = path.join(ROOT, 'node_modules', '.cache', 'radar-start');
const WEB_DIST = path.join(ROOT, 'web', 'dist');
/** What the web app is built from: its sources and config, the shared package it imports, the lockfile. */
const WEB_INPUTS = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/package.json',
  'web/tsconfig.json',
  'packages/shared/src',
  'packages/shared/package.json',
  'pnpm-lock.yaml',
];
/** Each build records the fingerprint of its inputs here; a missing or different one means build again. */
const STAMP = '.radar-build-inputs.json';

/** Every file under the given paths (relative to the root), sorted; missing paths are skipped. */
function filesUnder(paths) {
  const out = [];
  const walk = (relative) => {
    const absolute = path.join(ROOT, relative);
    let stat;
    try {
      stat = fs.statSync(absolute);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(absolute)) if (name !== 'node_modules') walk(path.join(relative, name));
    } else out.push(relative);
  };
  for (const entry of paths) walk(entry);
  return out.sort();
}

/** A hash of the files' names and contents: a change, an added or a removed file changes it. */
function fingerprint(files) {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(file);
    hash.update('\0');
    try {
      hash.update(fs.readFileSync(path.join(ROOT, file)));
    } catch {
      hash.update('(missing)');
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

function readStamp(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, STAMP), 'utf8'));
  } catch {
    return undefined;
  }
}

function writeStamp(dir, stamp) {
  fs.writeFileSync(path.join(dir, STAMP), `${JSON.stringify(stamp)}\n`);
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const webFingerprint = fingerprint(filesUnder(WEB_INPUTS));
if (readStamp(WEB_DIST)?.fingerprint !== webFingerprint || !fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
  console.log('Building the web app (no build of its current sources yet)…');
  run('pnpm', ['--filter', '@radar/web', 'build']);
  writeStamp(WEB_DIST, { fingerprint: webFingerprint });
}

const serverStamp = readStamp(SERVER_BUILD);
if (
  !serverStamp ||
  fingerprint(serverStamp.inputs) !== serverStamp.fingerprint ||
  !fs.existsSync(path.join(SERVER_BUILD, 'server.js'))
) {
  console.log('Bundling the server (no bundle of its current sources yet)…');
  const { buildDist } = await import('./build-dist.mjs');
  const result = await buildDist(SERVER_BUILD, { linkDependencies: true });
  // esbuild's service process is not needed again in this process.
  (await import('esbuild')).stop();
  // The files esbuild read (our sources; npm packages stay imports and change only with the lockfile).
  const inputs = [
    ...Object.keys(result.metafile.inputs).filter((file) => !file.includes('node_modules')),
    'pnpm-lock.yaml',
  ].sort();
  writeStamp(SERVER_BUILD, { inputs, fingerprint: fingerprint(inputs) });
}

// A new embedded database (no DATABASE_URL, no cluster in DATA_DIR yet) is created and migrated by
// `radar migrate` in a short child process, so the server then opens it as on a restart. Why: initdb and
// the first migrations leave 50-90 MB more in the process that ran them (PGlite's WebAssembly memory
// never shrinks, and closing that instance gave back little of it), which put the first start above the
// idle target (docs/benchmarks.md, issue 35). DATA_DIR's default repeats the configuration's
// (packages/shared/src/server/config.ts); the CLI parses the same environment as the server.
if (!process.env.DATABASE_URL?.trim()) {
  const dataDir = path.resolve(process.env.DATA_DIR?.trim() || './data');
  if (!fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))) {
    const result = spawnSync(process.execPath, [path.join(SERVER_BUILD, 'cli.js'), 'migrate'], { stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

// The server runs in this process (no second Node process holding its own memory at rest). Source maps
// stay off: with them on, Node keeps every loaded file's map (ours and the npm packages' with their
// sources) and decodes ours at the first logged stack, 20-30 MB of heap at rest (docs/benchmarks.md).
// A stack then names lines of the bundle; `NODE_OPTIONS=--enable-source-maps pnpm start` maps them back.
await import(pathToFileURL(path.join(SERVER_BUILD, 'server.js')).href);
