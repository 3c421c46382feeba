import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, SmtpSink } from './smtp-sink';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/** Security headers on the web app, the API and the API docs (the browser check is e2e/test/security-headers.test.ts). */

let runtime: TestRuntime;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  // No in-process worker: the mails go out from the requests, nothing here runs a job, and the worker's
  // start is most of a runtime's boot.
  runtime = await startTestRuntime({ env: { SMTP_URL: smtp.url, RUN_WORKER: 'false' } });
});

afterAll(async () => {
  await runtime?.stop();
  await smtp?.stop();
});

describe('security headers', () => {
  it.each(['/', '/papers', '/api/health', '/api/auth/user/', '/api/nope', '/api/docs/'])(
    'are sent on %s',
    async (url) => {
      const response = await runtime.app.inject({ method: 'GET', url });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      // A self-hosted install is often reached over plain HTTP: nothing may be upgraded to HTTPS.
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      // Reset links carry their token in the URL.
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['strict-transport-security']).toBeUndefined();
    },
  );
});

describe('Cache-Control', () => {
  it('is no-store on every API answer that carries a token or personal data, and on the API errors', async () => {
    const email = 'cache@example.org';
    const password = 'cache-passw0rd';
    const post = (url: string, payload: Record<string, unknown>) =>
      runtime.app.inject({ method: 'POST', url, payload });
    const register = await post('/api/auth/register/', { email, password, password2: password });
    const verify = await post('/api/auth/verify-email/', {
      email,
      verification_code: codeFrom(await smtp.waitForMail(email)),
    });
    const login = await post('/api/auth/login/', { email, password });
    expect([register.statusCode, verify.statusCode, login.statusCode]).toEqual([201, 200, 200]);
    const authorization = `Bearer ${login.json().token}`;
    const answers = [register, verify, login, await post('/api/auth/login/', { email, password: 'wrong-passw0rd' })];
    for (const url of [
      '/api/auth/user/',
      '/articles/library/',
      '/user-keywords/',
      '/api/auth/recommendations/stats/',
    ]) {
      const answer = await runtime.app.inject({ method: 'GET', url, headers: { authorization } });
      expect(answer.statusCode, url).toBe(200);
      answers.push(answer);
    }
    answers.push(await runtime.app.inject({ method: 'GET', url: '/api/auth/user/' }));
    for (const answer of answers) expect(answer.headers['cache-control'], answer.body).toBe('no-store');
  });

  it('leaves the web app and the public settings their own caching', async () => {
    expect((await runtime.app.inject({ method: 'GET', url: '/papers' })).headers['cache-control']).toBe('no-cache');
    expect((await runtime.app.inject({ method: 'GET', url: '/api/config/' })).headers['cache-control']).toBe(
      'public, max-age=60',
    );
  });
});
