import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Paths the API answers; anything else is a web-app route (client-side routing). */
export const API_PATH_PREFIXES = ['/api/', '/articles/', '/user-keywords/', '/user-rkeywords/'];

export const isApiPath = (url: string) => {
  const pathname = url.split('?')[0] ?? url;
  return API_PATH_PREFIXES.some((prefix) => pathname === prefix.slice(0, -1) || pathname.startsWith(prefix));
};

/**
 * Serves the built web app (web/dist): its files, and index.html for every other GET that is not an
 * API path, so deep links like /papers work. Returns false when the web app has not been built.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<boolean> {
  const indexFile = path.join(distDir, 'index.html');
  if (!fs.existsSync(indexFile)) return false;
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    // Hashed asset names never change content; index.html must always be revalidated.
    setHeaders(res, filePath) {
      res.header(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  return true;
}
