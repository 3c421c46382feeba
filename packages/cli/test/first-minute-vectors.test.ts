import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createAiServices, createEmbeddingModels, profileEmbeddingText } from '@radar/ai';
import { precisionAtK, readLabelledCsv, syntheticPapers, tfidfBaselinePrecision } from '@radar/ai/testing';
import {
  createAiRepositories,
  type DatabaseHandle,
  EmbeddingRepository,
  openDatabase,
  sql,
  UserRepository,
  VectorRepository,
} from '@radar/db';
import { createMigratedDataDir, createTestDatabase, sharedFixturesDir, testDatabaseUrl } from '@radar/db/testing';
import { createQueueConnection, startWorkerApp } from '@radar/jobs';
import { arxivAtomFeed } from '@radar/jobs/testing';
import { loadConfig } from '@radar/shared/server';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { runRadar } from './run-radar';

/**
 * Issue 10, "vectors that are good from the first minute": the labelled dev set imported on a fresh
 * install with `pnpm radar ingest arxiv --file` and no other command (no worker, no reembed) must
 * leave vectors that rank as well as plain tf-idf. Measured through the product: the paper vectors
 * the command stored with the active model, and each paper's title + abstract embedded as a research
 * profile with that model, as `pnpm bench:quality` makes its queries.
 *
 * The dev set lists a paper cross-listed in several categories once per category (800 rows, 673
 * papers); arXiv's answers list such a paper once with all its categories, and ingestion stores it
 * once. So the file holds each paper once, and a result is relevant when it shares a category with
 * the query; the tf-idf baseline is measured on the same papers with the same rule.
 */

const DEV_SET = path.join(sharedFixturesDir(), 'eval/arxiv_cs_4class_balanced_800.csv');
const hasDevSet = fs.existsSync(DEV_SET);
if (!hasDevSet) console.warn(`skipping the first-minute vectors test: ${DEV_SET} does not exist (CI has it)`);

interface DevPaper {
  id: string;
  title: string;
  abstract: string;
  categories: string[];
  text: string;
}

/** One paper per title, with every category it is listed in. */
async function devSetPapers(): Promise<DevPaper[]> {
  const byTitle = new Map<string, DevPaper>();
  for (const row of await readLabelledCsv(DEV_SET)) {
    const key = row.title.toLowerCase().replace(/\s+/g, ' ');
    const known = byTitle.get(key);
    if (known) {
      if (!known.categories.includes(row.label)) known.categories.push(row.label);
      continue;
    }
    const id = `2611.${String(byTitle.size + 1).padStart(5, '0')}`;
    byTitle.set(key, { id, title: row.title, abstract: row.abstract, categories: [row.label], text: row.text });
  }
  return [...byTitle.values()];
}

/** `pnpm radar ingest arxiv --file` (in this process: see run-radar.ts). */
async function radarIngest(file: string, env: Record<string, string>) {
  // No REDIS_URL: jobs stay in the database under test; no EMBEDDING_*: the built-in embedder.
  const started = Date.now();
  const run = await runRadar(['ingest', 'arxiv', '--file', file], { LOG_LEVEL: 'silent', ...env });
  return { ...run, seconds: (Date.now() - started) / 1000 };
}

/** precision@20 of the stored vectors of the active model, and what the command left undone. */
async function measureStoredVectors(database: DatabaseHandle, papers: DevPaper[]) {
  const active = await new EmbeddingRepository(database.db).getActiveModel();
  if (!active) throw new Error('no active embedding model');
  const stale = await new VectorRepository(database.db).countStale(active.id);
  const rows = await database.db.execute<{ arxiv_id: string; embedding: string }>(
    sql`SELECT arxiv_id, embedding::text AS embedding FROM radar.papers WHERE embedding_model_id = ${active.id}`,
  );
  const stored = new Map(rows.rows.map((row) => [row.arxiv_id, JSON.parse(row.embedding) as number[]]));
  const documents = papers.map((paper) => stored.get(paper.id) ?? []);
  const provider = await createEmbeddingModels(loadConfig({}), createAiRepositories(database.db)).active();
  const queries = await provider.embed(papers.map((paper) => profileEmbeddingText(paper.text)));
  const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);
  const precision = precisionAtK(
    papers.map((paper) => paper.categories),
    (q, d) => dot(queries[q] as number[], documents[d] as number[]),
  );
  return { active, stale, storedPapers: stored.size, precision };
}

describe.skipIf(!hasDevSet)('vectors good from the first minute (labelled dev set)', () => {
  it('pnpm radar ingest arxiv --file alone fits the built-in model and ranks at least as well as tf-idf', async () => {
    const papers = await devSetPapers();
    const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'radar-first-minute-'));
    const file = path.join(tmp, 'dev-set.atom.xml');
    await fsp.writeFile(
      file,
      arxivAtomFeed(
        papers.map((paper, i) => ({
          ...paper,
          published: new Date(Date.UTC(2026, 10, 20) - i * 60_000).toISOString().replace('.000', ''),
          authors: ['A. Author', 'B. Author'],
        })),
      ),
    );
    const external = testDatabaseUrl() ? await createTestDatabase() : undefined;
    // Embedded: a migrated DATA_DIR with nothing in it (its initdb and migrations are not measured here).
    const dataDir = external ? tmp : await createMigratedDataDir();
    let database: DatabaseHandle | undefined;
    try {
      let userId: string | undefined;
      if (external) {
        // A profile confirmed before the first fit: it must end on the new model too.
        const user = await new UserRepository(external.db).create({
          email: 'first-minute@example.org',
          researchSummaryEn: (papers[0] as DevPaper).text,
        });
        userId = user.id;
      }
      const run = await radarIngest(
        file,
        external
          ? { DATA_DIR: dataDir, DATABASE_URL: String(external.connectionConfig.connectionString) }
          : { DATA_DIR: dataDir },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`arxiv-file: added ${papers.length}, updated 0, skipped 0, rejected 0`);
      // The first fit is made from the file before storing, so the papers are inserted with their
      // vectors: the re-embedding after the import has only the profile confirmed before it.
      expect(run.stdout).toMatch(
        /^fitted the built-in model on \d+ documents \(the file's first works; 32 dimensions\)/m,
      );
      expect(run.stdout).toContain(`to embed:     ${external ? 1 : 0} user profiles, 0 papers, 0 news items`);
      expect(run.stdout).toMatch(/active model: builtin\/tfidf-lsa@[0-9a-f]{12} \(32 dimensions\)/);

      database = external ?? (await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 2, migrate: false }));
      const measured = await measureStoredVectors(database, papers);
      const baseline = tfidfBaselinePrecision(papers.map((paper) => ({ text: paper.text, label: paper.categories })));
      console.info(
        `first-minute vectors (${external ? 'PostgreSQL' : 'embedded'}): ${papers.length} papers ingested, fitted and embedded in ${run.seconds.toFixed(1)} s; precision@20 ${measured.precision.toFixed(4)} (${measured.active.name}, ${measured.active.dimension} d) vs tf-idf baseline ${baseline.toFixed(4)}`,
      );

      expect(measured.active).toMatchObject({ provider: 'builtin', name: 'tfidf-lsa' });
      expect(measured.storedPapers).toBe(papers.length);
      expect(measured.stale).toEqual({ users: 0, papers: 0, news: 0 });
      // The issue's bar: the tf-idf baseline's precision@20 on the same papers (no tolerance needed:
      // the built-in model measures about 6 points above it here; hashing measured 7 points below).
      expect(measured.precision).toBeGreaterThanOrEqual(baseline);
      if (userId) {
        const user = await new UserRepository(external?.db ?? database.db).findById(userId);
        expect(user?.profileEmbeddingModelId).toBe(measured.active.id);
      }
    } finally {
      await database?.close();
      await fsp.rm(tmp, { recursive: true, force: true });
      await fsp.rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

describe.runIf(testDatabaseUrl())('pnpm radar ingest beside a running worker (DATABASE_URL)', () => {
  it('queues the vectors and the first fit for the worker, which does them', async () => {
    const database = await createTestDatabase();
    const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'radar-first-minute-worker-'));
    const logger = pino({ level: 'silent' });
    // The CLI's queues: jobs in this database (no REDIS_URL), the default QUEUE_PREFIX.
    const app = await startWorkerApp({
      connection: createQueueConnection({ redisUrl: undefined, postgres: database.connectionConfig }),
      database,
      concurrency: 1,
      logger,
      ai: createAiServices(loadConfig({}), createAiRepositories(database.db), logger),
    });
    try {
      const file = path.join(tmp, 'papers.atom.xml');
      const papers = syntheticPapers(60).map((paper, i) => ({
        id: `2611.${String(20_001 + i)}`,
        title: paper.title,
        abstract: paper.abstract,
        categories: ['cs.LG'],
        published: '2026-11-20T00:00:00Z',
        authors: ['A. Author'],
      }));
      await fsp.writeFile(file, arxivAtomFeed(papers));
      const run = await radarIngest(file, {
        DATA_DIR: tmp,
        DATABASE_URL: String(database.connectionConfig.connectionString),
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('arxiv-file: added 60');
      expect(run.stdout).toMatch(
        /^queued 1 embedding job, a refit of the built-in embedding model \(first fit\); the running worker does them/m,
      );
      expect(run.stdout).not.toMatch(/^embedded /m);

      const models = new EmbeddingRepository(database.db);
      const vectors = new VectorRepository(database.db);
      const deadline = Date.now() + 60_000;
      for (;;) {
        const model = await models.getActiveModel();
        const stale = model ? await vectors.countStale(model.id) : undefined;
        if (model?.name === 'tfidf-lsa' && stale?.papers === 0) break;
        if (Date.now() > deadline)
          throw new Error(`the worker did not fit and embed: ${model?.name}, ${JSON.stringify(stale)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      await app.close();
      await database.close();
      await fsp.rm(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});
