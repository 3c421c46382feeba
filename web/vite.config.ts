import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig({
  plugins: [react(), precompressAssets()],
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
