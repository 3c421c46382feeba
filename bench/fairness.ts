/**
 * `pnpm bench:fairness [--clients 20] [--duration 30] [--interval-ms 1200]`: does one account's traffic
 * move another user's latency beyond its quota's effect? (docs/benchmarks.md, issue 21)
 *
 * The real server on 127.0.0.1 over a fresh database (PGlite in memory, or TEST_DATABASE_URL; rate-limit
 * counters in Redis when REDIS_URL is set, else in that database) with the demo corpus and its vectors.
 * Two readers with a research profile: a "victim" who loads paper recommendations every --interval-ms
 * (a page reloaded every second or so, under its own quota) and a "hammerer" whose --clients concurrent
 * clients request the same page back to back, in a child process so they do not share the server's event
 * loop. For the quotas off (every QUOTA_* 0) and on (the defaults), the victim's median and p95 latency
 * alone and while the hammerer runs, and what the hammerer got (200s, 429s). Loopback only, bounded by
 * --duration per phase. Informational: no test asserts timing.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { runDemoCommand } from '../packages/cli/src/commands/ingest.command';
import { UserRepository } from '../packages/db/src';
import { createTestDatabase } from '../packages/db/src/testing';
import { loadConfig } from '../packages/shared/src/server';
import { createLogger, startRuntime } from '../server/src';
import { GENEROUS_AUTH_RATE_LIMITS } from '../server/test/test-runtime';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '20' },
    duration: { type: 'string', default: '30' },
    'interval-ms': { type: 'string', default: '1200' },
    // Internal: the child process that plays the hammerer.
    hammer: { type: 'string' },
    token: { type: 'string' },
  },
  strict: true,
});

const positiveInt = (name: string, value: string | undefined): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) {
    process.stderr.write(`--${name} must be a positive integer, got ${value}\n`);
    process.exit(2);
  }
  return parsed;
};
const CLIENTS = positiveInt('clients', args.clients);
const DURATION_S = positiveInt('duration', args.duration);
const INTERVAL_MS = positiveInt('interval-ms', args['interval-ms']);
const PAGE = '/api/auth/recommendations/papers/?top_k=20&date_filter=%E4%B8%8D%E9%99%90&similarity_threshold=0';

/** The hammerer: CLIENTS loops of back-to-back requests for DURATION_S; prints the statuses it got. */
async function hammer(url: string, token: string): Promise<void> {
  const deadline = Date.now() + DURATION_S * 1000;
  const statuses: Record<string, number> = {};
  const loop = async () => {
    while (Date.now() < deadline) {
      try {
        const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        await response.arrayBuffer();
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      } catch {
        statuses.error = (statuses.error ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, loop));
  process.stdout.write(JSON.stringify(statuses));
}

if (args.hammer) {
  await hammer(args.hammer, args.token ?? '');
  process.exit(0);
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0) : 0;

/** The victim: one request every INTERVAL_MS for DURATION_S; latencies of the answers it got. */
async function victim(url: string, token: string) {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const deadline = Date.now() + DURATION_S * 1000;
  while (Date.now() < deadline) {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, INTERVAL_MS - (performance.now() - started))));
  }
  latencies.sort((a, b) => a - b);
  return { n: latencies.length, p50: percentile(latencies, 50), p95: percentile(latencies, 95), statuses };
}

const self = fileURLToPath(import.meta.url);
async function hammerInChild(url: string, token: string): Promise<Record<string, number>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      self,
      '--hammer',
      url,
      '--token',
      token,
      '--clients',
      String(CLIENTS),
      '--duration',
      String(DURATION_S),
    ],
    { maxBuffer: 1024 * 1024 },
  );
  return JSON.parse(stdout) as Record<string, number>;
}

const silent = new Writable({ write: (_chunk, _encoding, callback) => callback() });
const database = await createTestDatabase();
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-bench-fairness-'));
const jwtSecret = randomBytes(48).toString('base64url');
const baseEnv = {
  DATA_DIR: dataDir,
  JWT_SECRET: jwtSecret,
  INGEST_ENABLED: 'false',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
};

process.stdout.write('loading the demo corpus and its vectors ...\n');
await runDemoCommand(loadConfig(baseEnv), database, { remove: false }, () => {});

const users = new UserRepository(database.db);
const victimUser = await users.create({ email: 'victim@example.org', isEmailVerified: true });
const hammererUser = await users.create({ email: 'hammerer@example.org', isEmailVerified: true });

const QUOTAS_OFF = {
  QUOTA_REQUESTS_PER_MINUTE: '0',
  QUOTA_RECOMMEND_PER_MINUTE: '0',
  QUOTA_SIMILARITY_PER_MINUTE: '0',
  QUOTA_PROFILE_EDITS_PER_HOUR: '0',
  QUOTA_CONCURRENT_PER_USER: '0',
};

const rows: string[] = [];
for (const [label, quotaEnv] of [
  ['quotas off', QUOTAS_OFF],
  ['quotas on (defaults)', {}],
] as const) {
  const config = loadConfig({ ...baseEnv, PORT: '0', ...quotaEnv });
  const runtime = await startRuntime(config, createLogger(config.logLevel, silent), {
    database,
    webDistDir: '',
    queuePrefix: `bench-fair-${randomBytes(3).toString('hex')}`,
    authRateLimits: GENEROUS_AUTH_RATE_LIMITS,
    recurringJobs: false,
  });
  try {
    const address = await runtime.app.listen({ host: '127.0.0.1', port: 0 });
    const victimToken = await runtime.app.signIn(victimUser);
    const hammererToken = await runtime.app.signIn(hammererUser);
    for (const token of [victimToken, hammererToken]) {
      const saved = await fetch(`${address}/api/auth/research-direction/confirm/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          research_summary_en:
            'Graph neural networks for molecular property prediction, protein structure and drug discovery.',
        }),
      });
      if (saved.status !== 200) throw new Error(`profile save answered ${saved.status}`);
    }
    // Warm-up: the first requests load the model and fill caches.
    for (let i = 0; i < 3; i++)
      await (await fetch(`${address}${PAGE}`, { headers: { authorization: `Bearer ${victimToken}` } })).arrayBuffer();
    process.stdout.write(`${label}: victim alone (${DURATION_S} s) ...\n`);
    const alone = await victim(`${address}${PAGE}`, victimToken);
    process.stdout.write(`${label}: victim while ${CLIENTS} clients of another account hammer (${DURATION_S} s) ...\n`);
    const [hammered, hammerStatuses] = await Promise.all([
      victim(`${address}${PAGE}`, victimToken),
      hammerInChild(`${address}${PAGE}`, hammererToken),
    ]);
    const format = (result: Awaited<ReturnType<typeof victim>>) =>
      `${result.p50.toFixed(1)} / ${result.p95.toFixed(1)} ms (n ${result.n}, ${JSON.stringify(result.statuses)})`;
    rows.push(
      `| ${label} | ${format(alone)} | ${format(hammered)} | ${JSON.stringify(hammerStatuses)} (${(
        Object.values(hammerStatuses).reduce((sum, count) => sum + count, 0) / DURATION_S
      ).toFixed(0)}/s) |`,
    );
  } finally {
    await runtime.close();
  }
}

process.stdout.write(
  `\n${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')}, ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, counters in ${
    process.env.REDIS_URL ? 'Redis' : 'the database'
  }\n`,
);
process.stdout.write('| quotas | victim alone p50 / p95 | victim while hammered p50 / p95 | hammerer got |\n');
process.stdout.write('| --- | --- | --- | --- |\n');
for (const row of rows) process.stdout.write(`${row}\n`);
await database.close();
await fs.rm(dataDir, { recursive: true, force: true });
process.exit(0);
