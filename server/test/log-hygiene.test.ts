import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src';
import { codeFrom, resetLinkFrom, SmtpSink } from './smtp-sink';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/**
 * A whole account life over real HTTP with the logs at debug level: register, verify with the mailed code,
 * log in, use the token, forget and reset the password, log in again. Not one secret of it may reach the
 * logs, and every request's lines carry its request id.
 */

let runtime: TestRuntime;
let smtp: SmtpSink;
let baseUrl: string;
const EMAIL = 'hygiene@example.org';
const PASSWORD = 'c0rrect-h0rse-battery';
const NEW_PASSWORD = 'n3w-stapl3-passphrase';

async function call(
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown>; requestId: string | null }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(options.body ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    requestId: response.headers.get('x-request-id'),
  };
}

const parsedLines = () => runtime.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  runtime = await startTestRuntime({ env: { SMTP_URL: smtp.url, LOG_LEVEL: 'debug' } });
  await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(runtime.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await runtime?.stop();
  await smtp?.stop();
});

describe('logs of a full account life', () => {
  const secrets: string[] = [PASSWORD, NEW_PASSWORD];

  it('run: register, verify, log in, reset, log in again', async () => {
    const register = await call('POST', '/api/auth/register/', {
      body: { email: EMAIL, password: PASSWORD, password2: PASSWORD },
    });
    expect(register.status).toBeLessThan(300);
    const code = codeFrom(await smtp.waitForMail(EMAIL));
    const verified = await call('POST', '/api/auth/verify-email/', { body: { email: EMAIL, verification_code: code } });
    expect(verified.status).toBe(200);

    const login = await call('POST', '/api/auth/login/', { body: { email: EMAIL, password: PASSWORD } });
    expect(login.status).toBe(200);
    const jwt = String(login.body.token);
    const me = await call('GET', '/api/auth/user/', { headers: { authorization: `Bearer ${jwt}` } });
    expect(me.status).toBe(200);

    expect((await call('POST', '/api/auth/forgot-password/', { body: { email: EMAIL } })).status).toBe(200);
    const link = resetLinkFrom(await smtp.waitForMail(EMAIL, 2));
    const resetToken = link.searchParams.get('token') ?? '';
    const reset = await call('POST', '/api/auth/reset-password/', {
      body: { token: resetToken, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
    });
    expect(reset.status).toBe(200);
    const again = await call('POST', '/api/auth/login/', { body: { email: EMAIL, password: NEW_PASSWORD } });
    expect(again.status).toBe(200);

    secrets.push(code, String(verified.body.token), jwt, String(again.body.token), resetToken, link.toString());
    secrets.push(encodeURIComponent(resetToken));
  });

  it('leaves no password, code, reset token, login token or mail text in the logs', () => {
    const logs = runtime.logLines.join('\n');
    // The run happened, at debug level, and was logged.
    expect(logs).toContain('"msg":"request completed"');
    expect(secrets).toHaveLength(9);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThanOrEqual(6);
      expect(logs).not.toContain(secret);
    }
    for (const mailText of ['验证码是', 'reset-password?token', 'Bearer ']) expect(logs).not.toContain(mailText);
  });

  it('puts a request id on every line of every request, and answers with it', () => {
    const requestLines = parsedLines().filter((line) => line.req || line.res);
    // 7 requests, each logged as it came in and as it was answered.
    expect(requestLines.length).toBeGreaterThanOrEqual(14);
    for (const line of requestLines) expect(typeof line.reqId, JSON.stringify(line)).toBe('string');
    const completed = requestLines.filter((line) => line.msg === 'request completed');
    expect(new Set(completed.map((line) => line.reqId)).size).toBe(completed.length);
  });

  it('keeps a short, plain X-Request-Id from a proxy and replaces any other', async () => {
    const kept = await call('GET', '/api/health', { headers: { 'x-request-id': 'edge-7f3a.42' } });
    expect(kept.requestId).toBe('edge-7f3a.42');
    for (const unsafe of ['a'.repeat(65), 'id with spaces', '{"forged":true}']) {
      const replaced = await call('GET', '/api/health', { headers: { 'x-request-id': unsafe } });
      expect(replaced.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(runtime.logLines.join('\n')).not.toContain(unsafe);
    }
    const keptLines = parsedLines().filter((line) => line.reqId === 'edge-7f3a.42');
    expect(keptLines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
  });
});

describe('the logger', () => {
  it('redacts credential headers and the secret fields of a logged body', () => {
    const lines: string[] = [];
    const logger = createLogger(
      'debug',
      new Writable({
        write(chunk, _encoding, callback) {
          lines.push(String(chunk));
          callback();
        },
      }),
    );
    const body = {
      email: 'kept@example.org',
      password: 'secret-1',
      password2: 'secret-2',
      confirm_password: 'secret-3',
      new_password: 'secret-4',
      token: 'secret-5',
      code: 'secret-6',
      verification_code: 'secret-7',
      reset_token: 'secret-8',
    };
    logger.info({ body, headers: { authorization: 'Bearer secret-9', cookie: 'sid=secret-10' } }, 'logged carelessly');
    logger.info({ request: { body, headers: { 'set-cookie': 'sid=secret-11' } } }, 'nested one level down');
    logger.warn({ err: { code: 'ECONNREFUSED' } }, 'error codes stay');
    const text = lines.join('');
    expect(text).not.toMatch(/secret-\d/);
    expect(text).toContain('kept@example.org');
    expect(text).toContain('ECONNREFUSED');
  });
});
