import { Writable } from 'node:stream';
import { UserRepository } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger';
import { registerErrorHandler } from '../src/plugins/error-handler';

/**
 * An unexpected error answers a generic 500 and is logged without the request's data: a failed query
 * (DrizzleQueryError) carries its parameters, and PostgreSQL quotes the value it refused.
 */

let database: TestDatabase;
let app: FastifyInstance;
const logLines: string[] = [];

const SECRET = 'private.person@example.org';

beforeAll(async () => {
  database = await createTestDatabase();
  const capture = new Writable({
    write(chunk, _encoding, callback) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  app = Fastify({ loggerInstance: createLogger('info', capture) as FastifyBaseLogger });
  registerErrorHandler(app);
  // Real queries on the real database that fail on the value they were given (no schema in front).
  const users = new UserRepository(database.db);
  app.post('/by-email', async (request) => users.findByEmail((request.body as { value: string }).value));
  app.post('/by-id', async (request) => users.findById((request.body as { value: string }).value));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('the log of a 500', () => {
  it.each([
    ['a NUL in a query parameter', '/by-email', `${SECRET}\u0000`, '22021'],
    ['a value PostgreSQL quotes in its message', '/by-id', SECRET, '22P02'],
  ])('%s: names the error and its database code, not the data', async (_name, url, value, code) => {
    const before = logLines.length;
    const response = await app.inject({ method: 'POST', url: `${url}?email=${SECRET}`, payload: { value } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 'INTERNAL_ERROR', message: '服务器内部错误，请稍后重试' });

    const lines = logLines.slice(before);
    const entry = lines.map((line) => JSON.parse(line)).find((logged) => logged.msg === 'unhandled error');
    expect(entry?.error).toMatchObject({ type: 'DrizzleQueryError', cause: { code } });
    expect(entry.error.message).toMatch(/^Failed query: select .*\$1/);
    expect(entry.error.stack.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain('private.person');
    expect(lines.join('\n')).not.toContain('params');
  });
});
