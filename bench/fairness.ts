/**
 * `pnpm bench:fairness [--clients 20] [--duration 15] [--interval-ms 1200] [--routes papers,feed,...]
 * [--modes off,on]`: does one account's traffic move another user's latency beyond its quota's effect?
 * (docs/benchmarks.md, issues 21 and 34)
 *
 * The real server on 127.0.0.1 over a fresh database (PGlite in memory, or TEST_DATABASE_URL; rate-limit
 * counters in Redis when REDIS_URL is set, else in that database) with the demo corpus and its vectors.
 * Two readers with a research profile: a "victim" who loads paper recommendations every --interval-ms
 * (a page reloaded every second or so, under its own quota) and a "hammerer" with a 300-paper library
 * (favourited, saved and rated) and a feed address, whose --clients concurrent clients request one costly
 * route back to back (each request from another client address, through X-Forwarded-For: an address
 * gives no budget), in a child process so they do not share the server's event loop. The routes
 * (ROUTES below): paper recommendations, the library export, the Atom feed, the data download, the
 * rating threshold, article and news search, own-works import. For the quotas off (every QUOTA_* 0) and
 * on (the defaults), the victim's median and p95 latency alone and while each route is hammered, and
 * what the hammerer got (200s, 429s). Loopback only, bounded by --duration per phase. Informational: no
 * test asserts timing.
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
import { sql, UserRepository } from '../packages/db/src';
import { createTestDatabase } from '../packages/db/src/testing';
import { loadConfig } from '../packages/shared/src/server';
import { createLogger, type Runtime, startRuntime } from '../server/src';
import { GENEROUS_AUTH_RATE_LIMITS } from '../server/test/test-runtime';
import { positiveInt } from './lib/cli-args';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '20' },
    duration: { type: 'string', default: '15' },
    'interval-ms': { type: 'string', default: '1200' },
    routes: { type: 'string' },
    modes: { type: 'string', default: 'off,on' },
    // Internal: the child process that plays the hammerer (a HammerTarget as JSON).
    hammer: { type: 'string' },
  },
  strict: true,
});

const CLIENTS = positiveInt('clients', args.clients);
const DURATION_S = positiveInt('duration', args.duration);
const INTERVAL_MS = positiveInt('interval-ms', args['interval-ms']);
const PAGE = '/api/auth/recommendations/papers/?top_k=20&date_filter=%E4%B8%8D%E9%99%90&similarity_threshold=0';

const BIBTEX = `@article{a, title={Graph neural networks for molecules}, author={Li, Wei}, year={2024}, journal={J. Chem.}}
@article{b, title={Protein structure with diffusion}, author={Wang, Fang}, year={2023}, journal={Nature}}`;

/** A costly route and how the hammerer asks for it; `{feed}` is the hammerer's feed address. */
interface HammerRoute {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** false: no login (the feed's token is its credential). */
  signedIn: boolean;
}
const ROUTES: Record<string, HammerRoute> = {
  papers: { method: 'GET', path: PAGE, signedIn: true },
  'library-export': { method: 'GET', path: '/articles/library/export/?format=ris', signedIn: true },
  feed: { method: 'GET', path: '{feed}', signedIn: false },
  'data-export': { method: 'GET', path: '/api/auth/user/export/', signedIn: true },
  'rating-threshold': { method: 'GET', path: '/api/auth/recommendations/rating-threshold/', signedIn: true },
  'article-search': { method: 'GET', path: '/articles/search/?q=network', signedIn: true },
  'news-search': {
    method: 'POST',
    path: '/api/news/search/',
    body: { query: '研究', search_type: 'keyword' },
    signedIn: true,
  },
  // Last: each accepted import queues an analysis the in-process worker runs for a while after.
  'own-works': {
    method: 'POST',
    path: '/api/auth/research-direction/from-library/',
    body: { file_name: 'mine.bib', content: BIBTEX },
    signedIn: true,
  },
};
const ROUTE_NAMES = args.routes ? args.routes.split(',') : Object.keys(ROUTES);
for (const name of ROUTE_NAMES) {
  if (!ROUTES[name]) {
    process.stderr.write(`--routes: unknown route ${name} (one of ${Object.keys(ROUTES).join(', ')})\n`);
    process.exit(2);
  }
}
const MODES = (args.modes ?? '').split(',').filter((mode) => mode === 'off' || mode === 'on');

interface HammerTarget {
  url: string;
  method: 'GET' | 'POST';
  body?: unknown;
  token?: string | undefined;
}

/**
 * The hammerer: CLIENTS loops of back-to-back requests for DURATION_S, each from another address
 * (X-Forwarded-For, the server trusting one proxy hop); prints the statuses it got.
 */
async function hammer(target: HammerTarget): Promise<void> {
  const deadline = Date.now() + DURATION_S * 1000;
  const statuses: Record<string, number> = {};
  let n = 0;
  const loop = async () => {
    while (Date.now() < deadline) {
      n += 1;
      try {
        const response = await fetch(target.url, {
          method: target.method,
          headers: {
            'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
            ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
            ...(target.body ? { 'content-type': 'application/json' } : {}),
          },
          body: target.body ? JSON.stringify(target.body) : undefined,
        });
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
  await hammer(JSON.parse(args.hammer) as HammerTarget);
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
async function hammerInChild(target: HammerTarget): Promise<Record<string, number>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      self,
      '--hammer',
      JSON.stringify(target),
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
  // The hammerer rotates its address through X-Forwarded-For, as one behind many proxies would.
  TRUST_PROXY: 'true',
  ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
};

process.stdout.write('loading the demo corpus and its vectors ...\n');
await runDemoCommand(loadConfig(baseEnv), database, { remove: false }, () => {});

const users = new UserRepository(database.db);
const victimUser = await users.create({ email: 'victim@example.org', isEmailVerified: true });
const PROFILE = 'Graph neural networks for molecular property prediction, protein structure and drug discovery.';

/** Saves a research profile through the API (its vector too). */
async function saveProfile(address: string, token: string) {
  const saved = await fetch(`${address}/api/auth/research-direction/confirm/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ research_summary_en: PROFILE }),
  });
  if (saved.status !== 200) throw new Error(`profile save answered ${saved.status}`);
}

/**
 * A fresh hammering account for each route (no budget spent on the previous route carries over): a
 * profile, a feed address, and a library of 300 papers favourited, saved and rated (what the export,
 * the data download and the rating threshold read; bench set-up, straight into the table). A password
 * (any hash) and a verified address: feeds are served for such accounts only.
 */
let hammerers = 0;
async function newHammerer(runtime: Runtime, address: string) {
  hammerers += 1;
  const user = await users.create({
    email: `hammerer-${hammerers}@example.org`,
    isEmailVerified: true,
    passwordHash: 'bench-not-a-hash',
  });
  await database.db.execute(sql`
    INSERT INTO radar.user_article_states (user_id, paper_id, is_favorited, is_saved, rating, rated_at)
    SELECT ${user.id}::uuid, id, true, true, CASE WHEN id % 3 = 0 THEN -1 ELSE 1 END, now()
    FROM radar.papers ORDER BY id LIMIT 300`);
  const token = await runtime.app.signIn(user);
  await saveProfile(address, token);
  const feedMade = await fetch(`${address}/api/auth/delivery/feed/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const feedPath = new URL(((await feedMade.json()) as { feed_url: string }).feed_url).pathname;
  return { token, feedPath };
}

const QUOTAS_OFF = {
  QUOTA_REQUESTS_PER_MINUTE: '0',
  QUOTA_RECOMMEND_PER_MINUTE: '0',
  QUOTA_SIMILARITY_PER_MINUTE: '0',
  QUOTA_PROFILE_EDITS_PER_HOUR: '0',
  QUOTA_ARTICLE_SEARCH_PER_MINUTE: '0',
  QUOTA_NEWS_SEARCH_PER_MINUTE: '0',
  QUOTA_LIBRARY_EXPORTS_PER_MINUTE: '0',
  QUOTA_DATA_EXPORTS_PER_HOUR: '0',
  QUOTA_RATING_THRESHOLD_PER_MINUTE: '0',
  QUOTA_FEED_PER_HOUR: '0',
  QUOTA_CONCURRENT_PER_USER: '0',
};

const rows: string[] = [];
const modes = [
  ['quotas off', QUOTAS_OFF, 'off'],
  ['quotas on (defaults)', {}, 'on'],
] as const;
for (const [label, quotaEnv] of modes.filter(([, , mode]) => MODES.includes(mode))) {
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
    await saveProfile(address, victimToken);
    // Warm-up: the first requests load the model and fill caches.
    for (let i = 0; i < 3; i++)
      await (await fetch(`${address}${PAGE}`, { headers: { authorization: `Bearer ${victimToken}` } })).arrayBuffer();
    const format = (result: Awaited<ReturnType<typeof victim>>) =>
      `${result.p50.toFixed(0)} / ${result.p95.toFixed(0)}`;
    process.stdout.write(`${label}: victim alone (${DURATION_S} s) ...\n`);
    const alone = await victim(`${address}${PAGE}`, victimToken);
    rows.push(`| ${label} | (none: victim alone) | ${format(alone)} | | n ${alone.n} |`);
    for (const name of ROUTE_NAMES) {
      const route = ROUTES[name] as HammerRoute;
      const hammerer = await newHammerer(runtime, address);
      // A pause between routes: work the previous route queued (own-works analyses) or left running ends.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      process.stdout.write(
        `${label}: victim while ${CLIENTS} clients of another account hammer ${name} (${DURATION_S} s) ...\n`,
      );
      const [hammered, hammerStatuses] = await Promise.all([
        victim(`${address}${PAGE}`, victimToken),
        hammerInChild({
          url: `${address}${route.path.replace('{feed}', hammerer.feedPath)}`,
          method: route.method,
          body: route.body,
          token: route.signedIn ? hammerer.token : undefined,
        }),
      ]);
      const total = Object.values(hammerStatuses).reduce((sum, count) => sum + count, 0);
      const ratio = alone.p95 > 0 ? hammered.p95 / alone.p95 : 0;
      rows.push(
        `| ${label} | ${name} | ${format(hammered)} | ${ratio.toFixed(1)}x | n ${hammered.n}; hammerer ${JSON.stringify(hammerStatuses)} (${(total / DURATION_S).toFixed(0)}/s) |`,
      );
      process.stdout.write(`${rows.at(-1)}\n`);
    }
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
process.stdout.write('| quotas | route hammered | victim p50 / p95, ms | victim p95 / alone p95 | notes |\n');
process.stdout.write('| --- | --- | --- | --- | --- |\n');
for (const row of rows) process.stdout.write(`${row}\n`);
await database.close();
await fs.rm(dataDir, { recursive: true, force: true });
process.exit(0);
