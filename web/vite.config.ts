import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The Fastify API (server/) in development; in production it serves web/dist itself, same origin. */
const API_TARGET = 'http://127.0.0.1:3000';

/** Every path prefix the API owns; all other paths are client-side routes. */
const API_PREFIXES = ['/api', '/articles', '/user-keywords', '/user-rkeywords'] as const;

export default defineConfig({
  plugins: [react()],
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
  },
});
