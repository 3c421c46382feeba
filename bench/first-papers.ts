/**
 * pnpm bench:first-papers [--runs 3]
 *
 * How long a fresh install takes from a reader's first profile to their first recommended papers, with
 * no command run: the real server (startRuntime: database, in-process worker, HTTP app) on a fresh
 * database with no sources file, so the built-in catalogue runs, fetching from a local HTTP server that
 * answers with real recorded payloads (arXiv's announcement feed, a Crossref journal's works; every
 * other catalogue host gets 404, as an unreachable source would). Per run it prints, counted from the
 * answer to the profile save (PATCH /api/auth/user/ with a field and an English summary):
 *   - first fetch: the first request the catalogue makes to the local server;
 *   - stored: the first paper in the database;
 *   - recommended: the first non-empty answer of GET /api/auth/recommendations/papers/ with the window
 *     and threshold the empty page offers (不限, threshold 0), polled every 250 ms.
 * What it leaves out: the network (real hosts answer in 0.2-2 s each) and an LLM (the built-in model is
 * fitted on the first papers). TEST_DATABASE_URL and REDIS_URL choose PostgreSQL and Redis; default
 * in-memory PGlite and BullMQ on it, as `pnpm start`.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql, UserRepository } from '../packages/db/src';
import { createTestDatabase } from '../packages/db/src/testing';
import {
  RECORDED_CATALOGUE_ANSWERS,
  startRecordedCatalogueServer,
} from '../packages/ingest/src/testing/recorded-catalogue-server';
import { loadConfig } from '../packages/shared/src/server';
import { createLogger, startRuntime } from '../server/src';

const GIVE_UP_MS = 300_000;
const POLL_MS = 250;

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Math.max(1, Number.parseInt(args.runs, 10) || 3);

interface Timings {
  firstFetchMs: number | null;
  storedMs: number | null;
  recommendedMs: number | null;
  recommended: number;
}

async function oneRun(): Promise<Timings> {
  const catalogue = await startRecordedCatalogueServer();
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'radar-bench-first-papers-'));
  const database = await createTestDatabase();
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(36).toString('base64'),
    REDIS_URL: process.env.REDIS_URL || undefined,
    HOST: '127.0.0.1',
    JOURNAL_TIERS_AUTO: 'false',
    SOURCES_FILE: path.join(dataDir, 'no-sources.yaml'),
    INGEST_ARXIV_MIN_INTERVAL_MS: '100',
  });
  const runtime = await startRuntime(config, createLogger('silent'), {
    database,
    queuePrefix: `bench-${randomBytes(4).toString('hex')}`,
    recurringJobs: false,
    catalogueOriginForTests: catalogue.origin,
  });
  try {
    await runtime.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(runtime.app.server.address() as AddressInfo).port}`;
    const user = await new UserRepository(database.db).create({
      email: 'wei.zhang@mse.example.edu',
      isEmailVerified: true,
    });
    const headers = { authorization: `Bearer ${await runtime.app.signIn(user)}` };
    const saved = await fetch(`${base}/api/auth/user/`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        research_fields: ['materials-science'],
        research_summary_en:
          'Perovskite thin films, solid-state battery electrolytes and the defect chemistry of oxide semiconductors, studied by electron microscopy, X-ray diffraction and density functional theory.',
      }),
    });
    if (!saved.ok) throw new Error(`profile save answered ${saved.status}: ${await saved.text()}`);
    const start = performance.now();

    const timings: Timings = { firstFetchMs: null, storedMs: null, recommendedMs: null, recommended: 0 };
    while (performance.now() - start < GIVE_UP_MS && timings.recommendedMs === null) {
      const fetchedAt = catalogue.firstRequestAt();
      if (timings.firstFetchMs === null && fetchedAt !== null) timings.firstFetchMs = fetchedAt - start;
      if (timings.storedMs === null) {
        const { rows } = await database.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM radar.papers`);
        if ((rows[0]?.n ?? 0) > 0) timings.storedMs = performance.now() - start;
      }
      const answer = await fetch(
        `${base}/api/auth/recommendations/papers/?date_filter=${encodeURIComponent('不限')}&similarity_threshold=0`,
        { headers },
      );
      if (answer.ok) {
        const body = (await answer.json()) as { recommendations: unknown[] };
        if (body.recommendations.length > 0) {
          timings.recommendedMs = performance.now() - start;
          timings.recommended = body.recommendations.length;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return timings;
  } finally {
    await runtime.close();
    await database.close();
    await catalogue.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
  }
}

const seconds = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);

if (!RECORDED_CATALOGUE_ANSWERS.present) {
  console.error(`no recorded answers in ${RECORDED_CATALOGUE_ANSWERS.dir}`);
  process.exit(1);
}
console.log(
  `first papers after the first profile: ${runs} run(s), ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${process.env.REDIS_URL ? 'Redis' : 'BullMQ on the database'}, ${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(1)}`,
);
console.log('| run | first fetch | first paper stored | first recommendation | papers |');
console.log('| --- | ----------- | ------------------ | -------------------- | ------ |');
for (let run = 1; run <= runs; run++) {
  const t = await oneRun();
  console.log(
    `| ${run} | ${seconds(t.firstFetchMs)} | ${seconds(t.storedMs)} | ${seconds(t.recommendedMs)} | ${t.recommended} |`,
  );
}
process.exit(0);
