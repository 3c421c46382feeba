/**
 * `pnpm bench:delivery [--readers 10000] [--papers 100000] [--dim 128] [--database-url URL] [--fresh]`: an
 * hour's digests and keyword alerts for many readers at once (docs/benchmarks.md, issue 35).
 *
 * - Corpus: --papers papers (bench/synthetic-corpus.ts; titles name their cluster's topic word, which is
 *   what the keywords match) and a tenth as many news items, of one embedding model, with its HNSW
 *   indexes. Kept in `radar_bench_delivery_<papers>_d<dim>` on the server of --database-url and reused
 *   (--fresh rebuilds it).
 * - Readers (made anew each run): verified accounts with a profile vector near a cluster, three
 *   alert-enabled keywords (their cluster's topic word and two others), and a daily digest by mail at the
 *   current hour of one of four time zones, with the default /papers and /news filters.
 * - Runs the worker's delivery and keyword-alert job code (deliverDueDigests and the keyword-alerts
 *   processor, wired as worker-app.ts wires them) until no reader is due, mailing through SMTP to a
 *   sink on 127.0.0.1 in a child process.
 * - Prints the time to send everything, the mails the sink received, the database round trips per
 *   reader (the jobs' own on one pool, the recommendation pipeline's on another), and the peak RSS,
 *   each next to the issue's target.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { createAiServices } from '../packages/ai/src';
import {
  ArticleRepository,
  createAiRepositories,
  createIngestRepositories,
  type DatabaseHandle,
  DeliveryRepository,
  EmbeddingRepository,
  FollowedAuthorRepository,
  KeywordRepository,
  NewsSearchRepository,
  openDatabase,
  PaperRepository,
  RecommendationDiagnosticsRepository,
  RecommendationRepository,
  StoredSecrets,
  UserRepository,
} from '../packages/db/src';
import { ingestSettingsFromConfig } from '../packages/ingest/src';
import { createDeliveryProcessor, createKeywordAlertsProcessor, publishedPreprintsOf } from '../packages/jobs/src';
import { createMailer } from '../packages/mail/src';
import { ContentSources, createRecommendationPipelines } from '../packages/recommend/src';
import { loadConfig } from '../packages/shared/src/server';
import { createLogger } from '../server/src';
import { positiveInt } from './lib/cli-args';
import { INSERT_BATCH, insertSyntheticPapers, syntheticSpace, vectorLiteral } from './synthetic-corpus';

const { values: args } = parseArgs({
  options: {
    readers: { type: 'string', default: '10000' },
    papers: { type: 'string', default: '100000' },
    dim: { type: 'string', default: '128' },
    'database-url': { type: 'string', default: 'postgresql://postgres@127.0.0.1:5432/postgres' },
    fresh: { type: 'boolean', default: false },
  },
  strict: true,
});

const READERS = positiveInt('readers', args.readers);
const PAPERS = positiveInt('papers', args.papers);
const DIM = positiveInt('dim', args.dim);
const NEWS = Math.max(1, Math.floor(PAPERS / 10));
/** The targets. */
const TARGET_MINUTES = 10;
const TARGET_TRIPS_BEYOND_PIPELINE = 3;
const READER_EMAIL = (index: number) => `bench-delivery-${index}@example.org`;
const ZONES = ['Asia/Shanghai', 'Europe/Berlin', 'America/New_York', 'UTC'];

const space = syntheticSpace({ seed: 20261129, dim: DIM, clusters: 200 });
/** A word per cluster, letters only, so the text search indexes it as one token. */
const topic = (cluster: number) =>
  `topic${String.fromCharCode(97 + (cluster % 26))}${String.fromCharCode(97 + Math.floor(cluster / 26))}`;

const stamp = () => process.hrtime.bigint();
const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
const log = (line: string) => process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------- database

async function openBenchDatabase(): Promise<{ jobs: DatabaseHandle; pipeline: DatabaseHandle; url: string }> {
  const adminUrl = args['database-url'] as string;
  const name = `radar_bench_delivery_${PAPERS}_d${DIM}`;
  const admin = await openDatabase({ databaseUrl: adminUrl, dataDir: os.tmpdir(), poolMax: 1, migrate: false });
  const exists = (await admin.pool.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
  if (args.fresh && exists) await admin.pool.query(`DROP DATABASE ${name} WITH (FORCE)`);
  if (args.fresh || !exists) await admin.pool.query(`CREATE DATABASE ${name}`);
  await admin.close();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Two pools on one database: the round trips of the jobs and of the ranking pipeline counted apart.
  const jobs = await openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir(), poolMax: 10, migrate: true });
  const pipeline = await openDatabase({
    databaseUrl: url.toString(),
    dataDir: os.tmpdir(),
    poolMax: 10,
    migrate: false,
  });
  return { jobs, pipeline, url: url.toString() };
}

async function ensureCorpus(database: DatabaseHandle, modelId: number): Promise<void> {
  const { pool } = database;
  const count = async (table: string) =>
    Number(
      (await pool.query(`SELECT count(*) AS n FROM radar.${table} WHERE embedding_model_id = $1`, [modelId])).rows[0]
        ?.n,
    );
  const hasPapers = (await count('papers')) === PAPERS;
  const hasNews = (await count('news_items')) === NEWS;
  if (hasPapers && hasNews) {
    log(`reusing the corpus: ${PAPERS} papers, ${NEWS} news items (--fresh rebuilds it)`);
    return;
  }
  const started = stamp();
  if (!hasPapers) {
    await pool.query('TRUNCATE radar.papers CASCADE');
    await insertSyntheticPapers(pool, space, {
      count: PAPERS,
      modelId,
      title: (index, cluster) => `A ${topic(cluster)} study of ${topic(space.cluster())} number ${index}`,
      progress: (inserted) => {
        if (inserted % 20_000 === 0) log(`  ${inserted} papers`);
      },
    });
  }
  await pool.query('TRUNCATE radar.news_items CASCADE');
  for (let offset = 0; offset < NEWS; offset += INSERT_BATCH) {
    const size = Math.min(INSERT_BATCH, NEWS - offset);
    const titles: string[] = [];
    const vectors: string[] = [];
    for (let i = 0; i < size; i++) {
      const cluster = space.cluster();
      titles.push(`News on ${topic(cluster)} ${offset + i}`);
      vectors.push(vectorLiteral(space.clusteredVector(cluster)));
    }
    await pool.query(
      `INSERT INTO radar.news_items (title, content, url, url_normalized, source, publish_date, embedding, embedding_model_id)
       SELECT t, 'Synthetic news.', 'https://news.example.org/' || ($4 + o), 'news.example.org/' || ($4 + o), 'bench',
              now() - (random() * interval '30 days'), v::vector, $3
       FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(t, v, o)`,
      [titles, vectors, modelId, offset],
    );
  }
  log(`corpus loaded in ${seconds(started).toFixed(0)} s; building the HNSW indexes`);
  const indexStarted = stamp();
  await new EmbeddingRepository(database.db).ensureIndexes({ id: modelId, dimension: DIM });
  await new PaperRepository(database.db).analyze();
  log(`indexes built in ${seconds(indexStarted).toFixed(0)} s`);
}

/** The local hour now in a zone. */
const hourIn = (zone: string, now: Date) =>
  Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(now));

async function createReaders(database: DatabaseHandle, modelId: number): Promise<void> {
  const { pool } = database;
  // The database is the benchmark's own. keyword_alert_deliveries.keyword_id has no index, so deleting the
  // previous run's readers (and with them their keywords) would scan that table once per keyword: emptied first.
  await pool.query('TRUNCATE radar.keyword_alert_deliveries, radar.delivered_items');
  await pool.query(`DELETE FROM radar.users WHERE email LIKE 'bench-delivery-%'`);
  const now = new Date();
  for (let offset = 0; offset < READERS; offset += INSERT_BATCH) {
    const size = Math.min(INSERT_BATCH, READERS - offset);
    const emails: string[] = [];
    const vectors: string[] = [];
    const zones: string[] = [];
    const hours: number[] = [];
    const keywordOwners: string[] = [];
    const keywords: string[] = [];
    for (let i = 0; i < size; i++) {
      const cluster = space.cluster();
      const zone = ZONES[(offset + i) % ZONES.length] ?? 'UTC';
      emails.push(READER_EMAIL(offset + i));
      vectors.push(vectorLiteral(space.clusteredVector(cluster)));
      zones.push(zone);
      hours.push(hourIn(zone, now));
      for (const word of new Set([topic(cluster), topic(space.cluster()), topic(space.cluster())])) {
        keywordOwners.push(READER_EMAIL(offset + i));
        keywords.push(word);
      }
    }
    // One statement per batch: accounts that can sign in, their digest due this hour (the schedule set
    // yesterday, so today's slot counts) and their alert keywords, never alerted (due now).
    await pool.query(
      `WITH readers AS (
         INSERT INTO radar.users (email, is_email_verified, password_hash, research_summary_en,
                                  profile_embedding, profile_embedding_model_id, profile_embedded_at)
         SELECT e, true, 'bench-hash', 'Synthetic research profile for the delivery benchmark.', v::vector, $4, now()
         FROM unnest($1::text[], $2::text[]) AS u(e, v)
         RETURNING id, email
       ), schedules AS (
         INSERT INTO radar.delivery_settings (user_id, frequency, hour, time_zone, email_enabled, schedule_set_at)
         SELECT r.id, 'daily', s.h, s.z, true, now() - interval '1 day'
         FROM readers r JOIN unnest($1::text[], $3::text[], $5::smallint[]) AS s(e, z, h) ON s.e = r.email
       )
       INSERT INTO radar.user_keywords (user_id, name, alert_enabled, alert_frequency)
       SELECT r.id, k.name, true, 'daily' FROM readers r JOIN unnest($6::text[], $7::text[]) AS k(e, name) ON k.e = r.email`,
      [emails, vectors, zones, modelId, hours, keywordOwners, keywords],
    );
  }
}

// ------------------------------------------------------------------------------------------------ sink

async function startSink(): Promise<{ url: string; received(): Promise<number>; stop(): void }> {
  const child = fork(path.join(import.meta.dirname, 'smtp-sink-process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  const port = await new Promise<number>((resolve) =>
    child.once('message', (message) => resolve((message as { port: number }).port)),
  );
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () =>
      new Promise((resolve) => {
        child.once('message', (message) => resolve((message as { received: number }).received));
        child.send('count');
      }),
    stop: () => child.send('stop'),
  };
}

// ------------------------------------------------------------------------------------------------- run

const { jobs, pipeline: pipelineDb, url } = await openBenchDatabase();
const models = new EmbeddingRepository(jobs.db);
// Provider builtin: the configured kind, so the embedding service keeps this model active and embeds nothing.
const model = await models.registerModel({
  provider: 'builtin',
  name: 'bench-synthetic',
  version: `d${DIM}`,
  dimension: DIM,
});
await models.activateModel(model.id);
await ensureCorpus(jobs, model.id);
const setupStarted = stamp();
await createReaders(jobs, model.id);
log(`${READERS} readers created in ${seconds(setupStarted).toFixed(0)} s`);
await jobs.pool.query('VACUUM ANALYZE radar.users, radar.delivery_settings, radar.user_keywords');

const sink = await startSink();
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-bench-delivery-'));
const serverSecret = randomBytes(48).toString('base64url');
const config = loadConfig({
  DATA_DIR: dataDir,
  JWT_SECRET: serverSecret,
  DATABASE_URL: url,
  SMTP_URL: sink.url,
  LOG_LEVEL: 'warn',
});
const logger = createLogger('warn', process.stderr);
const mailer = createMailer({
  smtpUrl: config.smtpUrl,
  from: config.mailFrom,
  outboxDir: path.join(dataDir, 'outbox'),
});
/** Where the time goes: milliseconds spent in each kind of call, summed over the readers in flight. */
const busy = { ranking: 0, mail: 0, alertClaims: 0 };
async function timed<T>(kind: keyof typeof busy, work: Promise<T>): Promise<T> {
  const started = stamp();
  try {
    return await work;
  } finally {
    busy[kind] += seconds(started) * 1000;
  }
}
const mail = {
  mailer: { ...mailer, send: (message: Parameters<typeof mailer.send>[0]) => timed('mail', mailer.send(message)) },
  webBaseUrl: () => 'http://radar.bench',
  linkSecret: serverSecret,
};

// As worker-app.ts wires them: the jobs' repositories on one pool, the pipeline's on the other.
const ai = createAiServices(config, createAiRepositories(pipelineDb.db), logger);
const pipelineIngest = createIngestRepositories(pipelineDb.db);
const ingestSettings = ingestSettingsFromConfig(config);
const productPipelines = createRecommendationPipelines({
  embeddings: ai.embeddings,
  recommendations: new RecommendationRepository(pipelineDb.db),
  papers: new PaperRepository(pipelineDb.db),
  news: new NewsSearchRepository(pipelineDb.db),
  diagnostics: new RecommendationDiagnosticsRepository(pipelineDb.db),
  contentSources: new ContentSources({
    settings: ingestSettings,
    readerFields: pipelineIngest.readerFields,
    states: pipelineIngest.sourceStates,
  }),
  profile: {
    embeddings: ai.embeddings,
    users: new UserRepository(pipelineDb.db),
    error: (problem) => new Error(`no profile vector of the active model (${problem})`),
  },
  requestRelearn: async () => {},
  logger,
});
/** The product's pipelines, their ranking calls timed. */
const pipelines = (timeZone: string) => {
  const pipeline = productPipelines(timeZone);
  return new Proxy(pipeline, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (!['recommendPapers', 'recommendNews', 'alertRanking'].includes(String(property))) return value;
      return (...input: unknown[]) =>
        timed('ranking', (value as (...input: unknown[]) => Promise<unknown>).apply(target, input));
    },
  });
};
const users = new UserRepository(jobs.db);
const deliver = createDeliveryProcessor({
  deliveries: new DeliveryRepository(jobs.db, new StoredSecrets(serverSecret)),
  users,
  pipelineFor: pipelines,
  mail,
  publishedPreprints: publishedPreprintsOf(new ArticleRepository(jobs.db)),
  logger,
});
const alertPipeline = pipelines('UTC');
/** The keyword repository, its batch claims timed (one transaction per batch of readers). */
const keywords = new KeywordRepository(jobs.db);
const claimAlertDigests = keywords.claimAlertDigests.bind(keywords);
keywords.claimAlertDigests = (...input) => timed('alertClaims', claimAlertDigests(...input));
const alert = createKeywordAlertsProcessor({
  keywords,
  followedAuthors: new FollowedAuthorRepository(jobs.db),
  mail,
  logger,
  embeddings: ai.embeddings,
  users,
  ranking: (user) => alertPipeline.alertRanking(user),
});

interface Phase {
  name: string;
  seconds: number;
  readers: number;
  sent: number;
  failed: number;
  jobTrips: number;
  pipelineTrips: number;
}

/** Runs a job until a run takes nobody (every due reader done), as the hourly jobs would one after another. */
async function runUntilDone(
  name: string,
  run: () => Promise<{ readers: number; sent: number; failed: number }>,
): Promise<Phase> {
  const phase: Phase = { name, seconds: 0, readers: 0, sent: 0, failed: 0, jobTrips: 0, pipelineTrips: 0 };
  const jobTrips = jobs.roundTrips.count;
  const pipelineTrips = pipelineDb.roundTrips.count;
  const started = stamp();
  for (;;) {
    const result = await run();
    if (result.readers === 0) break;
    phase.readers += result.readers;
    phase.sent += result.sent;
    phase.failed += result.failed;
    log(`  ${name}: ${phase.readers} readers, ${phase.sent} sent, ${seconds(started).toFixed(0)} s`);
  }
  phase.seconds = seconds(started);
  phase.jobTrips = jobs.roundTrips.count - jobTrips;
  phase.pipelineTrips = pipelineDb.roundTrips.count - pipelineTrips;
  return phase;
}

const started = stamp();
const digests = await runUntilDone('digests', async () => {
  const result = await deliver({ data: {} });
  return { readers: result.readers, sent: result.mailed + result.pushed, failed: result.failed };
});
const alerts = await runUntilDone('keyword alerts', async () => {
  const result = await alert({ data: {} });
  return { readers: result.users, sent: result.mailed, failed: result.failed };
});
const totalSeconds = seconds(started);
mailer.close();
const received = await sink.received();
sink.stop();

// ---------------------------------------------------------------------------------------------- report

const peakRssMb = process.resourceUsage().maxRSS / 1024;
const perReader = (trips: number, readers: number) => (readers ? (trips / readers).toFixed(1) : '-');
log(
  `\ndelivery: PostgreSQL (${new URL(url).host}${new URL(url).pathname}), ${READERS} readers, ${PAPERS} papers + ${NEWS} news, ` +
    `dim ${DIM}, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}, ${new Date().toISOString().slice(0, 10)}`,
);
for (const phase of [digests, alerts]) {
  log(
    `${phase.name}: ${phase.readers} readers in ${phase.seconds.toFixed(1)} s (${(phase.readers / phase.seconds).toFixed(1)}/s), ` +
      `${phase.sent} sent, ${phase.failed} failed; round trips per reader: ${perReader(phase.jobTrips + phase.pipelineTrips, phase.readers)} ` +
      `in all, ${perReader(phase.jobTrips, phase.readers)} beyond the pipeline's own (target <= ${TARGET_TRIPS_BEYOND_PIPELINE})`,
  );
}
const minutes = totalSeconds / 60;
// A smaller run is projected at its rate (the per-reader work does not depend on how many are due).
const projected = (minutes * 10_000) / READERS;
log(
  READERS === 10_000
    ? `all sent in ${minutes.toFixed(1)} min (target <= ${TARGET_MINUTES} min: ${minutes <= TARGET_MINUTES ? 'met' : 'NOT met'})`
    : `all sent in ${minutes.toFixed(1)} min for ${READERS} readers; at this rate 10,000 would take ${projected.toFixed(1)} min (target <= ${TARGET_MINUTES} min)`,
);
log(`mails received by the SMTP sink: ${received} (digests ${digests.sent} + alerts ${alerts.sent})`);
log(
  `time in calls, summed over the readers in flight: ranking (pipeline) ${(busy.ranking / 1000).toFixed(0)} s, ` +
    `SMTP sends ${(busy.mail / 1000).toFixed(0)} s, of ${totalSeconds.toFixed(0)} s; keyword alert claims (summed over the batches in flight) ` +
    `${(busy.alertClaims / 1000).toFixed(0)} s of the alerts' ${alerts.seconds.toFixed(0)} s`,
);
log(`peak RSS of the benchmark process (jobs, pipeline, mailer; the sink runs apart): ${peakRssMb.toFixed(0)} MB`);

await jobs.close();
await pipelineDb.close();
await fs.rm(dataDir, { recursive: true, force: true });
