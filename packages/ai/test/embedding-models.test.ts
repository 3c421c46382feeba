import { type FakeOpenAiServer, fakeEmbedding, startFakeOpenAi, syntheticPapers, topicWords } from '@radar/ai/testing';
import {
  createAiRepositories,
  EmbedderStateRepository,
  EmbeddingRepository,
  embeddingIndexName,
  PaperRepository,
  sql,
  UserRepository,
  VectorRepository,
} from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { loadConfig } from '@radar/shared/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingModels, type ReembedProgress } from '../src/embedding-models';

/**
 * The active-model lifecycle on a real database: hashing bootstrap, first LSA fit once the corpus is
 * large enough, re-embedding every stored vector, another process loading the same fitted model, and
 * a switch to an OpenAI-compatible model re-embedding everything again.
 */

let database: TestDatabase;
let fake: FakeOpenAiServer;
let userId: string;

const builtinConfig = loadConfig({});
const manager = (config = builtinConfig) =>
  new EmbeddingModels({
    config,
    repositories: createAiRepositories(database.db),
    minFitDocuments: 200,
    reembedBatchSize: 50,
    // A re-embedding of 100 rows or more (every one below) builds the HNSW indexes after its vectors.
    bulkReembedRows: 100,
    // Batches of 50 in those too, so the progress below is reported batch by batch.
    bulkReembedBatchSize: 50,
  });

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeOpenAi({ embeddingDimension: 24 });
  const user = await new UserRepository(database.db).create({
    email: 'profile@example.org',
    researchSummaryEn: `I study ${topicWords('climate').join(' ')}.`,
  });
  userId = user.id;
});

afterAll(async () => {
  await fake?.close();
  await database?.close();
});

async function insertPapers(count: number, offset = 0) {
  await new PaperRepository(database.db).insertMany(
    syntheticPapers(count, 11 + offset).map((paper) => ({
      title: paper.title,
      abstract: paper.abstract,
      source: 'test',
    })),
  );
}

describe('embedding models', () => {
  it('starts on the hashing model when there is no corpus, and embeds a profile with it', async () => {
    const models = manager();
    const active = await models.active();
    expect(active.model).toEqual({ provider: 'builtin', name: 'hashing-512', version: '1', dimension: 512 });
    expect(
      await models.embedProfile({ id: userId, researchSummaryEn: 'I study ocean warming.', researchDescription: '' }),
    ).toEqual({
      hasVector: true,
      modelId: active.modelId,
    });
    expect((await new UserRepository(database.db).findById(userId))?.profileEmbeddingModelId).toBe(active.modelId);
    expect(await models.refitIfDue()).toMatchObject({ refitted: false });
    // The hashing bootstrap has no vocabulary to weigh the terms of a recommendation's reason.
    expect(await models.termWeighting()).toBeUndefined();
    // Without the test's threshold, the first fit comes at 50 documents (LSA_MIN_DOCUMENTS).
    expect(
      await new EmbeddingModels({ config: builtinConfig, repositories: createAiRepositories(database.db) }).refitDue(),
    ).toEqual({
      due: false,
      reason: 'the corpus has 0 documents; the built-in model is fitted from 50',
      corpusSize: 0,
    });
  });

  it('fits the built-in model once the corpus is large enough, then re-embeds every stale vector', async () => {
    await insertPapers(240);
    const models = manager();
    expect(await models.refitDue()).toEqual({ due: true, reason: 'first fit', corpusSize: 240 });
    const refit = await models.refitIfDue();
    expect(refit).toEqual({ refitted: true, reason: 'first fit' });
    const active = await models.activeModel();
    // The size chosen for a corpus of 240 documents (lsaDimensionFor).
    expect(active).toMatchObject({ provider: 'builtin', name: 'tfidf-lsa', dimension: 32, isActive: true });

    const { pending } = await models.countPending();
    expect(pending).toEqual({ users: 1, papers: 240, news: 0 });
    const progress: ReembedProgress[] = [];
    const result = await models.reembedStale({ onProgress: (p) => void progress.push(p) });
    expect(result.embedded).toEqual({ users: 1, papers: 240, news: 0 });
    expect(progress.filter((p) => p.target === 'papers').map((p) => p.done)).toEqual([50, 100, 150, 200, 240]);
    expect((await models.countPending()).pending).toEqual({ users: 0, papers: 0, news: 0 });
    expect(await models.countRecommendable()).toBe(240);
    // Its vector indexes were dropped for the bulk and built again over every row (an index updated row
    // by row keeps the row count of its creation, when the table had no row of this model).
    const built = await database.db.execute<{ rows: number }>(
      sql`SELECT reltuples::int AS rows FROM pg_class WHERE oid = to_regclass(${`radar.${embeddingIndexName('papers', active?.id ?? 0)}`})`,
    );
    expect(built.rows[0]?.rows).toBe(240);
    const indexes = await database.db.execute<{ indexname: string }>(
      sql`SELECT indexname FROM pg_indexes WHERE schemaname = 'radar' AND indexname LIKE ${`%_m${active?.id}_hnsw`}`,
    );
    expect(indexes.rows.map((row) => row.indexname).sort()).toEqual(
      [embeddingIndexName('news_items', active?.id ?? 0), embeddingIndexName('papers', active?.id ?? 0)].sort(),
    );

    // Idempotent: nothing left to do, nothing rewritten.
    expect((await models.reembedStale()).embedded).toEqual({ users: 0, papers: 0, news: 0 });
    // Not due again until the corpus grows by half.
    expect((await models.refitIfDue()).refitted).toBe(false);
  });

  it('gives another process (its own manager) the same model and identical vectors', async () => {
    const first = await manager().active();
    const second = await manager().active();
    expect(second.modelId).toBe(first.modelId);
    const text = `A study of ${topicWords('biology').join(' ')}`;
    expect(await second.embed([text])).toEqual(await first.embed([text]));
    const stored = await new EmbedderStateRepository(database.db).load(first.modelId);
    expect(stored?.sampleSize).toBe(240);
    expect(stored?.projection.byteLength).toBe(stored ? stored.vocabulary.length * 32 * 4 : -1);
  });

  it("weighs a reason's terms by the active fitted model's idf", async () => {
    const models = manager();
    const active = await models.activeModel();
    const stored = await new EmbedderStateRepository(database.db).load(active.id);
    if (!stored) throw new Error('no fitted state');
    const idf = new Float32Array(new Uint8Array(stored.idf).buffer);
    const weighting = await models.termWeighting();
    for (const term of stored.vocabulary.slice(0, 50)) {
      expect(weighting?.weight(term)).toBe(idf[stored.vocabulary.indexOf(term)]);
    }
    expect(weighting?.weight('zzzz not a term')).toBeUndefined();
    // Loaded once per model version.
    expect(await models.termWeighting()).toBe(weighting);
  });

  it('finds similar papers with the profile vector, on the active model only', async () => {
    const models = manager();
    const provider = await models.active();
    const model = await models.activeModel();
    const [vector] = await provider.embed([`Our research: ${topicWords('economics').join(', ')}`]);
    const similar = await new PaperRepository(database.db).findSimilar({
      model,
      vector: vector as number[],
      limit: 20,
      strategy: 'exact',
    });
    expect(similar).toHaveLength(20);
    const rows = await new PaperRepository(database.db).findByIds(similar.map((s) => s.id));
    const economics = rows.filter((row) => topicWords('economics').some((w) => row.abstract.includes(w)));
    expect(economics.length).toBeGreaterThanOrEqual(18);
  });

  it('refits when the corpus has grown by half, as a new version, and re-embeds onto it', async () => {
    const models = manager();
    const before = await models.activeModel();
    await insertPapers(130, 1);
    expect(await models.refitIfDue()).toEqual({ refitted: true, reason: 'the corpus grew from 240 to 370' });
    const after = await models.activeModel();
    expect(after.id).not.toBe(before.id);
    expect(after.version).not.toBe(before.version);
    expect((await models.reembedStale()).embedded).toEqual({ users: 1, papers: 370, news: 0 });
    const counts = await database.db.execute<{ model: number; n: number }>(
      sql`SELECT embedding_model_id AS model, count(*)::int AS n FROM radar.papers GROUP BY 1`,
    );
    expect(counts.rows).toEqual([{ model: after.id, n: 370 }]);
  });

  it('fits the dimension EMBEDDING_DIM sets, and the chosen one again once it is unset', async () => {
    const explicit = manager(loadConfig({ EMBEDDING_DIM: '48' }));
    expect(await explicit.refitDue()).toEqual({
      due: true,
      reason: 'the fitted model has 32 dimensions; 48 are configured for its corpus',
      corpusSize: 370,
    });
    expect((await explicit.refitIfDue()).refitted).toBe(true);
    expect(await explicit.activeModel()).toMatchObject({ name: 'tfidf-lsa', dimension: 48 });
    expect((await explicit.refitDue()).due).toBe(false);
    expect((await explicit.reembedStale()).embedded).toEqual({ users: 1, papers: 370, news: 0 });

    const chosen = manager();
    expect((await chosen.refitIfDue()).reason).toBe(
      'the fitted model has 48 dimensions; 32 are configured for its corpus',
    );
    expect(await chosen.activeModel()).toMatchObject({ name: 'tfidf-lsa', dimension: 32 });
    // A refit changes the active model: the next step puts every profile and paper on it.
    expect((await chosen.reembedStale()).embedded).toEqual({ users: 1, papers: 370, news: 0 });
    const user = await new UserRepository(database.db).findById(userId);
    expect(user?.profileEmbeddingModelId).toBe((await chosen.activeModel()).id);
  });

  it('switches to a configured OpenAI-compatible model and re-embeds everything with it', async () => {
    const remoteConfig = loadConfig({ EMBEDDING_MODEL: 'fake-embed', EMBEDDING_DIM: '24', OPENAI_BASE_URL: fake.url });
    const models = manager(remoteConfig);
    const { model, switched } = await models.syncWithConfig();
    expect(switched).toBe(true);
    expect(model).toMatchObject({ provider: 'openai-compatible', name: 'fake-embed', version: 'd24', dimension: 24 });
    expect((await new EmbeddingRepository(database.db).getActiveModel())?.id).toBe(model.id);
    // Refitting the built-in model does not apply while a remote model is configured.
    expect((await models.refitIfDue({ force: true })).refitted).toBe(false);
    // A remote model has no vocabulary: reasons weigh terms by idf over the texts at hand.
    expect(await models.termWeighting()).toBeUndefined();

    fake.requests.length = 0;
    expect((await models.reembedStale()).embedded).toEqual({ users: 1, papers: 370, news: 0 });
    expect(fake.embeddingRequests()).toHaveLength(1 + Math.ceil(370 / 50));
    expect((await new VectorRepository(database.db).countCurrent(model.id)).papers).toBe(370);

    // And back to the built-in model: its latest fit is reactivated, no refit needed.
    const back = manager();
    const again = await back.syncWithConfig();
    expect(again).toMatchObject({ switched: true, model: { name: 'tfidf-lsa' } });
    expect((await back.reembedStale()).embedded.papers).toBe(370);
  });

  it('re-embedding stores the rest of a batch when the provider answers one item with a bad vector, and records it', async () => {
    const [bad] = await new PaperRepository(database.db).insertMany([
      { title: 'A paper the endpoint answers badly', abstract: 'Its abstract holds BAD-VECTOR.', source: 'test' },
    ]);
    // One dimension short for that text, in a batch or alone: the batch fails, then that item alone.
    fake.embeddingOf = (text, dimension) =>
      fakeEmbedding(text, text.includes('BAD-VECTOR') ? dimension - 1 : dimension);
    try {
      const remoteConfig = loadConfig({
        EMBEDDING_MODEL: 'fake-embed',
        EMBEDDING_DIM: '24',
        OPENAI_BASE_URL: fake.url,
      });
      const models = manager(remoteConfig);
      const { model } = await models.syncWithConfig();
      const result = await models.reembedStale();
      expect(result.embedded).toEqual({ users: 1, papers: 370, news: 0 });
      expect(result.failed).toEqual({ users: 0, papers: 1, news: 0 });
      expect((await new VectorRepository(database.db).countCurrent(model.id)).papers).toBe(370);
      const rejects = await database.db.execute<{ item_key: string; reason: string; detail: string }>(
        sql`SELECT item_key, reason, detail FROM radar.ingest_rejects WHERE source = 'reembed'`,
      );
      expect(rejects.rows).toMatchObject([{ item_key: `papers ${bad?.id}`, reason: 'embedding failed' }]);
      expect(rejects.rows[0]?.detail).toMatch(/23 dimensions/);
      // The failed item stays stale for the next maintain job, which tries it once more and stops.
      expect((await models.countPending()).pending).toEqual({ users: 0, papers: 1, news: 0 });
      expect(await models.reembedStale()).toMatchObject({
        embedded: { users: 0, papers: 0, news: 0 },
        failed: { users: 0, papers: 1, news: 0 },
      });
    } finally {
      fake.embeddingOf = fakeEmbedding;
    }
  });
});
