import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/**
 * Page loads of the web app are not rate limited (a campus behind one NAT address loads many pages a
 * minute), while unknown API paths keep their rate-limited JSON 404.
 */

let runtime: TestRuntime;

beforeAll(async () => {
  // No in-process worker: nothing here runs a job, and its start is most of a runtime's boot.
  runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the web app', () => {
  it('answers 250 loads of / and deep links from one address, all 200', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 250; i++) {
      const url = ['/', '/papers', '/news?page=2', '/verify-email?email=a%40b.org'][i % 4] ?? '/';
      const response = await runtime.app.inject({ method: 'GET', url, remoteAddress: '198.51.100.7' });
      statuses.add(response.statusCode);
      if (response.statusCode !== 200) break;
      expect(response.body).toContain('<div id="root">');
    }
    expect([...statuses]).toEqual([200]);
  });

  it('sends the brotli copy of an asset to a browser that accepts it, cached for good', async () => {
    const compressed = await runtime.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toContain('科研雷达');

    const plain = await runtime.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('科研雷达');
  });

  it('still answers unknown API paths with a JSON 404, rate limited', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/nope', remoteAddress: '198.51.100.8' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'NOT_FOUND', message: '请求的资源不存在' });
    let last = response.statusCode;
    for (let i = 0; i < 130 && last !== 429; i++) {
      last = (await runtime.app.inject({ method: 'GET', url: `/api/nope-${i}`, remoteAddress: '198.51.100.8' }))
        .statusCode;
    }
    expect(last).toBe(429);
  });
});
