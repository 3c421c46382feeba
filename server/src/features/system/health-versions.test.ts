import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';
import { hasOperatorToken } from '../../security/operator-token';

/** /api/health is public; the versions in it (app, PostgreSQL, pgvector) are for the operator token only. */

const OPERATOR_TOKEN = 'operator-token-0123456789abcdef';
let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { OPERATOR_TOKEN } });
});

afterAll(async () => {
  await runtime?.stop();
});

const health = (authorization?: string) =>
  runtime.app.inject({ method: 'GET', url: '/api/health', headers: authorization ? { authorization } : {} });

describe('GET /api/health', () => {
  it('shows the versions with the operator token', async () => {
    const response = await health(`Bearer ${OPERATOR_TOKEN}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe('ok');
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.database.server_version).toMatch(/^\d+/);
    expect(body.database.pgvector_version).toMatch(/^0\.(8|9)|^[1-9]/);
  });

  it.each([
    ['no authorization', undefined],
    ['a wrong token', 'Bearer operator-token-0123456789abcdeX'],
    ['a prefix of the token', `Bearer ${OPERATOR_TOKEN.slice(0, -1)}`],
    ['the token under another scheme', `Basic ${OPERATOR_TOKEN}`],
    ['a login token', `Bearer ${'x'.repeat(20)}.${'y'.repeat(20)}.${'z'.repeat(20)}`],
  ])('answers without versions for %s', async (_name, authorization) => {
    const response = await health(authorization);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe('ok');
    expect(body.version).toBeUndefined();
    expect(body.database).toEqual({ status: 'ok' });
    expect(JSON.stringify(body)).not.toMatch(/version/);
  });
});

describe('hasOperatorToken', () => {
  it('is false for everyone when no token is configured', () => {
    for (const authorization of ['Bearer ', 'Bearer undefined', 'Bearer null', undefined]) {
      expect(hasOperatorToken(authorization, undefined)).toBe(false);
      expect(hasOperatorToken(authorization, '')).toBe(false);
    }
  });
});
