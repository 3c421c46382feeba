import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Paths the API answers; anything else is a web-app route (client-side routing). */
const API_PATH_PREFIXES = ['/api/', '/articles/', '/user-keywords/', '/user-rkeywords/'];

export const isApiPath = (url: string) => {
  const pathname = url.split('?')[0] ?? url;
  return API_PATH_PREFIXES.some((prefix) => pathname === prefix.slice(0, -1) || pathname.startsWith(prefix));
};

/**
 * Serves the built web app (web/dist): its files, and index.html for every other GET that is not an
 * API path, so deep links like /papers work. Returns false when the web app has not been built.
 *
 * Page loads are not rate limited: a campus behind one NAT address loads many pages a minute. Unknown
 * API paths go on to the not-found handler, which is rate limited so scanning for paths stays cheap.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<boolean> {
  const indexFile = path.join(distDir, 'index.html');
  if (!fs.existsSync(indexFile)) return false;
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    // The build writes .br and .gz copies of its text files (web/vite.config.ts): sent to browsers that
    // accept them, with Vary: Accept-Encoding; the file itself otherwise.
    preCompressed: true,
    // Hashed asset names never change content; index.html must always be revalidated.
    setHeaders(res, filePath) {
      res.header(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  // Every GET no other route matches: API routes, the files above and /api/docs are more specific.
  app.get('/*', { schema: { hide: true }, config: { rateLimit: false } }, (request, reply) => {
    if (isApiPath(request.url)) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
  return true;
}
