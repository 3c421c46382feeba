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
  runtime = await startTestRuntime({ httpTimeouts: { requestMs: 400, headersMs: 400, checkIntervalMs: 100 } });
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
