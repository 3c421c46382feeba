import { afterAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/**
 * Behind a reverse proxy that appends the connecting address to X-Forwarded-For, the per-IP limits
 * count that appended address: whatever a client writes in front of it is never its address.
 * (app.inject connects from 127.0.0.1, the proxy's address here.)
 */

const NOT_FOUND_LIMIT = 120;
const runtimes: TestRuntime[] = [];

afterAll(async () => {
  // The first server owns the database: it stops last.
  for (const runtime of runtimes.reverse()) await runtime.stop();
});

describe.each([
  ['true', 'the old meaning of "one proxy"', 7],
  ['127.0.0.1', "the proxy's address", 9],
])('TRUST_PROXY=%s (%s)', (trustProxy, _meaning, client) => {
  it('counts the address the proxy appended, not the entry the client wrote first', async () => {
    // The second server shares the first one's database (and counters, so each case has its own client
    // addresses); neither runs the in-process worker: no job here, and its start is most of a boot.
    const runtime = await startTestRuntime({
      env: { TRUST_PROXY: trustProxy, RUN_WORKER: 'false' },
      ...(runtimes[0] ? { shareWith: runtimes[0] } : {}),
    });
    runtimes.push(runtime);
    const through = (forwardedFor: string, i: number) =>
      runtime.app.inject({ method: 'GET', url: `/api/missing-${i}`, headers: { 'x-forwarded-for': forwardedFor } });

    let last = 0;
    for (let i = 0; i <= NOT_FOUND_LIMIT; i++) {
      // A new made-up first entry each time, then the client's real address as the proxy appended it.
      last = (await through(`203.0.113.${i % 250}, 198.51.100.${client}`, i)).statusCode;
    }
    expect(last).toBe(429);
    // Another real client behind the same proxy is counted on its own.
    expect((await through(`203.0.113.1, 198.51.100.${client + 1}`, 0)).statusCode).toBe(404);
  });
});
