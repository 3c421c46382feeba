import fs from 'node:fs/promises';
import path from 'node:path';
import { seededRandom } from '@radar/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKEND_MEMORY_PRIMER,
  backendPoolOptions,
  corpusScale,
  type EmbeddingModelRow,
  EmbeddingRepository,
  EstimateCache,
  embeddingIndexName,
  hnswBuildMemory,
  type NearestPapersQuery,
  PaperRepository,
  prepareNearest,
  routedNearest,
  VectorRepository,
  wrapPool,
} from '../src';
import { MIGRATIONS_DIR } from '../src/migrate';
import { papers as papersTable } from '../src/schema';
import { createTestDatabase, type TestDatabase } from '../src/testing';

const DIMENSION = 32;
const PAPER_COUNT = 800;
const rand = seededRandom(42);

/** Papers cluster around a few topics, like real embeddings do. */
const topics = Array.from({ length: 8 }, () => Array.from({ length: DIMENSION }, () => rand() * 2 - 1));
const vectorNear = (topic: number[], spread: number) => topic.map((value) => value + (rand() * 2 - 1) * spread);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] ?? 0) * (b[i] ?? 0);
    normA += (a[i] ?? 0) ** 2;
    normB += (b[i] ?? 0) ** 2;
  }
  return dot / Math.sqrt(normA * normB);
};

interface StoredPaper {
  id: number;
  vector: number[];
  publishedAt: string | null;
  jcrTier: number | null;
}

let database: TestDatabase;
let model: EmbeddingModelRow;
let papers: PaperRepository;
/** Every paper with a vector of `model`: the ground truth is computed from these, in JavaScript. */
const stored: StoredPaper[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const embeddings = new EmbeddingRepository(database.db);
  papers = new PaperRepository(database.db);
  model = await embeddings.registerModel({ provider: 'test', name: 'clustered', version: '1', dimension: DIMENSION });
  // A second model with another dimension: its vectors must never mix with the first model's.
  const otherModel = await embeddings.registerModel({ provider: 'test', name: 'other', version: '1', dimension: 8 });

  const tiers = [1, 2, 3, 4, null] as const;
  const rows = await papers.insertMany(
    Array.from({ length: PAPER_COUNT }, (_, index) => ({
      title: `Paper ${index}`,
      source: 'test',
      // Spread over 90 days, plus a few without a date.
      publishedAt: index % 97 === 5 ? null : daysAgo(Math.floor(rand() * 90)),
      jcrTier: tiers[index % tiers.length],
    })),
  );
  const [firstHalf, secondHalf] = [rows.slice(0, 760), rows.slice(760)];
  const vectors = new VectorRepository(database.db);
  const withVectors = firstHalf.map((row, index) => ({
    row,
    vector: vectorNear(topics[index % topics.length] ?? [], 0.6),
  }));
  await vectors.setVectors(
    'papers',
    model.id,
    withVectors.map(({ row, vector }) => ({ id: String(row.id), vector })),
  );
  for (const { row, vector } of withVectors) {
    stored.push({ id: row.id, vector, publishedAt: row.publishedAt, jcrTier: row.jcrTier });
  }
  await vectors.setVectors(
    'papers',
    otherModel.id,
    secondHalf.map((row) => ({ id: String(row.id), vector: Array.from({ length: 8 }, () => rand()) })),
  );
  await papers.analyze();
});

afterAll(async () => {
  await database?.close();
});

/** What recommend() must return, by brute force over `stored`. */
function expected(query: NearestPapersQuery) {
  const excluded = new Set(query.excludedTiers ?? []);
  const since = query.publishedSince;
  const scored = stored.map((paper) => ({ ...paper, similarity: cosine(paper.vector, query.vector) }));
  scored.sort((a, b) => b.similarity - a.similarity);
  const eligible = scored.filter(
    (paper) =>
      (!since || (paper.publishedAt !== null && paper.publishedAt >= since)) &&
      (paper.jcrTier === null || !excluded.has(paper.jcrTier)),
  );
  const result = eligible.slice(0, query.topK).filter((paper) => paper.similarity >= query.threshold);
  const filteredOut = { byDate: 0, byTier: 0, byThreshold: 0 };
  for (const paper of scored.slice(0, query.topK)) {
    if (since && (paper.publishedAt === null || paper.publishedAt < since)) filteredOut.byDate++;
    else if (paper.jcrTier !== null && excluded.has(paper.jcrTier)) filteredOut.byTier++;
    else if (paper.similarity < query.threshold) filteredOut.byThreshold++;
  }
  return { ids: result.map((paper) => paper.id), filteredOut };
}

const WINDOWS = [1, 2, 3, 7, 30, null];
const TIER_SETS = Array.from({ length: 16 }, (_, mask) => [4, 3, 2, 1].filter((_tier, bit) => mask & (1 << bit)));
const recall = (found: number[], truth: number[]) =>
  truth.length === 0 ? 1 : truth.filter((id) => found.includes(id)).length / truth.length;

describe(`paper recommendation search (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('agrees with brute force for every date window, tier combination and threshold, on each route', async () => {
    // The default routing (on 760 papers: exact whenever a filter is set), and the index walk first.
    const indexFirst = new PaperRepository(database.db, { exactSearchMaxRows: 0 });
    const probe = vectorNear(topics[2] ?? [], 0.3);
    const nearestSimilarity = Math.max(...stored.map((paper) => cosine(paper.vector, probe)));
    // A threshold nothing meets, one that cuts into the result, and none.
    const thresholds = [-1, 0.3, Math.min(1, nearestSimilarity + 0.01)];
    let worstRecall = 1;
    let combination = 0;
    for (const days of WINDOWS) {
      for (const excludedTiers of TIER_SETS) {
        combination++;
        for (const [thresholdIndex, threshold] of thresholds.entries()) {
          const query = {
            model,
            vector: probe,
            topK: 20,
            threshold,
            publishedSince: days === null ? undefined : daysAgo(days),
            excludedTiers,
          };
          const truth = expected(query);
          // The index-first route takes one threshold per combination, in turn (the threshold is applied
          // after the search, the same on every route): the sweep stays a few seconds long.
          const repositories = thresholdIndex === combination % thresholds.length ? [papers, indexFirst] : [papers];
          for (const repository of repositories) {
            const result = await repository.recommend(query);
            const ids = result.papers.map((paper) => paper.id);
            // Exactly min(topK, eligible above the threshold) rows, best first.
            expect(ids.length, JSON.stringify({ days, excludedTiers, threshold })).toBe(truth.ids.length);
            const similarities = result.papers.map((paper) => paper.similarity);
            expect([...similarities].sort((a, b) => b - a)).toEqual(similarities);
            expect(similarities.every((similarity) => similarity >= threshold)).toBe(true);
            worstRecall = Math.min(worstRecall, recall(ids, truth.ids));
            expect(result.filteredOut).toEqual(truth.filteredOut);
          }
        }
      }
    }
    expect(worstRecall).toBeGreaterThanOrEqual(0.95);
  }, 180_000);

  it('ranks the filtered rows exactly when the filters leave few papers', async () => {
    const query = { model, vector: vectorNear(topics[0] ?? [], 0.3), topK: 20, threshold: -1 };
    const smallWindow = { ...query, publishedSince: daysAgo(7), excludedTiers: [4, 3] };
    const result = await papers.recommend(smallWindow);
    expect(result.route).toBe('exact');
    expect(result.papers.map((paper) => paper.id)).toEqual(expected(smallWindow).ids);
    expect(await papers.explainRecommend(smallWindow, 'exact')).not.toContain('_hnsw');
  });

  it('walks the HNSW index when the filters leave many papers', async () => {
    const routed = new PaperRepository(database.db, { exactSearchMaxRows: 50 });
    const query = { model, vector: vectorNear(topics[1] ?? [], 0.3), topK: 20, threshold: 0.2, excludedTiers: [4] };
    const result = await routed.recommend({ ...query, publishedSince: daysAgo(60) });
    expect(result.route).toBe('index');
    expect(
      recall(
        result.papers.map((paper) => paper.id),
        expected({ ...query, publishedSince: daysAgo(60) }).ids,
      ),
    ).toBeGreaterThanOrEqual(0.95);
    // No filter but the model: straight to the index, no estimate needed.
    expect((await routed.recommend(query)).route).toBe('index');
    expect(await papers.explainRecommend(query, 'index')).toContain(`papers_embedding_m${model.id}_hnsw`);
  });

  it("reads the model's size from its index statistics with the search, and scales the walk from it", async () => {
    // Up to 250k rows the defaults hold; beyond, ef_search and the exact limit grow with sqrt(rows).
    expect([undefined, 0, 100_000, 250_000].map(corpusScale)).toEqual([1, 1, 1, 1]);
    expect(corpusScale(1_000_000)).toBe(2);
    expect(corpusScale(4_000_000)).toBe(4);

    const estimates = new EstimateCache();
    const target = {
      table: papersTable,
      id: papersTable.id,
      embedding: papersTable.embedding,
      modelId: papersTable.embeddingModelId,
    };
    const search = prepareNearest(target, { model, vector: vectorNear(topics[2] ?? [], 0.3), topK: 20 });
    expect(estimates.get(search.modelRowsKey)).toBeUndefined();
    const first = await routedNearest(database.db, search, { estimates });
    expect(first.rows).toHaveLength(20);
    // The same statement read the partial HNSW index's reltuples: this model's rows as of the last ANALYZE.
    const stats = await database.pool.query<{ rows: number }>(
      'SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = to_regclass($1)',
      [`radar.${embeddingIndexName('papers', model.id)}`],
    );
    const ofModel = await database.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM radar.papers WHERE embedding_model_id = $1',
      [model.id],
    );
    expect(Number(stats.rows[0]?.rows)).toBe(Number(ofModel.rows[0]?.n));
    expect(estimates.get(search.modelRowsKey)).toBe(Number(ofModel.rows[0]?.n));
    // A later search of a corpus said to be large walks a longer list and still returns the same top k.
    estimates.set(search.modelRowsKey, 4_000_000);
    const scaled = await routedNearest(database.db, search, { estimates });
    expect(scaled.rows.map((row) => row.id)).toEqual(first.rows.map((row) => row.id));
  });

  it('falls back to exact ranking when the index walk comes back short', async () => {
    const routed = new PaperRepository(database.db, { exactSearchMaxRows: 0 });
    // Only the papers of the last day in tier 1 or unknown: fewer than topK exist.
    const query = {
      model,
      vector: vectorNear(topics[3] ?? [], 0.3),
      topK: 50,
      threshold: -1,
      publishedSince: daysAgo(1),
      excludedTiers: [2, 3, 4],
    };
    const truth = expected(query);
    expect(truth.ids.length).toBeLessThan(50);
    const result = await routed.recommend(query);
    expect(result.route).toBe('index-then-exact');
    expect(result.papers.map((paper) => paper.id)).toEqual(truth.ids);
  });

  it('keeps papers of unknown tier and never returns another model’s vectors', async () => {
    const results = await papers.findSimilar({ model, vector: topics[1] ?? [], limit: 200 });
    const ids = new Set(results.map((paper) => paper.id));
    expect(results.some((paper) => paper.jcrTier === null)).toBe(true);
    const otherModelRows = await database.pool.query<{ id: string }>(
      'SELECT id FROM radar.papers WHERE embedding_model_id <> $1',
      [model.id],
    );
    expect(otherModelRows.rowCount).toBe(40);
    for (const row of otherModelRows.rows) expect(ids.has(Number(row.id))).toBe(false);
  });

  it('rejects a query vector of the wrong dimension and a malformed date', async () => {
    await expect(papers.findSimilar({ model, vector: [1, 2, 3], limit: 5 })).rejects.toThrow(RangeError);
    await expect(
      papers.recommend({ model, vector: topics[0] ?? [], topK: 5, threshold: 0, publishedSince: "2024-01-01'" }),
    ).rejects.toThrow(RangeError);
  });

  it("builds each model's HNSW index with m 24 and ef_construction 128, and the migration rebuilds an older one", async () => {
    const options = async () => {
      const { rows } = await database.pool.query<{ name: string; reloptions: string[] | null }>(
        `SELECT c.relname AS name, c.reloptions FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'radar' AND c.relname ~ '_embedding_m[0-9]+_hnsw$' ORDER BY c.relname`,
      );
      return rows;
    };
    const built = await options();
    expect(built.length).toBeGreaterThanOrEqual(2);
    for (const index of built) expect(index.reloptions).toEqual(['m=24', 'ef_construction=128']);

    // An index built before the parameters (pgvector's defaults), as an older installation has it.
    const name = embeddingIndexName('papers', model.id);
    await database.pool.query(`DROP INDEX radar.${name}`);
    await database.pool.query(
      `CREATE INDEX ${name} ON radar.papers USING hnsw ((embedding::vector(${DIMENSION})) vector_cosine_ops) WHERE embedding_model_id = ${model.id}`,
    );
    expect((await options()).find((index) => index.name === name)?.reloptions).toBeNull();
    const migration = await fs.readFile(path.join(MIGRATIONS_DIR, '0024_hnsw_build_parameters.sql'), 'utf8');
    await database.pool.query(migration);
    expect(await options()).toEqual(built);
    // Searches still use it.
    const results = await papers.findSimilar({ model, vector: topics[2] ?? [], limit: 10 });
    expect(results).toHaveLength(10);
  });

  it('builds a dropped index again with the same parameters, leaving the session its own maintenance_work_mem', async () => {
    const embeddings = new EmbeddingRepository(database.db);
    const setting = async () =>
      (await database.pool.query<{ value: string }>(`SELECT current_setting('maintenance_work_mem') AS value`)).rows[0]
        ?.value;
    const before = await setting();
    await embeddings.dropIndexes(model);
    const name = embeddingIndexName('papers', model.id);
    const exists = async () =>
      (await database.pool.query(`SELECT 1 FROM pg_class WHERE relname = $1`, [name])).rowCount === 1;
    expect(await exists()).toBe(false);
    await embeddings.ensureIndexes(model);
    expect(await exists()).toBe(true);
    expect(await setting()).toBe(before);
    expect(
      await papers.explainRecommend({ model, vector: topics[1] ?? [], topK: 10, threshold: 0 }, 'index'),
    ).toContain(name);
  });

  it('gives an HNSW build memory for the graph beyond the default 64 MB, at most 1 GB (256 MB in PGlite)', () => {
    expect(hnswBuildMemory(1_000, 128)).toBeUndefined();
    // 100,000 papers of 128 dimensions (a year of one field): a few hundred MB, where 64 MB built on disk.
    const hundredThousand = hnswBuildMemory(100_000, 128) ?? 0;
    expect(hundredThousand).toBeGreaterThan(150);
    expect(hundredThousand).toBeLessThan(400);
    expect(hnswBuildMemory(2_000_000, 256)).toBe(1_024);
    expect(hnswBuildMemory(2_000_000, 256, { embedded: true })).toBe(256);
  });
});

describe('connections of the pool', () => {
  it('prime each new PostgreSQL backend once, before its first query, without counting a round trip', async () => {
    const pool = new pg.Pool({ ...database.connectionConfig, max: 3, ...backendPoolOptions(database.mode) });
    const handle = wrapPool(pool, database.mode, database.connectionConfig);
    try {
      // A client straight from the pool has run nothing of ours yet: its backend's last statement is the
      // primer (external PostgreSQL), which the pool ran before handing it out.
      const clients = await Promise.all([pool.connect(), pool.connect()]);
      if (database.mode === 'external') {
        const { rows } = await database.pool.query<{ query: string }>(
          'SELECT query FROM pg_stat_activity WHERE pid = ANY($1::int[])',
          [clients.map((client) => (client as unknown as { processID: number }).processID)],
        );
        expect(rows.map((row) => row.query)).toEqual([BACKEND_MEMORY_PRIMER, BACKEND_MEMORY_PRIMER]);
      }
      const answers = await Promise.all(clients.map((client) => client.query('SELECT 41 + 1 AS n')));
      expect(answers.map((answer) => answer.rows[0]?.n)).toEqual([42, 42]);
      for (const client of clients) client.release();
      expect(handle.roundTrips.count).toBe(2);
    } finally {
      await pool.end();
    }
  });
});
