#!/usr/bin/env node
// `pnpm start`: the app in one process, built only when its sources changed. The web app (web/dist) is
// rebuilt when a file it is built from changed since the last build, the server is bundled to plain
// JavaScript (scripts/build-dist.mjs) when one of the files esbuild read for the last bundle changed;
// otherwise both are reused and the server starts at once (a bundled server starts on about a fifth of
// the CPU of `node --import tsx` compiling the sources on every start).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fingerprint, ROOT, readStamp, webFingerprint, writeStamp } from './build-inputs.mjs';

/** The server bundle of `pnpm start`: inside the checkout, so its npm imports resolve (linked beside it). */
const SERVER_BUILD = path.join(ROOT, 'node_modules', '.cache', 'radar-start');
const WEB_DIST = path.join(ROOT, 'web', 'dist');

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const currentWebFingerprint = webFingerprint();
if (readStamp(WEB_DIST)?.fingerprint !== currentWebFingerprint || !fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
  console.log('Building the web app (no build of its current sources yet)…');
  run('pnpm', ['--filter', '@radar/web', 'build']);
  writeStamp(WEB_DIST, { fingerprint: currentWebFingerprint });
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
