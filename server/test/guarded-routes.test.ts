import { API_PATHS } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogRoute } from '../src/plugins/route-catalog';
import { isApiPath } from '../src/plugins/web-app';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/**
 * Every guarded route (one whose schema declares `security`) authenticates before it reads or validates
 * anything: an anonymous request with a bad body, query or path gets 401, never a 400 that describes
 * the schema. The routes come from the app itself, so a new guarded route is checked unasked.
 */

/** API routes that are public on purpose; any other API route must declare `security`. */
const PUBLIC_API_ROUTES = [
  'GET /api/health',
  'POST /api/auth/register/',
  'POST /api/auth/verify-email/',
  'POST /api/auth/resend-verification-code/',
  'GET /api/auth/verification-status/',
  'POST /api/auth/login/',
  'POST /api/auth/forgot-password/',
  'POST /api/auth/reset-password/',
  // Feedback is also taken without a login (a token, when sent, must be valid): feedback.test.ts.
  'POST /api/feedback/send/',
  // The contact page's settings and form, for visitors without an account (contact.test.ts).
  'GET /api/config/',
  'POST /api/contact/',
  // The unsubscribe link of keyword alert mails: a signed token instead of a login (keywords.test.ts).
  'GET /api/keywords/alerts/unsubscribe/',
  'POST /api/keywords/alerts/unsubscribe/',
  // The digest mail's unsubscribe link (a signed token) and the personal Atom feed (a secret token in
  // the path) work without a login (delivery.test.ts).
  'GET /api/delivery/unsubscribe/',
  'POST /api/delivery/unsubscribe/',
  'GET /api/delivery/feed/:token/',
];

let runtime: TestRuntime;

beforeAll(async () => {
  // No in-process worker: nothing here runs a job, and its start is most of a runtime's boot.
  runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
});

afterAll(async () => {
  await runtime?.stop();
});

const isDocumented = (route: CatalogRoute) => !(route.schema as { hide?: boolean } | undefined)?.hide;
const isGuarded = (route: CatalogRoute) =>
  ((route.schema as { security?: unknown[] } | undefined)?.security?.length ?? 0) > 0;
/** HEAD routes are Fastify's copies of GET routes. API routes include the spec's /articles/ and keyword paths. */
const apiRoutes = () =>
  runtime.app.routeCatalog.filter((route) => isApiPath(route.url) && route.method !== 'HEAD' && isDocumented(route));

/** The route's path with every parameter filled with a value no schema accepts. */
const badPath = (url: string) => url.replace(/:\w+/g, `a%00${'x'.repeat(150)}`);

const BAD_BODIES = [
  ['a body of the wrong type', '[1, 2, 3]', 'application/json'],
  ['fields of the wrong types', JSON.stringify({ research_description: 42, username: [], id: {} }), 'application/json'],
  ['malformed JSON', '{"research_description": ', 'application/json'],
  ['an unsupported content type', 'username=ada', 'application/x-www-form-urlencoded'],
] as const;

describe('guarded routes', () => {
  it('are found in the app, and every other API route is public on purpose', () => {
    const guarded = apiRoutes().filter(isGuarded);
    expect(guarded.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/auth/user/',
        'PATCH /api/auth/user/',
        'GET /api/auth/tasks/:id/status/',
        'GET /articles/search/',
        'POST /articles/:id/read/',
        'GET /user-keywords/',
        'PATCH /user-keywords/:id/update/',
        'GET /user-rkeywords/',
      ]),
    );
    const unguarded = apiRoutes()
      .filter((route) => !isGuarded(route))
      .map((route) => `${route.method} ${route.url}`);
    // A new API route either declares security (and is checked below) or is added to PUBLIC_API_ROUTES.
    expect(unguarded.sort()).toEqual([...PUBLIC_API_ROUTES].sort());
  });

  it('answer anonymous requests with bad input 401, before any validation', async () => {
    const failures: string[] = [];
    for (const route of apiRoutes().filter(isGuarded)) {
      const hasBody = !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(route.method);
      for (const [what, payload, contentType] of hasBody
        ? BAD_BODIES
        : ([['no body', undefined, undefined]] as const)) {
        for (const authorization of [undefined, 'Bearer not-a-token']) {
          const response = await runtime.app.inject({
            method: route.method as 'GET',
            url: `${badPath(route.url)}?email=%00&id=${'x'.repeat(300)}`,
            headers: {
              ...(contentType ? { 'content-type': contentType } : {}),
              ...(authorization ? { authorization } : {}),
            },
            ...(payload !== undefined ? { payload } : {}),
          });
          const expected = authorization ? 'AUTH_INVALID' : 'AUTH_REQUIRED';
          if (response.statusCode !== 401 || response.json().code !== expected) {
            failures.push(
              `${route.method} ${route.url} (${what}, ${authorization ?? 'anonymous'}): ${response.statusCode} ${response.body}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

/*
 * API_PATHS (packages/shared) is the one list of the API's paths that routes and the web app's API files
 * use. Checked here, against the same catalog (one runtime for both): a route registered under a path
 * not in the table, or a table entry no route answers, fails.
 */
describe('the API_PATHS table', () => {
  /** Hidden routes that are not the API: the web app (index.html for client-side routes) and its files. */
  const WEB_APP_ROUTES = ['/*', '/index.html'];
  /** The built web app's files: one route per file (and its precompressed copy) under /assets/. */
  const isWebAppRoute = (url: string) => WEB_APP_ROUTES.includes(url) || url.startsWith('/assets/');
  const routes = () => runtime.app.routeCatalog.filter((route) => route.method !== 'HEAD');

  it('lists every path a documented route is registered under, and nothing else', () => {
    const registered = new Set(
      routes()
        .filter(isDocumented)
        .map((route) => route.url),
    );
    const { apiDocs, ...documented } = API_PATHS;
    expect([...registered].sort()).toEqual([...new Set(Object.values(documented))].sort());
  });

  it('covers the hidden routes too: only the OpenAPI pages and the web app are hidden', () => {
    const hidden = routes()
      .filter((route) => !isDocumented(route))
      .map((route) => route.url)
      .filter((url) => !isWebAppRoute(url));
    expect(hidden).toContain(API_PATHS.apiDocs);
    expect(hidden.filter((url) => url !== API_PATHS.apiDocs && !url.startsWith(`${API_PATHS.apiDocs}/`))).toEqual([]);
  });

  it('has only paths the web app leaves to the API (never answered with index.html)', () => {
    expect(Object.values(API_PATHS).filter((path) => !isApiPath(path))).toEqual([]);
  });
});
