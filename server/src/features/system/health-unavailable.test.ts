import { wrapPool } from '@radar/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';
import { composeApp } from '../..';

let runtime: TestRuntime;
// A database nobody listens on: port 1 on this machine refuses connections at once.
const unreachablePool = new pg.Pool({ host: '127.0.0.1', port: 1, user: 'postgres', connectionTimeoutMillis: 2_000 });
unreachablePool.on('error', () => {});

beforeAll(async () => {
  runtime = await startTestRuntime();
});

afterAll(async () => {
  await unreachablePool.end();
  await runtime?.stop();
});

describe('GET /api/health when the database is down', () => {
  it('answers 503 and says which part failed', async () => {
    // The runtime's own wiring, with only the database replaced by one nobody answers on.
    const app = await composeApp({ ...runtime.parts, database: wrapPool(unreachablePool, 'external', {}) });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(503);
      const body = response.json();
      expect(body.status).toBe('unavailable');
      expect(body.database.status).toBe('error');
      expect(body.database.error).toMatch(/ECONNREFUSED|connect/i);
      expect(body.queue.status).toBe('ok');
    } finally {
      await app.close();
    }
  });
});
