import { UserRepository } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from './test-runtime';

let runtime: TestRuntime;
let token: string;
let userId: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  const user = await new UserRepository(runtime.database.db).create({ email: 'contract@example.org' });
  userId = user.id;
  token = await runtime.app.signIn(user);
});

afterAll(async () => {
  await runtime?.stop();
});

const patchUser = (payload: string, contentType = 'application/json') =>
  runtime.app.inject({
    method: 'PATCH',
    url: '/api/auth/user/',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });

describe('GET /api/health', () => {
  it('reports the database, queue and mail as usable', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe('ok');
    expect(body.mode).toBe(runtime.database.mode);
    // Versions only for the operator token (health-versions.test.ts).
    expect(body.database).toEqual({ status: 'ok' });
    expect(body.version).toBeUndefined();
    expect(body.queue).toEqual({
      status: 'ok',
      backend: process.env.REDIS_URL ? 'redis' : 'postgres',
      worker: 'in-process',
    });
    expect(body.mail).toEqual({ status: 'ok', transport: 'outbox' });
  });
});

describe('PATCH /api/auth/user/', () => {
  it('updates known fields, maps field labels to ids and ignores unknown fields', async () => {
    const response = await patchUser(
      JSON.stringify({
        username: '  ada  ',
        research_fields: 'Computer Science, 数学,physics-astronomy',
        is_email_verified: true,
        token_version: 99,
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      username: 'ada',
      name: 'ada',
      research_fields: 'computer-science,mathematics,physics-astronomy',
    });
    const stored = await new UserRepository(runtime.database.db).findById(userId);
    expect(stored?.isEmailVerified).toBe(false);
    expect(stored?.tokenVersion).toBe(0);
  });

  it('refuses an unknown research field with a message naming it, and changes nothing', async () => {
    const response = await patchUser(JSON.stringify({ username: 'changed', research_fields: ['biology', 'alchemy'] }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'VALIDATION_ERROR',
      message: '未知的研究领域：alchemy',
      fields: { research_fields: ['alchemy'] },
      research_fields: ['alchemy'],
    });
    const stored = await new UserRepository(runtime.database.db).findById(userId);
    expect(stored?.username).toBe('ada');
  });

  it('keeps SQL and HTML metacharacters as plain text', async () => {
    const text = `'; DROP TABLE radar.users; -- <script>alert(1)</script>`;
    const response = await patchUser(JSON.stringify({ research_description: text }));
    expect(response.statusCode).toBe(200);
    expect(response.json().research_description).toBe(text);
  });

  it.each([
    ['malformed JSON', '{"username": ', 400, 'BAD_REQUEST'],
    ['a wrong type', JSON.stringify({ username: 42 }), 400, 'VALIDATION_ERROR'],
    ['a too long value', JSON.stringify({ research_description: 'x'.repeat(3001) }), 400, 'VALIDATION_ERROR'],
    ['a bad e-mail', JSON.stringify({ research_email: 'not an email' }), 400, 'VALIDATION_ERROR'],
    ['a JSON array body', '[1,2,3]', 400, 'VALIDATION_ERROR'],
    ['a 1 MB body', JSON.stringify({ research_description: 'x'.repeat(1024 * 1024) }), 413, 'PAYLOAD_TOO_LARGE'],
  ])('answers %s with a clear 4xx', async (_name, payload, status, code) => {
    const response = await patchUser(payload);
    expect(response.statusCode).toBe(status);
    const body = response.json();
    expect(body.code).toBe(code);
    expect(body.message).toMatch(/[\u4e00-\u9fff]/); // a Chinese message the UI can show
  });

  it('says in Chinese alone that a body must be an object', async () => {
    const response = await patchUser('[1,2,3]');
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: '请求内容必须是一个 JSON 对象' });
  });

  it('answers a non-JSON content type with 415', async () => {
    const response = await patchUser('username=ada', 'application/x-www-form-urlencoded');
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('routing', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    for (const url of ['/api/nope', '/articles/unknown/', '/user-keywords/zzz/']) {
      const response = await runtime.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'NOT_FOUND', message: '请求的资源不存在' });
    }
  });

  it('serves the web app for client-side routes', async () => {
    for (const url of ['/', '/papers', '/verify-email?email=a%40b.org&from=register']) {
      const response = await runtime.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('publishes the OpenAPI document under /api/docs', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/health',
        '/api/auth/user/',
        '/api/auth/register/',
        '/api/auth/verify-email/',
        '/api/auth/resend-verification-code/',
        '/api/auth/verification-status/',
        '/api/auth/login/',
        '/api/auth/forgot-password/',
        '/api/auth/reset-password/',
      ]),
    );
  });
});

describe('rate limits', () => {
  it('count by the connecting address: a forged X-Forwarded-For does not buy more requests', async () => {
    let lastStatus = 0;
    let body: { code?: string; remaining_seconds?: number } = {};
    for (let i = 0; i < 121; i++) {
      const response = await runtime.app.inject({
        method: 'GET',
        url: `/api/missing-${i}`,
        headers: { 'x-forwarded-for': `203.0.113.${i % 250}` },
      });
      lastStatus = response.statusCode;
      body = response.json();
    }
    expect(lastStatus).toBe(429);
    expect(body.code).toBe('RATE_LIMITED');
    expect(body.remaining_seconds).toBeGreaterThan(0);
  });
});

describe('logs', () => {
  it('never contain tokens or query strings', async () => {
    const secretQuery = 'reset-token-abcdef123456';
    await runtime.app.inject({
      method: 'GET',
      url: `/api/auth/user/?token=${secretQuery}`,
      headers: { authorization: `Bearer ${token}` },
    });
    await runtime.app.inject({ method: 'GET', url: `/reset-password?token=${secretQuery}` });
    const logs = runtime.logLines.join('\n');
    expect(logs).toContain('/api/auth/user/');
    expect(logs).not.toContain(secretQuery);
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(runtime.jwtSecret);
  });
});
