import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_TIMEOUTS, httpServerOptions } from '../src/http-timeouts';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/**
 * Slow clients are cut off: a body or headers sent a byte at a time no longer hold a socket for as
 * long as the client likes. The timeouts are shortened here; production uses DEFAULT_HTTP_TIMEOUTS.
 */

let runtime: TestRuntime;
let port: number;
/** Destroyed before the server stops, should a test fail with its connection still open. */
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  // No in-process worker: nothing here runs a job, and its start is most of a runtime's boot.
  runtime = await startTestRuntime({
    env: { RUN_WORKER: 'false' },
    httpTimeouts: { requestMs: 400, headersMs: 400, checkIntervalMs: 100 },
  });
  await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  port = (runtime.app.server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await runtime?.stop();
});

/**
 * Opens a connection, sends `head`, then one byte of `trickle` every 100 ms, as long as the server
 * keeps the connection. Resolves with what the server sent once it closes the connection.
 */
function sendSlowly(head: string, trickle: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    sockets.add(socket);
    let received = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (!socket.destroyed && socket.writable) socket.write(trickle[sent++ % trickle.length] ?? ' ');
      }, 100);
    });
    socket.on('data', (chunk) => {
      received += chunk;
    });
    // Writes after the server closed its side fail with EPIPE / ECONNRESET: the connection is gone either way.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      resolve(received);
    });
  });
}

describe('a slow client', { timeout: 20_000 }, () => {
  it('sending its body a byte at a time is answered 408 and disconnected', async () => {
    const received = await sendSlowly(
      'POST /api/auth/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
      '"email": "slow@example.org", ',
    );
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(received).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toEqual({
      code: 'BAD_REQUEST',
      message: '请求发送超时，请检查网络后重试',
    });
  });

  it('sending its headers a byte at a time is disconnected', async () => {
    const received = await sendSlowly('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: aaaaaaaaaaaaaaaa');
    expect(received).not.toMatch(/^HTTP\/1\.1 200/);
  });

  it('still gets normal requests answered', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(response.status).toBe(200);
  });
});

describe('default HTTP timeouts', () => {
  it('limit requests and headers, and keep idle sockets past the slowest handler', () => {
    const options = httpServerOptions(undefined, 600_000);
    expect(options.requestTimeout).toBe(DEFAULT_HTTP_TIMEOUTS.requestMs);
    expect(options.requestTimeout).toBeGreaterThan(0);
    expect(options.http.headersTimeout).toBeLessThanOrEqual(options.requestTimeout);
    expect(options.keepAliveTimeout).toBeGreaterThan(60_000);
    // The synchronous analysis may run up to LLM_TIMEOUT_MS without sending anything.
    expect(options.connectionTimeout).toBeGreaterThan(600_000);
    expect(httpServerOptions(undefined, 0).connectionTimeout).toBe(DEFAULT_HTTP_TIMEOUTS.idleSocketMs);
  });
});

/**
 * Sends each request on one keep-alive connection, the next once an answer to the last has arrived;
 * resolves with everything received once the server closes the connection.
 */
function exchange(...requests: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const pending = [...requests];
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(pending.shift() ?? ''));
    sockets.add(socket);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      received += chunk;
      const next = pending.shift();
      if (next) socket.write(next);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => {
      sockets.delete(socket);
      resolve(received);
    });
  });
}

describe('requests Node refuses before any route', { timeout: 20_000 }, () => {
  it('headers over 16 kB on a keep-alive connection: 431 in the error shape, with Connection: close', async () => {
    const health = 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n';
    const oversized = `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nCookie: c=${'x'.repeat(17 * 1024)}\r\n\r\n`;
    const received = await exchange(health, oversized);
    // The first request is answered normally, the second refused, and the server says it closes.
    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
    const refused = answers[1] ?? '';
    expect(refused).toMatch(/^HTTP\/1\.1 431 /);
    expect(refused).toMatch(/\r\nConnection: close\r\n/i);
    expect(refused).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/i);
    expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))).toEqual({
      code: 'BAD_REQUEST',
      message: '请求头过大，请清除本站的 Cookie 后重试',
    });
  });

  it('an unparsable request: 400 in the error shape, with Connection: close', async () => {
    const received = await exchange('NOT HTTP AT ALL\r\n\r\n');
    expect(received).toMatch(/^HTTP\/1\.1 400 /);
    expect(received).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'BAD_REQUEST' });
  });
});
