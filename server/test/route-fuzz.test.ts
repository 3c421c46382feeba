import { UserRepository, type UserRow } from '@radar/db';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { CatalogRoute } from '../src/plugins/route-catalog';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/**
 * Property-based fuzzing of every route the app registers (taken from the app, so new routes are
 * fuzzed unasked): generated bodies, query strings and path parameters with NUL, lone surrogates, odd
 * unicode, wrong types, huge and deeply nested values, with and without a valid token. No answer may
 * be a 5xx. MIN_RUNS_PER_ROUTE requests per route, then more for about FUZZ_BUDGET_MS per run, shared
 * by the routes.
 */

// 6 s per mode (two modes in CI): the same assertion over fewer generated cases than at 25 s, and 19 s
// less of the suite's time budget each run.
const FUZZ_BUDGET_MS = 6_000;
const MAX_RUNS_PER_ROUTE = 400;
/** Requests every route gets however long they take (the time budget only bounds the rest). */
const MIN_RUNS_PER_ROUTE = 6;

let runtime: TestRuntime;
let validToken: string;
let deletedUserToken: string;
let fuzzUser: UserRow;

beforeAll(async () => {
  // No in-process worker: the fuzzed requests are answered by the app; a job they queue need not run.
  runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
  const users = new UserRepository(runtime.database.db);
  fuzzUser = await users.create({ email: 'fuzz@example.org', isEmailVerified: true });
  validToken = await runtime.app.signIn(fuzzUser);
  const gone = await users.create({ email: 'gone@example.org', isEmailVerified: true });
  deletedUserToken = await runtime.app.signIn(gone);
  await users.delete(gone.id);
});

afterAll(async () => {
  await runtime?.stop();
});

// ---- text -------------------------------------------------------------------------------------------

/** Characters that break things: NUL, lone surrogates, controls, bidi overrides, BOM, non-characters. */
const NASTY_CHARACTERS = [
  '\u0000',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u200d',
  '\u202e',
  '\u2028',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '😀',
  '👩‍🔬',
  '𝔸',
  'é',
  '科',
  '%',
  '\\',
  '"',
  "'",
  '<',
  '@',
  '$1',
  '\n',
];

const unit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_CHARACTERS) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  // Any UTF-16 code unit, so also halves of surrogate pairs in any position.
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) },
);

const fuzzText = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit, maxLength: 40 }) },
  // Close to what a field wants, with something nasty inside.
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.emailAddress(), fc.string({ unit, maxLength: 3 }), fc.nat(40))
      .map(([email, junk, at]) => email.slice(0, at) + junk + email.slice(at)),
  },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'Passw0rd-fuzz', '123456', 'computer-science', '数学') },
  // Longer than any field allows.
  { weight: 1, arbitrary: fc.tuple(unit, fc.integer({ min: 200, max: 20_000 })).map(([u, n]) => u.repeat(n)) },
);

// ---- values and bodies ------------------------------------------------------------------------------

const fuzzNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2),
);

const keysOf = (schema: unknown): string[] => {
  const shape = (schema as z.ZodObject | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
};

/** JSON values, with the schema's own keys favoured so the fuzz gets past "unknown field". */
const fuzzValue = (keys: string[]) =>
  fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fuzzText,
      fuzzNumber,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 5 }),
      fc.dictionary(
        fc.oneof(
          fc.constantFrom(...keys, '__proto__', 'constructor', 'prototype', ''),
          fc.string({ unit, maxLength: 10 }),
        ),
        tie('value'),
        { maxKeys: 6 },
      ),
    ),
  })).value;

/** An object with the schema's fields, each some value (text most of the time). */
const fuzzObject = (keys: string[]) =>
  keys.length === 0
    ? fc.dictionary(fc.string({ unit, maxLength: 10 }), fuzzValue([]), { maxKeys: 4 })
    : fc.record(
        Object.fromEntries(keys.map((key) => [key, fc.oneof({ weight: 4, arbitrary: fuzzText }, fuzzValue(keys))])),
        { requiredKeys: [] },
      );

/** A body as sent on the wire: JSON of a generated value, or text that is not quite JSON. */
const fuzzBody = (keys: string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fuzzObject(keys).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: fuzzValue(keys).map((value) => JSON.stringify(value) ?? 'null') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '{"email": ',
        'null',
        '"\\u0000"',
        '{"__proto__": {"isAdmin": true}}',
        '{"constructor": {"prototype": {"x": 1}}}',
        '[[[[[[[[[[]]]]]]]]]]',
      ),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1_000, max: 30_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
    },
    // Past the body limit.
    { weight: 1, arbitrary: fc.constant(JSON.stringify({ [keys[0] ?? 'x']: 'x'.repeat(300 * 1024) })) },
  );

const fuzzContentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  undefined,
);

// ---- URLs -------------------------------------------------------------------------------------------

/** Percent-encodes any string, lone surrogates included (as the UTF-8-style bytes of the code unit). */
const percentEncode = (value: string) =>
  Array.from(value, (char) => {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    }
    return encodeURIComponent(char);
  }).join('');

/** Percent sequences that decode to nothing valid, or to NUL. */
const RAW_URL_PIECES = ['%', '%zz', '%00', '%FF', '%C0%80', '%ED%A0%80', '..', '.', '%2e%2e', '%2F', '//', ';', '#'];

const fuzzUrlPiece = fc.oneof(
  { weight: 4, arbitrary: fuzzText.map(percentEncode) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_PIECES) },
  {
    weight: 1,
    arbitrary: fc.array(fc.constantFrom(...RAW_URL_PIECES), { maxLength: 4 }).map((pieces) => pieces.join('')),
  },
);

const fuzzQuery = (keys: string[]) =>
  fc
    .array(fc.tuple(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...keys, 'x') }, fuzzUrlPiece), fuzzUrlPiece), {
      maxLength: 4,
    })
    .map((pairs) => pairs.map(([key, value]) => `${key}=${value}`).join('&'));

/** The route's URL with its parameters (and a trailing wildcard) filled with generated pieces. */
const fuzzPath = (url: string) => {
  const params = url.match(/:\w+|\*$/g) ?? [];
  return fc.array(fuzzUrlPiece, { minLength: params.length, maxLength: params.length }).map((pieces) => {
    let index = 0;
    return url.replace(/:\w+|\*$/g, () => pieces[index++] ?? '');
  });
};

// ---- requests ---------------------------------------------------------------------------------------

const fuzzAuthorization = () =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(`Bearer ${validToken}`) },
    { weight: 2, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        `Bearer ${deletedUserToken}`,
        'Bearer not-a-token',
        'Bearer ',
        `Basic ${validToken}`,
        `Bearer ${validToken}x`,
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 60 }).map((text) => `Bearer ${text}`) },
  );

const hasBody = (method: string) => !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method);

function fuzzRequest(route: CatalogRoute): fc.Arbitrary<InjectOptions> {
  const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown };
  return fc
    .record({
      path: fuzzPath(route.url),
      query: fc.option(fuzzQuery(keysOf(schema.querystring)), { nil: undefined }),
      body: hasBody(route.method) ? fuzzBody(keysOf(schema.body)) : fc.constant(undefined),
      contentType: fuzzContentType,
      authorization: fuzzAuthorization(),
    })
    .map(({ path, query, body, contentType, authorization }) => ({
      method: route.method as InjectOptions['method'],
      url: query === undefined ? path : `${path}?${query}`,
      headers: {
        ...(contentType && body !== undefined ? { 'content-type': contentType } : {}),
        ...(authorization ? { authorization } : {}),
      },
      ...(body !== undefined ? { payload: body } : {}),
    }));
}

/** Shown when a request fails: long values shortened, so the report stays readable. */
const describeRequest = (request: InjectOptions) =>
  JSON.stringify(request, (_key, value) =>
    typeof value === 'string' && value.length > 300 ? `${value.slice(0, 300)}…(${value.length})` : value,
  );

describe('every route, fuzzed', () => {
  it('answers every generated request with a status below 500', { timeout: 60_000 }, async () => {
    // HEAD routes are Fastify's copies of GET routes: same handler.
    const routes = runtime.app.routeCatalog.filter((route) => route.method !== 'HEAD');
    expect(routes.map((route) => route.url)).toEqual(
      expect.arrayContaining(['/api/auth/login/', '/api/auth/user/', '/api/auth/tasks/:id/status/', '/*']),
    );
    const perRouteMs = Math.floor(FUZZ_BUDGET_MS / routes.length);
    let requests = 0;
    const check = (route: CatalogRoute) => async (request: InjectOptions) => {
      requests++;
      const response = await runtime.app.inject(request);
      if (response.statusCode >= 500) {
        throw new Error(
          `${route.method} ${route.url} answered ${response.statusCode} ${response.body.slice(0, 300)} to ${describeRequest(request)}`,
        );
      }
    };
    for (const route of routes) {
      // A few requests per route whatever the machine's load, then more while the route's slice of the
      // time budget lasts: a loaded machine fuzzes less deeply, never less than this.
      const guaranteed = await fc.check(fc.asyncProperty(fuzzRequest(route), check(route)), {
        numRuns: MIN_RUNS_PER_ROUTE,
      });
      if (guaranteed.failed) throw new Error(await fc.asyncDefaultReportMessage(guaranteed));
      const more = await fc.check(fc.asyncProperty(fuzzRequest(route), check(route)), {
        numRuns: MAX_RUNS_PER_ROUTE - MIN_RUNS_PER_ROUTE,
        interruptAfterTimeLimit: perRouteMs,
      });
      // An interrupted run with no failing request is no failure: the time was up.
      if (more.failed && !(more.interrupted && more.counterexample === null)) {
        throw new Error(await fc.asyncDefaultReportMessage(more));
      }
      // Logout (and "log out other devices") end sessions: the next route gets a token that works.
      validToken = await runtime.app.signIn(fuzzUser);
    }
    expect(requests).toBeGreaterThanOrEqual(routes.length * MIN_RUNS_PER_ROUTE);
    // And nothing failed behind a < 500 answer either.
    expect(runtime.logLines.filter((line) => line.includes('"level":50'))).toEqual([]);
  });
});
