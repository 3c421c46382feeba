import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EmbeddingProvider } from '@radar/ai';
import {
  type OpenAiTestServer,
  startOpenAiTestServer,
  TEST_DIMENSION,
  TestEmbeddingProvider,
  TestLanguageModel,
} from '@radar/ai/testing';
import { createIngestRepositories, EmbeddingRepository, PaperRepository, sql, VectorRepository } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedContent } from '../src/pipeline/content-embed';
import { cleanSummary, summarizePapers, summaryKey } from '../src/pipeline/paper-summaries';
import { importSourceFile } from '../src/pipeline/run-source';
import { defaultIngestSettings } from '../src/pipeline/settings';

/** The embedding and summary jobs against a local OpenAI-compatible server (real HTTP, openai SDK). */

const FIXTURES = fileURLToPath(new URL('./fixtures/ingest/', import.meta.url));
let database: TestDatabase;
/** The repositories ingestion takes from its composition root; built here per call. */
const repositories = () => createIngestRepositories(database.db);
let ai: OpenAiTestServer;
let embedder: TestEmbeddingProvider;
let llm: TestLanguageModel;
let paperIds: number[];
let poisonId: number;

async function paperState() {
  const result = await database.db.execute<{
    id: number;
    embedded: boolean;
    dims: number | null;
    llm_summary: string | null;
    llm_summary_model: string | null;
  }>(
    sql`SELECT id::int AS id, embedding IS NOT NULL AS embedded, vector_dims(embedding) AS dims, llm_summary, llm_summary_model
        FROM radar.papers ORDER BY id`,
  );
  return result.rows;
}

beforeAll(async () => {
  database = await createTestDatabase();
  ai = await startOpenAiTestServer();
  embedder = new TestEmbeddingProvider(ai.baseUrl);
  llm = new TestLanguageModel(ai.baseUrl);
  const deps = { repositories: repositories(), settings: defaultIngestSettings() };
  const papers = await importSourceFile(deps, {
    kind: 'arxiv',
    filePath: path.join(FIXTURES, 'arxiv-api-2025-11.xml'),
  });
  await importSourceFile(deps, {
    kind: 'news-rss',
    filePath: path.join(FIXTURES, 'news-wordpress-rss2.xml'),
    institute: 'Demo Institute',
  });
  const [poison] = await new PaperRepository(database.db).insertMany([
    {
      title: 'A paper the providers refuse',
      abstract: 'This abstract contains POISON-EMBED and POISON-SUMMARY, which the test server refuses.',
      url: 'https://poison.example.org/1',
      source: 'test',
    },
  ]);
  poisonId = poison?.id ?? 0;
  paperIds = [...papers.newPaperIds, poisonId];
});

afterAll(async () => {
  await ai?.close();
  await database?.close();
});

describe('embedding new items', () => {
  it('skips when no provider is configured', async () => {
    expect(await embedContent(repositories(), undefined, { target: 'papers', ids: paperIds })).toMatchObject({
      outcome: 'skipped',
      reason: 'no embedding provider configured',
    });
  });

  it('embeds in batches; one refused item fails alone and is recorded', async () => {
    const result = await embedContent(repositories(), embedder, { target: 'papers', ids: paperIds }, { batchSize: 2 });
    expect(result).toEqual({ outcome: 'success', embedded: 4, failed: 1 });
    const state = await paperState();
    expect(state.filter((row) => row.embedded).map((row) => row.dims)).toEqual([
      TEST_DIMENSION,
      TEST_DIMENSION,
      TEST_DIMENSION,
      TEST_DIMENSION,
    ]);
    expect(state.find((row) => row.id === poisonId)?.embedded).toBe(false);
    const rejects = await database.db.execute<{ item_key: string; reason: string; detail: string }>(
      sql`SELECT item_key, reason, detail FROM radar.ingest_rejects WHERE source = 'content-embed'`,
    );
    expect(rejects.rows).toMatchObject([{ item_key: `papers ${poisonId}`, reason: 'embedding failed' }]);
    expect(rejects.rows[0]?.detail).toMatch(/forbidden text/);
    // The model is registered, with its per-model HNSW indexes.
    const models = await database.db.execute<{ name: string; dimension: number }>(
      sql`SELECT name, dimension FROM radar.embedding_models`,
    );
    expect(models.rows).toEqual([{ name: 'test-embedding', dimension: TEST_DIMENSION }]);
  });

  it('is idempotent: embedded rows are not sent again', async () => {
    const before = ai.calls.embeddedTexts;
    const result = await embedContent(repositories(), embedder, {
      target: 'papers',
      ids: paperIds.filter((id) => id !== poisonId),
    });
    expect(result).toEqual({ outcome: 'success', embedded: 0, failed: 0 });
    expect(ai.calls.embeddedTexts).toBe(before);
  });

  it('embeds news items', async () => {
    const ids = (await database.db.execute<{ id: number }>(sql`SELECT id::int AS id FROM radar.news_items`)).rows.map(
      (row) => row.id,
    );
    expect(await embedContent(repositories(), embedder, { target: 'news', ids })).toEqual({
      outcome: 'success',
      embedded: ids.length,
      failed: 0,
    });
  });

  it('stores the rest of a batch when the provider answers one item with a zero vector, and records it', async () => {
    const inserted = await new PaperRepository(database.db).insertMany(
      ['first', 'second', 'third'].map((name) => ({
        title: `A ${name} paper on batch checks`,
        abstract: name === 'second' ? 'An abstract the provider maps to ZERO-VECTOR.' : `A ${name} abstract.`,
        url: `https://batch.example.org/${name}`,
        source: 'test',
      })),
    );
    const ids = inserted.map((row) => row.id);
    const zeroId = ids[1];
    const sent: number[] = [];
    // Answers every text, without an error, but with an all-zero vector for one of them.
    const zeroing: EmbeddingProvider = {
      model: embedder.model,
      embed: async (texts) => {
        sent.push(texts.length);
        const vectors = await embedder.embed(texts);
        return vectors.map((vector, i) => (texts[i]?.includes('ZERO-VECTOR') ? vector.map(() => 0) : vector));
      },
    };
    const result = await embedContent(repositories(), zeroing, { target: 'papers', ids }, { batchSize: 3 });
    expect(result).toEqual({ outcome: 'success', embedded: 2, failed: 1 });
    // The batch, then the bad item alone (the others' vectors were kept).
    expect(sent).toEqual([3, 1]);
    const state = await paperState();
    expect(ids.map((id) => state.find((row) => row.id === id)?.embedded)).toEqual([true, false, true]);
    const rejects = await database.db.execute<{ item_key: string; detail: string }>(
      sql`SELECT item_key, detail FROM radar.ingest_rejects WHERE source = 'content-embed' AND item_key = ${`papers ${zeroId}`}`,
    );
    expect(rejects.rows).toHaveLength(1);
    expect(rejects.rows[0]?.detail).toMatch(/zero vector/);
    // The summary tests below count the stored papers.
    await database.db.execute(
      sql`DELETE FROM radar.papers WHERE id = ANY(string_to_array(${ids.join(',')}, ',')::bigint[])`,
    );
  });

  it('fails the job (to be retried) when the provider is down for every item', async () => {
    ai.setDown(true);
    try {
      await expect(embedContent(repositories(), embedder, { target: 'papers', ids: [poisonId] })).rejects.toThrow(
        /embedding failed for all 1 items/,
      );
    } finally {
      ai.setDown(false);
    }
  });

  it('stops when a refit activates another model meanwhile, and never overwrites the new vectors', async () => {
    const models = new EmbeddingRepository(database.db);
    const unit = (dimension: number) => [1, ...new Array(dimension - 1).fill(0)];
    const ids = paperIds.filter((id) => id !== poisonId);
    const refitted = await models.registerModel({ provider: 'test', name: 'refitted', version: '2', dimension: 3 });
    let calls = 0;
    const previous: EmbeddingProvider = {
      model: { provider: 'test', name: 'previous', version: '1', dimension: 2 },
      async embed(texts) {
        if (++calls === 1) {
          // While this batch is being embedded, a refit activates its model and re-embeds everything.
          await models.activateModel(refitted.id);
          await new VectorRepository(database.db).setVectors(
            'papers',
            refitted.id,
            ids.map((id) => ({ id: String(id), vector: unit(3) })),
          );
        }
        return texts.map(() => unit(2));
      },
    };
    await models.activateModel((await models.registerModel(previous.model)).id);
    const result = await embedContent(repositories(), previous, { target: 'papers', ids }, { batchSize: 2 });
    expect(result).toMatchObject({ outcome: 'skipped', embedded: 0, failed: 0 });
    expect(result.reason).toMatch(/the active embedding model changed/);
    expect(calls).toBe(1);
    const stored = await database.db.execute<{ model: number; n: number }>(
      sql`SELECT embedding_model_id AS model, count(*)::int AS n FROM radar.papers WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[]) GROUP BY 1`,
    );
    expect(stored.rows).toEqual([{ model: refitted.id, n: ids.length }]);
  });
});

describe('LLM summaries', () => {
  it('skips when no LLM is configured', async () => {
    expect(await summarizePapers(repositories(), undefined, { ids: paperIds }, { language: 'zh' })).toMatchObject({
      outcome: 'skipped',
    });
  });

  it('summarises papers with an abstract in the configured language, cleaned, with model and language', async () => {
    const result = await summarizePapers(repositories(), llm, { ids: paperIds }, { language: 'zh' });
    // 5 papers: one has no abstract (not sent), the poisoned one fails alone.
    expect(result).toEqual({ outcome: 'success', summarized: 3, failed: 1 });
    const summarised = (await paperState()).filter((row) => row.llm_summary);
    expect(summarised).toHaveLength(3);
    for (const row of summarised) {
      expect(row.llm_summary).toMatch(/^本文研究了“.+”。作者提出了新的方法。实验表明该方法有效。$/);
      expect(row.llm_summary_model).toBe(summaryKey('test-chat', 'zh'));
    }
  });

  it('never regenerates a summary without need', async () => {
    const before = ai.calls.chat;
    const result = await summarizePapers(
      repositories(),
      llm,
      { ids: paperIds.filter((id) => id !== poisonId) },
      { language: 'zh' },
    );
    expect(result).toEqual({ outcome: 'success', summarized: 0, failed: 0 });
    expect(ai.calls.chat).toBe(before);
  });

  it('regenerates when the abstract changes (a new version) or the language changes', async () => {
    const deps = { repositories: repositories(), settings: defaultIngestSettings() };
    // arXiv RSS carries version 3 of 2501.01234 with a new abstract: its summary and vector are dropped.
    await importSourceFile(deps, {
      kind: 'arxiv-rss',
      filePath: path.join(FIXTURES, 'arxiv-rss-cs.IR.xml'),
    });
    const changed = await database.db.execute<{ id: number; llm_summary: string | null; embedding: unknown }>(
      sql`SELECT id::int AS id, llm_summary, embedding FROM radar.papers WHERE arxiv_id = '2501.01234'`,
    );
    expect(changed.rows[0]).toMatchObject({ llm_summary: null, embedding: null });
    const again = await summarizePapers(
      repositories(),
      llm,
      { ids: paperIds.filter((id) => id !== poisonId) },
      { language: 'zh' },
    );
    expect(again.summarized).toBe(1);
    const english = await summarizePapers(
      repositories(),
      llm,
      { ids: paperIds.filter((id) => id !== poisonId) },
      { language: 'en' },
    );
    expect(english.summarized).toBe(3);
    const rows = (await paperState()).filter((row) => row.llm_summary_model === 'test-chat|en');
    expect(rows[0]?.llm_summary).toMatch(/^This paper studies /);
  });

  it('sweeps recent papers without a summary when no ids are given', async () => {
    await database.db.execute(sql`UPDATE radar.papers SET llm_summary = NULL, llm_summary_model = NULL`);
    const result = await summarizePapers(repositories(), llm, {}, { language: 'zh' });
    // Every stored paper with an abstract (3 from arXiv, 2 added from the RSS feed), except the poisoned one.
    expect(result).toEqual({ outcome: 'success', summarized: 5, failed: 1 });
  });

  it('cleans model output', () => {
    expect(cleanSummary('**摘要：** 本文提出了方法。\n\n结果很好。')).toBe('本文提出了方法。 结果很好。');
    expect(cleanSummary('"Summary: A short one."')).toBe('A short one.');
    expect(cleanSummary('```\n```')).toBe('');
  });
});
