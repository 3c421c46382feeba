/**
 * `pnpm bench:recommend [--n 100000] [--dim 128] [--mode pg|embedded] [--database-url URL] ...`: latency,
 * recall and throughput of paper recommendations over a synthetic corpus (docs/benchmarks.md).
 *
 * - Corpus: N papers whose vectors fall in 200 gaussian clusters on the unit sphere, publication dates
 *   spread over the last two years, tiers 1-4 and unknown (NULL) in equal shares, all of one registered
 *   embedding model (provider builtin, so the server takes it as the active model). Loaded with
 *   multi-row inserts, then ANALYZE, then the model's HNSW index is built (EmbeddingRepository.ensureIndexes).
 * - pg mode: a database `radar_bench_<n>_d<dim>` on the server of --database-url (default: the local
 *   one), kept afterwards and reused when it already holds the corpus (--fresh rebuilds it). embedded
 *   mode: PGlite on disk in a throw-away data directory, or in --data-dir (kept, and reused when it
 *   holds the corpus: the HNSW build takes minutes in PGlite), served over our socket server as in
 *   `pnpm start`. A corpus is reused on the day it was generated only: its dates reach back from that
 *   day, and the short windows' cells would hold fewer papers on a later one.
 * - The per-user quotas are counted as in production (every signed-in request, and the recommendation
 *   budget), with budgets the load test cannot reach; "counter trips" are the round trips one request
 *   spent on them (0 where they are counted in memory: embedded mode, docs/decisions.md).
 * - Per date window x excluded tiers: p50/p95/p99 of PaperRepository.recommend() (the endpoint's
 *   candidate search: one round trip), the most database round trips one HTTP request made (the pool's
 *   counter), and p50/p95/p99 of the whole HTTP request GET /api/auth/recommendations/papers/ to the
 *   real server on 127.0.0.1; recall@k of the default route against `strategy: 'exact'`; rows
 *   returned vs min(k, eligible papers) (threshold -1).
 * - Throughput (autocannon in a child process, so it does not share the server's event loop) of the
 *   recommendation endpoint, of GET /api/auth/user/ and of a bare Fastify route in the same server;
 *   with this process's CPU per request served (the server and, embedded, PGlite: what bounds the
 *   throughput, and far steadier than req/s on a loaded machine); then this process's memory (RSS,
 *   JavaScript heap, PGlite's WebAssembly memory): the server, its database (embedded) and the bench's
 *   own few objects.
 * - Issue 35's targets are printed next to the figures: recommendations at >= 1/100 of the bare
 *   route's throughput, HTTP p95 <= 30 ms in every cell, RSS <= 600 MB serving 20k papers (embedded).
 * - Where the time goes: --cpu-profile DIR writes a V8 CPU profile of this process (the server and, in
 *   embedded mode, PGlite; autocannon runs in its own) during each recommendation load test of the
 *   first round, for Chrome DevTools or `node bench/cpu-profile-summary.ts FILE`.
 * - --explain: EXPLAIN (ANALYZE, BUFFERS) of the exact statements recommend() sent for the slowest cell.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs, promisify } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import cliProgress from 'cli-progress';
import {
  type DatabaseHandle,
  EmbeddingRepository,
  embeddingIndexName,
  type NearestPapersQuery,
  openDatabase,
  PaperRepository,
  UserRepository,
  wrapPool,
} from '../packages/db/src';
import { DATE_FILTERS, windowFirstDay } from '../packages/shared/src';
import { loadConfig } from '../packages/shared/src/server';
import { createLogger, startRuntime } from '../server/src';
import { positiveInt } from './lib/cli-args';
import { insertSyntheticPapers, syntheticSpace } from './synthetic-corpus';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '100000' },
    dim: { type: 'string', default: '128' },
    mode: { type: 'string', default: 'pg' },
    'database-url': { type: 'string', default: 'postgresql://postgres@127.0.0.1:5432/postgres' },
    k: { type: 'string', default: '20' },
    queries: { type: 'string', default: '30' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    fresh: { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
    'skip-load-test': { type: 'boolean', default: false },
    'data-dir': { type: 'string' },
    'cpu-profile': { type: 'string' },
  },
  strict: true,
});

const N = positiveInt('n', args.n);
const DIM = positiveInt('dim', args.dim);
const K = positiveInt('k', args.k);
const QUERIES = positiveInt('queries', args.queries);
const DURATION = positiveInt('duration', args.duration);
const CONNECTIONS = positiveInt('connections', args.connections);
if (args.mode !== 'pg' && args.mode !== 'embedded') {
  process.stderr.write(`--mode must be pg or embedded, got ${args.mode}\n`);
  process.exit(2);
}
const MODE = args.mode;
/** Issue 35's targets, printed next to the figures. */
const HTTP_P95_TARGET_MS = 30;
const RSS_TARGET_MB = 600;

// Deterministic data: the same flags give the same corpus and queries.
const space = syntheticSpace({ seed: 20261123, dim: DIM, clusters: 200 });
const clusteredVector = () => space.clusteredVector();

const percentile = (sorted: number[], p: number) =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0) : 0;
const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);
const stamp = () => process.hrtime.bigint();
const since = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

function printTable(headers: string[], rows: (string | number)[][]): void {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => displayWidth(row[column] ?? ''))));
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => cell + ' '.repeat((widths[column] ?? 0) - displayWidth(cell))).join(' | ')} |`;
  process.stdout.write(`${line(headers)}\n| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |\n`);
  for (const row of cells.slice(1)) process.stdout.write(`${line(row)}\n`);
}
/** CJK characters take two columns in a terminal. */
const displayWidth = (text: string) =>
  [...text].reduce((width, char) => width + (/[\u3000-\u9fff]/.test(char) ? 2 : 1), 0);

// ---------------------------------------------------------------------------------------------- database

interface BenchDatabase {
  handle: DatabaseHandle;
  /** A second connection for the index build's settings and progress (pg only). */
  admin?: DatabaseHandle;
  /** The PostgreSQL database (pg mode). */
  url?: string;
  name: string;
  close(): Promise<void>;
}

async function openBenchDatabase(): Promise<BenchDatabase> {
  if (MODE === 'embedded') {
    // As `pnpm start` runs it: PGlite on disk in a data directory, served over our socket server.
    const kept = args['data-dir'];
    if (kept) await fs.mkdir(kept, { recursive: true });
    const dataDir = kept ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'radar-bench-pglite-')));
    const handle = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 10, migrate: true });
    return {
      handle,
      name: kept ? `PGlite on disk in ${kept}` : 'PGlite on disk',
      async close() {
        await handle.close();
        if (!kept) await fs.rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = args['database-url'] as string;
  const name = `radar_bench_${N}_d${DIM}`;
  const admin = await openDatabase({ databaseUrl: adminUrl, dataDir: os.tmpdir(), poolMax: 1, migrate: false });
  const exists = (await admin.pool.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
  if (args.fresh && exists) await admin.pool.query(`DROP DATABASE ${name} WITH (FORCE)`);
  if (args.fresh || !exists) await admin.pool.query(`CREATE DATABASE ${name}`);
  await admin.close();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir(), poolMax: 10, migrate: true });
  const second = await openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir(), poolMax: 1, migrate: false });
  return {
    handle,
    admin: second,
    url: url.toString(),
    name: `${url.host}/${name}`,
    async close() {
      await second.close();
      await handle.close();
    },
  };
}

// ------------------------------------------------------------------------------------------------ corpus

/** Progress lines every 10 s when the output is a file rather than a terminal. */
const NOT_TTY = { noTTYOutput: true, notTTYSchedule: 10_000 };

async function loadCorpus(database: BenchDatabase, modelId: number): Promise<{ loadSeconds: number }> {
  const { pool } = database.handle;
  await pool.query('TRUNCATE radar.papers CASCADE');
  // Built after loading: inserting into a live HNSW index is many times slower than one build.
  await pool.query(`DROP INDEX IF EXISTS radar.${embeddingIndexName('papers', modelId)}`);
  const bar = new cliProgress.SingleBar(
    { format: 'loading papers  {bar} {percentage}% | {value}/{total} | {duration_formatted}', ...NOT_TTY },
    cliProgress.Presets.shades_classic,
  );
  const started = stamp();
  bar.start(N, 0);
  await insertSyntheticPapers(pool, space, {
    count: N,
    modelId,
    progress: (inserted) => bar.update(inserted),
  });
  bar.stop();
  const loadSeconds = since(started) / 1000;
  await new PaperRepository(database.handle.db).analyze();
  return { loadSeconds };
}

/** Builds the model's HNSW index through the product's DDL, with progress from pg_stat_progress_create_index. */
async function buildIndex(database: BenchDatabase, modelId: number, dimension: number): Promise<number> {
  const builder = database.admin ?? database.handle;
  if (database.admin) {
    // The graph of 1M vectors does not fit the default 64 MB; a build that spills is several times slower.
    await builder.pool.query("SET maintenance_work_mem = '4GB'");
    await builder.pool.query('SET max_parallel_maintenance_workers = 1');
  }
  const bar = new cliProgress.SingleBar(
    { format: 'building HNSW   {bar} {percentage}% | {phase} | {duration_formatted}', ...NOT_TTY },
    cliProgress.Presets.shades_classic,
  );
  bar.start(100, 0, { phase: 'starting' });
  const started = stamp();
  const progress =
    database.admin &&
    setInterval(() => {
      database.handle.pool
        .query(
          `SELECT phase, tuples_done, tuples_total, blocks_done, blocks_total FROM pg_stat_progress_create_index
           WHERE relid = 'radar.papers'::regclass`,
        )
        .then(({ rows }) => {
          const row = rows[0] as
            | { phase: string; tuples_done: string; tuples_total: string; blocks_done: string; blocks_total: string }
            | undefined;
          if (!row) return;
          const [done, total] = Number(row.tuples_total)
            ? [Number(row.tuples_done), Number(row.tuples_total)]
            : [Number(row.blocks_done), Number(row.blocks_total)];
          bar.update(total ? Math.floor((100 * done) / total) : 0, { phase: row.phase });
        })
        .catch(() => {});
    }, 500);
  const ticker = database.admin
    ? undefined
    : setInterval(() => bar.update(0, { phase: 'building (no progress in PGlite)' }), 1000);
  try {
    await new EmbeddingRepository(builder.db).ensureIndexes({ id: modelId, dimension });
  } finally {
    if (progress) clearInterval(progress);
    if (ticker) clearInterval(ticker);
  }
  bar.update(100, { phase: 'done' });
  bar.stop();
  await new PaperRepository(database.handle.db).analyze();
  return since(started) / 1000;
}

async function relationSizes(database: BenchDatabase, modelId: number) {
  const { rows } = await database.handle.pool.query(
    `SELECT pg_size_pretty(pg_relation_size('radar.papers')) AS heap,
            pg_size_pretty(pg_total_relation_size('radar.papers')) AS total,
            pg_size_pretty(pg_relation_size(to_regclass($1))) AS hnsw,
            pg_size_pretty(pg_indexes_size('radar.papers')) AS indexes`,
    [`radar.${embeddingIndexName('papers', modelId)}`],
  );
  return rows[0] as { heap: string; total: string; hnsw: string; indexes: string };
}

// ------------------------------------------------------------------------------------------------- run

const database = await openBenchDatabase();
const models = new EmbeddingRepository(database.handle.db);
// Provider builtin: the server's configured kind, so it keeps this model active and embeds nothing.
const model = await models.registerModel({
  provider: 'builtin',
  name: 'bench-synthetic',
  version: `d${DIM}`,
  dimension: DIM,
});
await models.activateModel(model.id);

const stored = Number(
  (await database.handle.pool.query('SELECT count(*) AS n FROM radar.papers WHERE embedding_model_id = $1', [model.id]))
    .rows[0]?.n,
);
const hasIndex = Boolean(
  (await database.handle.pool.query('SELECT to_regclass($1) AS r', [`radar.${embeddingIndexName('papers', model.id)}`]))
    .rows[0]?.r,
);
// The corpus's dates reach back from the day it was generated, so its windows' cells (一天内 ...) measure
// what they did then only on that day: a corpus generated on an earlier day holds fewer papers in the short
// windows (more empty lists, whose explanation searches beyond the filters) and is generated again.
const newestDay = (
  await database.handle.pool.query<{ day: string | null }>(
    'SELECT max(published_at)::text AS day FROM radar.papers WHERE embedding_model_id = $1',
    [model.id],
  )
).rows[0]?.day;
const generatedToday = newestDay === new Date().toISOString().slice(0, 10);
let loadSeconds: number | undefined;
let indexSeconds: number | undefined;
if (stored !== N || !hasIndex || !generatedToday || args.fresh) {
  if (stored === N && hasIndex && !generatedToday && !args.fresh) {
    process.stdout.write(`${database.name} holds a corpus generated on ${newestDay}: generating today's\n`);
  }
  ({ loadSeconds } = await loadCorpus(database, model.id));
  indexSeconds = await buildIndex(database, model.id, DIM);
} else {
  process.stdout.write(`reusing ${database.name}: ${N} papers and the HNSW index are there (--fresh rebuilds)\n`);
}
const sizes = await relationSizes(database, model.id);

// Users with profile vectors of the model: one per query of a cell.
const users = new UserRepository(database.handle.db);
const benchUsers = [];
for (let i = 0; i < QUERIES; i++) {
  const email = `bench-${i}@example.org`;
  const vector = clusteredVector();
  const existing = await users.findByEmail(email);
  const values = {
    isEmailVerified: true,
    researchSummaryEn: 'Synthetic research profile for the recommendation benchmark.',
    profileEmbedding: vector,
    profileEmbeddingModelId: model.id,
    profileEmbeddedAt: new Date(),
  };
  benchUsers.push(existing ? await users.update(existing.id, values) : await users.create({ email, ...values }));
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-bench-recommend-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  JWT_SECRET: randomBytes(48).toString('base64url'),
  ...(database.url ? { DATABASE_URL: database.url } : {}),
  RUN_WORKER: 'false',
  INGEST_ENABLED: 'false',
  LOG_LEVEL: 'error',
  // The server's capacity, not the per-user quotas: with the defaults one account gets 60 recommendations
  // and 600 requests a minute, and the load test below would measure refusals (docs/decisions.md,
  // "Per-user quotas"). The budgets are still counted on every request, as in production, but too large
  // to run out; the per-request cap on parallel costly requests is off (the load test sends 10 at once
  // for one account). The per-address limits of the anonymous routes are not on these routes.
  QUOTA_REQUESTS_PER_MINUTE: '1000000',
  QUOTA_RECOMMEND_PER_MINUTE: '1000000',
  QUOTA_CONCURRENT_PER_USER: '0',
});
const silent = new Writable({ write: (_chunk, _encoding, callback) => callback() });
const runtime = await startRuntime(config, createLogger(config.logLevel, silent), {
  database: database.handle,
  webDistDir: '',
});
const { app } = runtime;
app.get('/bench/bare', async () => ({ ok: true }));
await app.listen({ host: '127.0.0.1', port: 0 });
const baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const tokens = await Promise.all(
  benchUsers.map((user) => {
    if (!user) throw new Error('bench user missing');
    return app.signIn(user);
  }),
);

const papers = new PaperRepository(database.handle.db);
const TIER_SETS: { label: string; tiers: number[] }[] = [
  { label: '4,3', tiers: [4, 3] },
  { label: 'none', tiers: [] },
];
const now = new Date();

interface Cell {
  window: string;
  tiers: string;
  eligible: number;
  sql: number[];
  http: number[];
  recall: number;
  short: number;
  routes: Map<string, number>;
  /** Most database round trips one HTTP request made (the server shares this pool). */
  trips: number;
  /** Of those, the most on rate-limit counters. */
  counterTrips: number;
  slowest: { ms: number; query: NearestPapersQuery } | undefined;
}

async function eligibleCount(publishedSince: string | undefined, tiers: number[]): Promise<number> {
  const { rows } = await database.handle.pool.query(
    `SELECT count(*) AS n FROM radar.papers WHERE embedding_model_id = $1
       AND ($2::date IS NULL OR published_at >= $2::date)
       AND (jcr_tier IS NULL OR NOT (jcr_tier = ANY($3::smallint[])))`,
    [model.id, publishedSince ?? null, tiers],
  );
  return Number(rows[0]?.n);
}

// Steady state: each bench user's first request reads the user row into the auth guard's cache (one
// more round trip, once per user and process), which would otherwise land in the first cell.
for (const token of tokens) {
  await (await fetch(`${baseUrl}/api/auth/user/`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
}

const cells: Cell[] = [];
const cellBar = new cliProgress.SingleBar(
  { format: 'measuring cells {bar} {value}/{total} | {cell}', ...NOT_TTY },
  cliProgress.Presets.shades_classic,
);
cellBar.start(DATE_FILTERS.length * TIER_SETS.length, 0, { cell: '' });
for (const filter of DATE_FILTERS) {
  const publishedSince = windowFirstDay(filter.days, now, config.timeZone);
  for (const tierSet of TIER_SETS) {
    cellBar.increment(0, { cell: `${filter.label} / ${tierSet.label}` });
    const cell: Cell = {
      window: filter.label,
      tiers: tierSet.label,
      eligible: await eligibleCount(publishedSince, tierSet.tiers),
      sql: [],
      http: [],
      recall: 0,
      short: 0,
      routes: new Map(),
      trips: 0,
      counterTrips: 0,
      slowest: undefined,
    };
    const query = `?top_k=${K}&similarity_threshold=0&excluded_jcr=${tierSet.tiers.join(',')}&date_filter=${encodeURIComponent(filter.label)}`;
    let recallSum = 0;
    for (let i = -2; i < QUERIES; i++) {
      const user = benchUsers[Math.max(i, 0)];
      const vector = user?.profileEmbedding ?? [];
      const request: NearestPapersQuery = {
        model,
        vector,
        topK: K,
        threshold: -1,
        publishedSince,
        excludedTiers: tierSet.tiers,
      };
      const sqlStart = stamp();
      const result = await papers.recommend(request);
      const sqlMs = since(sqlStart);
      const tripsBefore = database.handle.roundTrips.count;
      const counterTripsBefore = database.handle.roundTrips.rateLimitCount;
      const httpStart = stamp();
      const response = await fetch(`${baseUrl}/api/auth/recommendations/papers/${query}`, {
        headers: { authorization: `Bearer ${tokens[Math.max(i, 0)]}` },
      });
      const body = (await response.json()) as { recommendations_count?: number };
      const httpMs = since(httpStart);
      const trips = database.handle.roundTrips.count - tripsBefore;
      const counterTrips = database.handle.roundTrips.rateLimitCount - counterTripsBefore;
      if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${JSON.stringify(body)}`);
      if (i < 0) continue; // warm-up
      cell.sql.push(sqlMs);
      cell.http.push(httpMs);
      cell.trips = Math.max(cell.trips, trips);
      cell.counterTrips = Math.max(cell.counterTrips, counterTrips);
      cell.routes.set(result.route, (cell.routes.get(result.route) ?? 0) + 1);
      if (!cell.slowest || sqlMs > cell.slowest.ms) cell.slowest = { ms: sqlMs, query: request };
      const exact = await papers.recommend({ ...request, strategy: 'exact' });
      const exactIds = new Set(exact.papers.map((paper) => paper.id));
      const found = result.papers.filter((paper) => exactIds.has(paper.id)).length;
      recallSum += exactIds.size ? found / exactIds.size : 1;
      const aboveZero = result.papers.filter((paper) => paper.similarity >= 0).length;
      if (result.papers.length < Math.min(K, cell.eligible) || body.recommendations_count !== aboveZero) {
        cell.short++;
      }
    }
    cell.recall = recallSum / QUERIES;
    cell.sql.sort((x, y) => x - y);
    cell.http.sort((x, y) => x - y);
    cells.push(cell);
    cellBar.increment(1);
  }
}
cellBar.stop();

// ------------------------------------------------------------------------------------------ throughput

const require = createRequire(import.meta.url);
const autocannonBin = path.join(path.dirname(require.resolve('autocannon/package.json')), 'autocannon.js');
async function throughput(
  url: string,
  token?: string,
): Promise<{ rps: number; p99: number; errors: number; cpuMs: number }> {
  // This process's CPU (the server and, embedded, PGlite; autocannon runs in its own) per request served:
  // what bounds the throughput on one core, and far less sensitive to the machine's load than req/s.
  const cpuBefore = process.cpuUsage();
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      autocannonBin,
      '--json',
      '-c',
      String(CONNECTIONS),
      '-d',
      String(DURATION),
      ...(token ? ['-H', `authorization=Bearer ${token}`] : []),
      url,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { p99: number };
    non2xx: number;
    errors: number;
  };
  const cpu = process.cpuUsage(cpuBefore);
  const requests = result.requests.average * DURATION;
  const cpuMs = requests > 0 ? (cpu.user + cpu.system) / 1000 / requests : 0;
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.non2xx + result.errors, cpuMs };
}

/** A V8 CPU profile of this process from now until stop(file). */
async function startCpuProfile() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(file: string) {
      const { profile } = await session.post('Profiler.stop');
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

const load: { name: string; rps: number; p99: number; errors: number; cpuMs: number }[] = [];
if (!args['skip-load-test']) {
  const listener = runtime.parts.userChanges;
  const targets: { name: string; url: string; token?: string | undefined; cacheOff?: boolean }[] = [
    { name: 'bare Fastify route', url: `${baseUrl}/bench/bare` },
    { name: 'GET /api/auth/user/', url: `${baseUrl}/api/auth/user/`, token: tokens[0] },
    // The guard as it was before its cache: with the change listener down, every request reads the row.
    ...(listener
      ? [{ name: 'GET /api/auth/user/, cache off', url: `${baseUrl}/api/auth/user/`, token: tokens[0], cacheOff: true }]
      : []),
    {
      name: 'recommendations (defaults: 一周内, excl. 4,3)',
      url: `${baseUrl}/api/auth/recommendations/papers/`,
      token: tokens[0],
    },
    {
      name: 'recommendations (不限, no exclusion)',
      url: `${baseUrl}/api/auth/recommendations/papers/?excluded_jcr=&date_filter=`,
      token: tokens[0],
    },
  ];
  // Two rounds in turn, averaged: the machine's load drifts, and the ratios compare runs of one round.
  const rounds = 2;
  for (let round = 1; round <= rounds; round++) {
    for (const target of targets) {
      process.stdout.write(`autocannon ${target.name} (${CONNECTIONS} connections, ${DURATION} s, round ${round})\n`);
      if (target.cacheOff) listener?.suspend();
      const profiled = args['cpu-profile'] && round === 1 && target.name.startsWith('recommendations');
      const profiler = profiled ? await startCpuProfile() : undefined;
      const result = await throughput(target.url, target.token);
      if (profiler) {
        const file = path.join(args['cpu-profile'] as string, `${target.name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`);
        await profiler.stop(file);
        process.stdout.write(`  CPU profile: ${file}\n`);
      }
      if (target.cacheOff) await listener?.resume();
      const row = load.find((entry) => entry.name === target.name);
      if (!row) load.push({ name: target.name, ...result });
      else {
        row.rps += result.rps;
        row.p99 = Math.max(row.p99, result.p99);
        row.errors += result.errors;
        row.cpuMs += result.cpuMs;
      }
    }
  }
  for (const row of load) {
    row.rps /= rounds;
    row.cpuMs /= rounds;
  }
}

// Memory after the load test, before anything is closed: this process is the server, its database
// (embedded) and the bench's own objects (the corpus was inserted in batches, not kept).
const MB = 1024 * 1024;
const memory = process.memoryUsage();
const wasmBytes = database.handle.embeddedMemoryBytes?.();
// The heap in use right after the load holds the garbage of the last seconds' requests too, which a
// full collection frees: the live heap, to tell a growing cache from garbage not yet collected.
v8.setFlagsFromString('--expose-gc');
(vm.runInNewContext('gc') as () => void)();
const liveHeap = process.memoryUsage().heapUsed;

// What one round trip costs on this machine now (the recommendation makes several).
const roundTrips: number[] = [];
for (let i = 0; i < 200; i++) {
  const started = stamp();
  await database.handle.pool.query('SELECT 1');
  roundTrips.push(since(started));
}
roundTrips.sort((x, y) => x - y);

// ---------------------------------------------------------------------------------------------- report

process.stdout.write(
  `\nrecommendations: ${MODE === 'pg' ? 'PostgreSQL' : 'embedded PGlite'} (${database.name}), N = ${N}, dim = ${DIM}, k = ${K}, ` +
    `${QUERIES} queries per cell, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}, ${now.toISOString().slice(0, 10)}\n`,
);
if (loadSeconds !== undefined) {
  process.stdout.write(`load ${loadSeconds.toFixed(1)} s, HNSW index build ${indexSeconds?.toFixed(1)} s\n`);
}
process.stdout.write(
  `one round trip (SELECT 1): p50 ${ms(percentile(roundTrips, 50))} ms, p95 ${ms(percentile(roundTrips, 95))} ms\n`,
);
process.stdout.write(
  `sizes: papers heap ${sizes.heap}, HNSW index ${sizes.hnsw}, all indexes ${sizes.indexes}, total ${sizes.total}\n\n`,
);
printTable(
  [
    'window',
    'excl.',
    'eligible',
    'SQL p50',
    'SQL p95',
    'SQL p99',
    'HTTP p50',
    'HTTP p95',
    'HTTP p99',
    'recall@k',
    'short',
    'trips',
    'counter trips',
    'routes',
  ],
  cells.map((cell) => [
    cell.window,
    cell.tiers,
    cell.eligible,
    ms(percentile(cell.sql, 50)),
    ms(percentile(cell.sql, 95)),
    ms(percentile(cell.sql, 99)),
    ms(percentile(cell.http, 50)),
    `${ms(percentile(cell.http, 95))}${percentile(cell.http, 95) > HTTP_P95_TARGET_MS ? ' !' : ''}`,
    ms(percentile(cell.http, 99)),
    cell.recall.toFixed(3),
    `${cell.short}/${QUERIES}`,
    cell.trips,
    cell.counterTrips,
    [...cell.routes].map(([route, count]) => `${route} ${count}`).join(', '),
  ]),
);
process.stdout.write(
  '\n(ms; "short": queries that returned fewer than min(k, eligible) rows, or an HTTP count that differs; "trips": most database round trips of one HTTP request, "counter trips" those on rate-limit counters)\n',
);
const worstP95 = Math.max(...cells.map((cell) => percentile(cell.http, 95)));
process.stdout.write(
  `worst cell HTTP p95 ${ms(worstP95)} ms (target <= ${HTTP_P95_TARGET_MS} ms: ${worstP95 <= HTTP_P95_TARGET_MS ? 'met' : 'not met, cells marked !'})\n\n`,
);
if (load.length) {
  const bare = load[0]?.rps ?? 0;
  printTable(
    ['endpoint', 'req/s', 'p99 ms', 'errors', 'vs bare (target for recommendations >= 1/100)', 'CPU ms / request'],
    load.map((row) => [
      row.name,
      row.rps.toFixed(0),
      row.p99,
      row.errors,
      bare ? `1/${(bare / row.rps).toFixed(1)}` : '',
      row.cpuMs.toFixed(row.cpuMs < 1 ? 3 : 2),
    ]),
  );
}
process.stdout.write(
  `\nmemory after the load test: RSS ${(memory.rss / MB).toFixed(0)} MB (target <= ${RSS_TARGET_MB} MB serving 20k papers, embedded: ` +
    `${memory.rss / MB <= RSS_TARGET_MB ? 'met' : 'not met'}); JavaScript heap ${(memory.heapUsed / MB).toFixed(0)} of ${(memory.heapTotal / MB).toFixed(0)} MB (${(liveHeap / MB).toFixed(0)} MB live after a full collection), ` +
    `external ${(memory.external / MB).toFixed(0)} MB (array buffers ${(memory.arrayBuffers / MB).toFixed(0)} MB)` +
    `${wasmBytes === undefined ? '' : `, PGlite WebAssembly memory ${(wasmBytes / MB).toFixed(0)} MB`}\n`,
);

if (args.explain) {
  const slowest = [...cells].sort((x, y) => percentile(y.sql, 95) - percentile(x.sql, 95))[0];
  if (slowest?.slowest) {
    process.stdout.write(`\nEXPLAIN ANALYZE of the slowest query of ${slowest.window} / ${slowest.tiers}:\n`);
    process.stdout.write(`${await explainAnalyze(slowest.slowest.query)}\n`);
  }
}

/**
 * Runs recommend() on one connection whose statements are recorded, then replays them in a
 * transaction with EXPLAIN (ANALYZE, BUFFERS) in front of each SELECT that reads papers.
 */
async function explainAnalyze(request: NearestPapersQuery): Promise<string> {
  const client = await database.handle.pool.connect();
  const statements: { text: string; values: unknown[] }[] = [];
  const query = client.query.bind(client) as (...input: unknown[]) => Promise<unknown>;
  (client as unknown as { query: (...input: unknown[]) => Promise<unknown> }).query = (...input: unknown[]) => {
    const [config, values] = input as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    const text = typeof config === 'string' ? config : config.text;
    statements.push({ text, values: values ?? (typeof config === 'string' ? [] : (config.values ?? [])) });
    return query(...input);
  };
  // Drizzle over one client (not a pool) runs its transaction on that client.
  const single = wrapPool(client as never, database.handle.mode, database.handle.connectionConfig);
  try {
    await new PaperRepository(single.db).recommend(request);
  } finally {
    (client as unknown as { query: unknown }).query = query;
  }
  const out: string[] = [`recommend() sent ${statements.length} messages, each a round trip:`];
  out.push(...statements.map((statement) => `  ${statement.text.replace(/\s+/g, ' ').slice(0, 100)}`));
  // A message of several statements (settings and the search, see one-trip.ts) is replayed one by one.
  const replayed = statements.flatMap((statement) =>
    statement.values.length === 0 && statement.text.includes(';\n')
      ? statement.text.split(';\n').map((text) => ({ text, values: [] as unknown[] }))
      : [statement],
  );
  try {
    await query('BEGIN');
    for (const statement of replayed) {
      if (/^(begin|commit|rollback)/i.test(statement.text.trim())) continue;
      if (/radar"?\."?papers/i.test(statement.text) && /^\s*(with|select)/i.test(statement.text)) {
        const result = (await query(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.values)) as {
          rows: Record<string, string>[];
        };
        out.push(`-- ${statement.text.replace(/\s+/g, ' ').slice(0, 160)}...`);
        // The query vector is printed in full by PostgreSQL: shorten it.
        const plan = result.rows.map((row) => Object.values(row)[0] ?? '');
        out.push(...plan.map((line) => line.replace(/'\[[-0-9.e,]+\]'/g, `'[${DIM} values]'`)));
      } else {
        await query(statement.text, statement.values);
      }
    }
  } finally {
    await query('ROLLBACK');
    client.release();
  }
  return out.join('\n');
}

await app.close();
await runtime.close();
await database.close();
await fs.rm(dataDir, { recursive: true, force: true });
