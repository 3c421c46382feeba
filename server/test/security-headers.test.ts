import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/** Security headers on the web app, the API and the API docs (the browser check is e2e/test/security-headers.test.ts). */

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});

afterAll(async () => {
  await runtime?.stop();
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
