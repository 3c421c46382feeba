#!/usr/bin/env node
// Builds the processes as plain JavaScript for production (the Docker image runs these; no TypeScript
// compiler at run time): dist/server.js, dist/worker.js and dist/cli.js, and two worker threads they
// start, dist/library-parser.js (uploaded library files) and dist/embedded-postgres.js (PGlite), one ES
// module each (no shared chunks: every bundled file must sit directly in dist/ for the import.meta.url
// rewrite below).
//
// Our own packages (@radar/*) are bundled in; every npm dependency stays an import, resolved from
// node_modules beside dist/ (native modules, WASM and data files of pg, PGlite, argon2, BullMQ load as
// they do in development). Files our code finds next to its own source (the SQL migrations, the
// prompts, the common-password list, the built web app, server/package.json) keep their places: each
// `import.meta.url` in a bundled file becomes the URL that file has in the repository, relative to
// the bundle, so `new URL('../migrations', import.meta.url)` still names packages/db/migrations. The
// Dockerfile copies those files to the same places (scripts/check-deploy.mjs checks it).
//
// Usage: node scripts/build-dist.mjs [--out dist]
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The processes: bundle name and entry file. */
export const DIST_ENTRIES = {
  server: 'server/src/main.ts',
  worker: 'worker/src/main.ts',
  cli: 'packages/cli/src/main.ts',
  // Not processes: worker threads. The one that parses an uploaded library file (library-parse-thread.ts),
  // and the one an embedded database in a data directory runs in (embedded-postgres.ts).
  'library-parser': 'packages/ingest/src/own-works/library-parse-worker.ts',
  'embedded-postgres': 'packages/db/src/embedded-postgres-worker.ts',
};

/**
 * Bare imports that are not our workspace packages stay imports. `linked` (tests) collects, per npm
 * package, the directory the importing workspace package resolves it to.
 */
function externalDependencies(linked) {
  return {
    name: 'external-dependencies',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('@radar/') || args.path.startsWith('@/')) return undefined;
        if (linked && !args.path.startsWith('node:') && !builtinModules.includes(args.path)) {
          const parts = args.path.split('/');
          const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? args.path);
          if (!linked.has(name)) {
            for (let dir = args.resolveDir; ; dir = path.dirname(dir)) {
              const candidate = path.join(dir, 'node_modules', name);
              if (existsSync(candidate)) {
                linked.set(name, candidate);
                break;
              }
              if (path.dirname(dir) === dir) break;
            }
          }
        }
        return { path: args.path, external: true };
      });
    },
  };
}

/** Rewrites `import.meta.url` to the bundled file's own URL in the repository, relative to the bundle. */
function sourceLocations(outDir) {
  return {
    name: 'source-locations',
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, async (args) => {
        const source = await fs.readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return { contents: source, loader: 'ts' };
        const relative = path.relative(outDir, args.path).split(path.sep).join('/');
        const contents = source.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(relative)}, import.meta.url).href`,
        );
        return { contents, loader: 'ts' };
      });
    },
  };
}

/**
 * `linkDependencies` (tests, in a development checkout): links each npm package the bundles import
 * into dist/node_modules, from where the workspace package that imports it has it (pnpm installs
 * dependencies per package, not flat as the Docker image does), so that the bundles run in place.
 */
export async function buildDist(outDir = path.join(ROOT, 'dist'), options = {}) {
  const absoluteOut = path.resolve(outDir);
  const linked = options.linkDependencies ? new Map() : undefined;
  await fs.rm(absoluteOut, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(Object.entries(DIST_ENTRIES).map(([name, entry]) => [name, entry])),
    outdir: absoluteOut,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: options.sourcemap ?? true,
    plugins: [externalDependencies(linked), sourceLocations(absoluteOut)],
    logLevel: 'warning',
    metafile: true,
  });
  await fs.writeFile(path.join(absoluteOut, 'package.json'), `${JSON.stringify({ type: 'module' }, null, 2)}\n`);
  for (const [name, target] of linked ?? []) {
    const link = path.join(absoluteOut, 'node_modules', name);
    await fs.mkdir(path.dirname(link), { recursive: true });
    await fs.symlink(target, link, 'dir');
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'dist' } } });
  const started = Date.now();
  const result = await buildDist(path.resolve(values.out));
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  console.log(
    `built ${Object.keys(DIST_ENTRIES)
      .map((name) => `${values.out}/${name}.js`)
      .join(', ')} (${(bytes / 1024 / 1024).toFixed(1)} MB with source maps) in ${Date.now() - started} ms`,
  );
}
