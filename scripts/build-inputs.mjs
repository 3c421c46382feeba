// What a build is made from, and whether a build is of the current sources: `pnpm start` (scripts/start.mjs)
// rebuilds web/dist and the server bundle only when this fingerprint changed, and the browser tests' global
// setup (e2e/src/build-web.ts) keeps its web build by the same fingerprint, so a second run of unchanged
// sources (CI's second mode, a rerun) builds nothing. `node scripts/build-inputs.mjs web` prints the web
// app's fingerprint (how the browser tests, which may not import from scripts/, read it).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What the web app is built from: its sources and config, the shared package it imports, the lockfile. */
export const WEB_INPUTS = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/package.json',
  'web/tsconfig.json',
  'tsconfig.base.json',
  'packages/shared/src',
  'packages/shared/package.json',
  'pnpm-lock.yaml',
];

/** Each build records the fingerprint of its inputs here; a missing or different one means build again. */
export const STAMP = '.radar-build-inputs.json';

/** Every file under the given paths (relative to the root), sorted; missing paths are skipped. */
export function filesUnder(paths) {
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
export function fingerprint(files) {
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

/** The fingerprint of the web app's current sources. */
export const webFingerprint = () => fingerprint(filesUnder(WEB_INPUTS));

export function readStamp(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, STAMP), 'utf8'));
  } catch {
    return undefined;
  }
}

export function writeStamp(dir, stamp) {
  fs.writeFileSync(path.join(dir, STAMP), `${JSON.stringify(stamp)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv[2] !== 'web') {
    process.stderr.write("usage: node scripts/build-inputs.mjs web   (prints the web app sources' fingerprint)\n");
    process.exit(2);
  }
  process.stdout.write(`${webFingerprint()}\n`);
}
