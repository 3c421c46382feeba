import { documentEmbeddingText } from '@radar/ai';
import { type OpenAiTestServer, startOpenAiTestServer, TestEmbeddingProvider, testVector } from '@radar/ai/testing';
import { createIngestRepositories, EmbeddingRepository, PaperRepository, sql } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { RESEARCH_FIELD_IDS } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../src/demo/demo-corpus';
import { loadDemoCorpus, removeDemoContent } from '../src/demo/load-demo';
import { embedContent } from '../src/pipeline/content-embed';
import { importSourceFile } from '../src/pipeline/run-source';
import { defaultIngestSettings } from '../src/pipeline/settings';

let database: TestDatabase;
/** The repositories ingestion takes from its composition root; built here per call. */
const repositories = () => createIngestRepositories(database.db);
let ai: OpenAiTestServer;
const TODAY = new Date('2026-05-20T08:00:00Z');

beforeAll(async () => {
  database = await createTestDatabase();
  ai = await startOpenAiTestServer();
});

afterAll(async () => {
  await ai?.close();
  await database?.close();
});

describe('demo corpus', () => {
  it('covers the 21 fields with papers and news dated relative to today, all marked as demo', () => {
    const corpus = generateDemoCorpus(TODAY);
    expect(corpus.papers).toHaveLength(21 * 14);
    expect(corpus.news).toHaveLength(21 * 5);
    expect(corpus.journals).toHaveLength(21 * 4);
    for (const field of RESEARCH_FIELD_IDS) {
      const papers = corpus.papers.filter((paper) => paper.key.startsWith(`demo:${field}:`));
      expect(papers).toHaveLength(14);
      // Every date filter (one day ... one month, unlimited) finds something in every field.
      const ages = papers.map((paper) => (TODAY.getTime() - Date.parse(`${paper.publishedAt}T08:00:00Z`)) / 86_400_000);
      expect(ages.some((age) => age === 0)).toBe(true);
      expect(ages.some((age) => age > 3 && age <= 7)).toBe(true);
      expect(ages.some((age) => age > 7 && age <= 30)).toBe(true);
      expect(ages.some((age) => age > 30)).toBe(true);
    }
    expect(new Set(corpus.papers.map((paper) => paper.title)).size).toBe(corpus.papers.length);
    expect(corpus.papers.every((paper) => paper.url?.startsWith('https://demo.research-radar.invalid/'))).toBe(true);
    expect(corpus.news.every((item) => item.url.startsWith('https://demo.research-radar.invalid/'))).toBe(true);
    expect(corpus.journals.every((journal) => journal.title.endsWith('(Demo)'))).toBe(true);
    expect(generateDemoCorpus(TODAY)).toEqual(corpus);
  });

  it('loads through the pipeline with journals and tiers, and replaces itself on a second run', async () => {
    // Real content is never touched by the demo.
    await importSourceFile(
      { repositories: repositories(), settings: defaultIngestSettings() },
      { kind: 'arxiv', filePath: new URL('./fixtures/ingest/arxiv-api-2025-11.xml', import.meta.url).pathname },
    );
    const first = await loadDemoCorpus(repositories(), { today: TODAY });
    expect(first.content.counts).toMatchObject({ added: 21 * 14 + 21 * 5, rejected: 0 });
    expect(first.journals.journalsAdded).toBe(84);
    const stats = await database.db.execute<{ tier: number | null; count: number }>(
      sql`SELECT jcr_tier AS tier, count(*)::int AS count FROM radar.papers WHERE is_demo GROUP BY jcr_tier ORDER BY jcr_tier NULLS LAST`,
    );
    expect(stats.rows.map((row) => row.tier)).toEqual([1, 2, 3, 4, null]);
    const institutes = await database.db.execute<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM radar.institutes`,
    );
    expect(institutes.rows[0]?.count).toBe(21);

    const second = await loadDemoCorpus(repositories(), { today: TODAY });
    expect(second).toMatchObject({ removedPapers: 294, removedNews: 105 });
    expect(second.content.counts.added).toBe(399);
    expect(second.journals).toMatchObject({ journalsAdded: 0, journalsUpdated: 0 });
    const real = await database.db.execute<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM radar.papers WHERE NOT is_demo`,
    );
    expect(real.rows[0]?.count).toBe(4);
  });

  it('gives recommendations once embedded, without any network beyond the local provider', async () => {
    const embedder = new TestEmbeddingProvider(ai.baseUrl);
    const ids = (
      await database.db.execute<{ id: number }>(sql`SELECT id::int AS id FROM radar.papers WHERE is_demo`)
    ).rows.map((row) => row.id);
    for (let start = 0; start < ids.length; start += 500) {
      await embedContent(repositories(), embedder, { target: 'papers', ids: ids.slice(start, start + 500) });
    }
    await new PaperRepository(database.db).analyze();
    const model = await new EmbeddingRepository(database.db).registerModel(embedder.model);
    const wanted = generateDemoCorpus(TODAY).papers.find((paper) => paper.key === 'demo:computer-science:1');
    const similar = await new PaperRepository(database.db).findSimilar({
      model,
      vector: testVector(documentEmbeddingText(wanted?.title ?? '', wanted?.abstract ?? '')),
      limit: 5,
      publishedSince: '2026-04-20',
    });
    expect(similar).toHaveLength(5);
    expect(similar[0]).toMatchObject({ title: wanted?.title, publishedAt: '2026-05-20' });
    expect(similar[0]?.similarity).toBeCloseTo(1, 5);
  });

  it('can be removed again', async () => {
    expect(await removeDemoContent(repositories())).toEqual({ papers: 294, news: 105 });
  });
});
