import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { isApiPath } from './web-app';

/**
 * Security headers on every answer (Helmet): the web app, the API and /api/docs share one policy,
 * which the built web app and swagger UI both load under without violations (e2e/test/security-headers.test.ts).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  // Helmet's middleware, built once: @fastify/helmet builds it again on every request (parsing the CSP
  // directives each time, about 2 % of a recommendation request's CPU in bench:recommend's profile).
  const applySecurityHeaders = helmet({
    contentSecurityPolicy: {
      // Spelled out instead of Helmet's defaults, which add upgrade-insecure-requests: a self-hosted
      // install reached over plain HTTP on a campus network would then fail to load its own scripts.
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Nobody may frame the app (clickjacking of the account pages).
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        // MUI (emotion) inserts <style> elements at run time and swagger UI sets style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Vite inlines small images and fonts as data: URLs; swagger UI draws its icons that way.
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
      },
    },
    // Reset links carry their token in the URL: no Referer may take it to another site.
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // HSTS belongs to whoever terminates TLS (the reverse proxy): this server cannot tell whether the
    // browser reached it over HTTPS, and a wrong HSTS answer locks users out of an HTTP-only install.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    applySecurityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
  // API answers carry tokens (login, verify-email) or a person's data (profile, library, keywords):
  // no browser or shared cache may keep any of them. One rule for every API path rather than a list
  // of routes that could miss a new one; a route that is public and cacheable (GET /api/config/) sets
  // its own Cache-Control, which is kept. The web app's files have their own (plugins/web-app.ts).
  app.addHook('onSend', async (request, reply, payload) => {
    if (isApiPath(request.url) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
