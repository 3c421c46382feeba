import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddingModelRow, EmbeddingRepository, PaperRepository, VectorRepository } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be reproduced. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DIMENSION = 32;
const PAPER_COUNT = 800;
const rand = random(42);

/** Papers cluster around a few topics, like real embeddings do. */
const topics = Array.from({ length: 8 }, () => Array.from({ length: DIMENSION }, () => rand() * 2 - 1));
const vectorNear = (topic: number[], spread: number) => topic.map((value) => value + (rand() * 2 - 1) * spread);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

let database: TestDatabase;
let model: EmbeddingModelRow;
let papers: PaperRepository;

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
      publishedAt: daysAgo(Math.floor(rand() * 90)),
      jcrTier: tiers[index % tiers.length],
    })),
  );
  const [firstHalf, secondHalf] = [rows.slice(0, 760), rows.slice(760)];
  const vectors = new VectorRepository(database.db);
  await vectors.setVectors(
    'papers',
    model.id,
    firstHalf.map((row, index) => ({
      id: String(row.id),
      vector: vectorNear(topics[index % topics.length] ?? [], 0.6),
    })),
  );
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

describe(`similar-paper search (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('uses the HNSW index of the model', async () => {
    const plan = await papers.explainSimilar({
      model,
      vector: vectorNear(topics[0] ?? [], 0.3),
      limit: 20,
      publishedSince: daysAgo(30),
      excludedTiers: [3, 4],
      strategy: 'index',
    });
    expect(plan).toContain(`papers_embedding_m${model.id}_hnsw`);
  });

  it('returns the same rows as exact search, with a date and a tier filter', async () => {
    for (let probe = 0; probe < 6; probe++) {
      const query = {
        model,
        vector: vectorNear(topics[probe % topics.length] ?? [], 0.3),
        limit: 20,
        publishedSince: daysAgo(30),
        excludedTiers: [3, 4],
      };
      const approximate = await papers.findSimilar({ ...query, strategy: 'index' });
      const exact = await papers.findSimilar({ ...query, strategy: 'exact' });

      expect(exact).toHaveLength(20);
      expect(approximate.map((paper) => paper.id)).toEqual(exact.map((paper) => paper.id));
      for (const paper of approximate) {
        expect((paper.publishedAt ?? '') >= daysAgo(30)).toBe(true);
        expect([3, 4]).not.toContain(paper.jcrTier);
      }
      // Ordered by similarity, best first.
      const similarities = approximate.map((paper) => paper.similarity);
      expect([...similarities].sort((a, b) => b - a)).toEqual(similarities);
    }
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

  it('rejects a query vector of the wrong dimension', async () => {
    await expect(papers.findSimilar({ model, vector: [1, 2, 3], limit: 5 })).rejects.toThrow(RangeError);
  });
});
