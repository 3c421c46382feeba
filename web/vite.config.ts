import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';

/** The Fastify API (server/) in development; in production it serves web/dist itself, same origin. */
const API_TARGET = 'http://127.0.0.1:3000';

/** Every path prefix the API owns; all other paths are client-side routes. */
const API_PREFIXES = ['/api', '/articles', '/user-keywords', '/user-rkeywords'] as const;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the build over 1 KiB: the
 * server sends the one the browser accepts (`preCompressed`, server/src/plugins/web-app.ts), so a reader
 * on a real network downloads about a third of the bytes, and the server compresses nothing per request.
 */
function precompressAssets(): Plugin {
  return {
    name: 'radar-precompress-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      await Promise.all(
        Object.keys(bundle)
          .filter((fileName) => /\.(js|css|html|svg|json)$/.test(fileName))
          .map(async (fileName) => {
            const file = path.join(outDir, fileName);
            const source = await fs.readFile(file);
            if (source.length < 1024) return;
            const [br, gz] = await Promise.all([
              brotli(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
              gzip(source, { level: 9 }),
            ]);
            await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
          }),
      );
    },
  };
}

/**
 * The early script (src/app/early-script.ts) as a classic script of its own, first in index.html: it
 * sends a signed-in reader's first requests while the app's modules are still arriving (a module script,
 * the app's entry included, runs only once every module it imports is in and compiled). Built here
 * as one IIFE file from the same sources as the app (its own copy of the API client and the settings'
 * readers), under a content hash like the other assets; a plain `<script src>`, so the CSP's
 * `script-src 'self'` allows it. Not async: the parser stops for one small file, then it has run before
 * anything else needs the main thread. It also starts the app's entry (named in its `data-entry`; the
 * entry's files are preloaded meanwhile): on /papers and /news once the early view has painted, else at
 * once (src/app/early-script.ts). In development (`vite dev`) the entry stands in index.html and sends the
 * requests itself.
 */
function earlyScript(): Plugin {
  let base = '/';
  let fileName = '';
  return {
    name: 'radar-early-script',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    async buildStart() {
      const root = fileURLToPath(new URL('.', import.meta.url));
      const outputs = await build({
        configFile: false,
        root,
        logLevel: 'warn',
        resolve: { tsconfigPaths: true },
        publicDir: false,
        build: {
          write: false,
          minify: true,
          lib: { entry: path.join(root, 'src/app/early-script.ts'), formats: ['iife'], name: 'radarEarlyScript' },
        },
      });
      const output = (Array.isArray(outputs) ? outputs : [outputs]).flatMap((result) =>
        'output' in result ? result.output : [],
      );
      const chunk = output.find((item) => item.type === 'chunk');
      if (chunk?.type !== 'chunk') throw new Error('the early script was not built');
      const hash = createHash('sha256').update(chunk.code).digest('base64url').slice(0, 8);
      fileName = `assets/early-script-${hash}.js`;
      this.emitFile({ type: 'asset', fileName, source: chunk.code });
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html) => {
        if (!fileName) return html;
        // The app's entry is started by the early script (once the early view has painted, or at once
        // where there is none), so it no longer stands in the page; its files are still preloaded.
        const entryTag = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/;
        const entry = entryTag.exec(html)?.[1];
        if (!entry) throw new Error('the early script found no entry module script in index.html');
        return {
          html: html.replace(entryTag, ''),
          tags: [
            {
              tag: 'script',
              attrs: { src: `${base}${fileName}`, 'data-entry': entry },
              injectTo: 'head-prepend' as const,
            },
            { tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: entry }, injectTo: 'head' as const },
          ],
        };
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), precompressAssets(), earlyScript()],
  resolve: { tsconfigPaths: true },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: API_TARGET, changeOrigin: false }])),
  },
  preview: { host: '127.0.0.1', port: 4173 },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      // Small chunks shared by a few pages are copied into the pages that use them instead of being
      // files of their own: /papers then loads about 8 files after the entry instead of 26, which on
      // HTTP/1.1 (6 connections per host) also held the page's own API request back in the queue
      // (docs/benchmarks.md, "First result card"). The entry's files stay as they were.
      preserveEntrySignatures: false,
      output: { codeSplitting: { experimentalInlineCommonChunks: { maxSize: 24 * 1024 } } },
    },
  },
});
