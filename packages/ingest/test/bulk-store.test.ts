import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbeddingModels, type NewPaperVectors } from '@radar/ai';
import { createAiRepositories, createIngestRepositories, sql } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { loadConfig } from '@radar/shared/server';
import { afterAll, describe, expect, it } from 'vitest';
import { readSourceFile } from '../src/adapters';
import { ContentStore, type StoreOutcome } from '../src/pipeline/content-store';
import { consumeEntries } from '../src/pipeline/pipeline';
import type { IngestEntry, PaperDraft, SourceKind } from '../src/types';
import { collect } from './helpers/collect-entries';

/**
 * Papers stored a chunk at a time (consumeEntries -> ContentStore.storePapers: one lookup per chunk,
 * one insert for the new ones) end as the same rows as storing each draft alone with storePaper: the
 * same papers merged, updated, linked as duplicates, with the same outcomes. The drafts are the dedupe
 * fixtures (arXiv versions, the arXiv feed, Crossref and OpenAlex records of the same papers, preprints
 * and their journal versions) read twice, with changed copies, so duplicates fall inside one chunk,
 * across chunks, and against stored rows.
 */

const FIXTURES = fileURLToPath(new URL('./fixtures/ingest/', import.meta.url));
const FILES: [SourceKind, string][] = [
  ['arxiv', 'arxiv-api-2025-08-legacy.xml'],
  ['arxiv', 'arxiv-api-2025-11.xml'],
  ['arxiv-rss', 'arxiv-rss-cs.IR.xml'],
  ['crossref', 'crossref-journal-works.json'],
  ['openalex', 'openalex-works.json'],
  ['arxiv', 'preprints/arxiv-api-2111.07624.xml'],
  ['crossref', 'preprints/crossref-epja-proton-radius.json'],
  ['crossref', 'preprints/crossref-peerj.preprints.2512.json'],
  ['crossref', 'preprints/crossref-physrevd.103.096005.json'],
];

async function fixtureDrafts(): Promise<PaperDraft[]> {
  const drafts: PaperDraft[] = [];
  for (const [kind, name] of FILES) {
    const read = await collect(
      readSourceFile(kind, fs.createReadStream(path.join(FIXTURES, name)), { maxItems: 1_000 }),
    );
    drafts.push(...read.papers);
  }
  const changed = drafts.map((draft, index) => ({
    ...draft,
    // Every third again with more text (an update), every fifth with a new keyword, the rest as they were.
    abstract: index % 3 === 0 ? `${draft.abstract} A corrected version adds this sentence.` : draft.abstract,
    keywords: index % 5 === 0 ? [...draft.keywords, 'bulk test'] : draft.keywords,
  }));
  const unknown: PaperDraft = {
    ...(drafts[0] as PaperDraft),
    key: 'unknown',
    doi: '10.5555/not-stored',
    arxivId: undefined,
    url: '',
    title: 'A replacement of nothing',
    updateOnly: true,
  };
  const noIdentifier: PaperDraft = {
    ...(drafts[1] as PaperDraft),
    key: 'no id',
    doi: undefined,
    arxivId: undefined,
    url: '',
  };
  // The same title and authors under another DOI: a record that cannot be merged, linked as a duplicate.
  const withDoi = drafts.filter((draft) => draft.doi);
  const otherRecords = withDoi.slice(0, 3).map((draft, index) => ({
    ...draft,
    key: `other record ${index}`,
    doi: `10.5555/other-record-${index}`,
    arxivId: undefined,
    url: `https://example.org/other-record-${index}`,
    relatedDois: [],
  }));
  return [
    ...drafts.slice(0, 5),
    ...otherRecords,
    ...drafts.slice(5),
    unknown,
    ...[...drafts].reverse(),
    noIdentifier,
    ...changed,
  ];
}

type Row = Record<string, unknown>;

/** Every paper row without ids and times, duplicate_of as the canonical row's identifiers. */
async function storedRows(database: TestDatabase): Promise<Row[]> {
  const result = await database.db.execute<Row>(sql`
    SELECT p.title, p.authors, p.author_identities, p.abstract, p.doi, p.arxiv_id, p.url, p.url_normalized,
           p.pdf_url, p.journal_name, j.title AS journal, p.jcr_tier, p.published_at::text AS published_at,
           p.keywords, p.research_fields, p.title_author_key, p.source_ids, p.source,
           p.journal_version_at IS NOT NULL AS has_journal_version,
           c.doi AS canonical_doi, c.arxiv_id AS canonical_arxiv_id
    FROM radar.papers p
    LEFT JOIN radar.journals j ON j.id = p.journal_id
    LEFT JOIN radar.papers c ON c.id = p.duplicate_of`);
  return result.rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

const outcomeCounts = (outcomes: StoreOutcome[]) => {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) {
    const key = outcome.outcome === 'unchanged' ? 'skipped' : outcome.outcome;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
};

const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.close();
});

describe('storing papers a chunk at a time', () => {
  it('ends with the rows and outcomes of storing them one at a time', async () => {
    const drafts = await fixtureDrafts();
    expect(drafts.length).toBeGreaterThan(40);

    const alone = await createTestDatabase();
    databases.push(alone);
    const store = new ContentStore(createIngestRepositories(alone.db), { source: 'bulk-test' });
    const outcomes: StoreOutcome[] = [];
    for (const draft of drafts) outcomes.push(await store.storePaper(structuredClone(draft)));
    const expected = await storedRows(alone);
    const expectedCounts = outcomeCounts(outcomes);
    expect(expectedCounts.added).toBeGreaterThan(10);
    expect(expectedCounts.updated).toBeGreaterThan(5);
    expect(expected.some((row) => row.canonical_doi !== null || row.canonical_arxiv_id !== null)).toBe(true);

    // Chunks of 7 (duplicates within a chunk and across chunks) and one chunk for everything.
    for (const chunkSize of [7, 1_000]) {
      const database = await createTestDatabase();
      databases.push(database);
      async function* entries(): AsyncGenerator<IngestEntry, undefined> {
        for (const draft of drafts) yield { type: 'paper', draft: structuredClone(draft) };
        return undefined;
      }
      const { summary, failure } = await consumeEntries(createIngestRepositories(database.db), entries(), {
        source: 'bulk-test',
        chunkSize,
      });
      expect(failure).toBeUndefined();
      expect(await storedRows(database), `chunks of ${chunkSize}`).toEqual(expected);
      const { added, updated, skipped, rejected } = summary.counts;
      expect({ added, updated, skipped, rejected }, `chunks of ${chunkSize}`).toEqual({
        added: expectedCounts.added ?? 0,
        updated: expectedCounts.updated ?? 0,
        skipped: expectedCounts.skipped ?? 0,
        rejected: expectedCounts.rejected ?? 0,
      });
    }
  });
});

describe('vectors written in the insert', () => {
  it('are the vectors the re-embedding writes; a Chinese paper is left to it', async () => {
    // Fewer papers than a fit needs: the hashing model stays active in both databases, so the two ways
    // of embedding are compared on the same model.
    const chinese: PaperDraft = {
      ...((await fixtureDrafts())[0] as PaperDraft),
      key: 'chinese',
      doi: '10.5555/chinese-paper',
      arxivId: undefined,
      url: 'https://example.org/chinese-paper',
      title: '基于深度学习的蛋白质结构预测方法研究',
      abstract: '本文提出一种基于图神经网络的蛋白质结构预测方法，在公开数据集上取得了较好的结果。',
      relatedDois: [],
    };
    const drafts = [...(await fixtureDrafts()).slice(0, 30), chinese];
    const embedded: Row[][] = [];
    for (const inInsert of [true, false]) {
      const database = await createTestDatabase();
      databases.push(database);
      const models = createEmbeddingModels(loadConfig({}), createAiRepositories(database.db));
      const prepared = inInsert
        ? await models.prepareImport({
            papers: drafts.map((draft) => ContentStore.paperText(draft)),
            expectedDocuments: drafts.length,
            mayFit: true,
          })
        : undefined;
      async function* entries(): AsyncGenerator<IngestEntry, undefined> {
        for (const draft of drafts) yield { type: 'paper', draft: structuredClone(draft) };
        return undefined;
      }
      // Each chunk's vectors are made ahead, while the chunk before is stored (ContentStore.prepareVectors);
      // the insert takes them and embeds only what was not made ahead: no paper is embedded twice.
      let textsEmbedded = 0;
      const vectors: NewPaperVectors | undefined = prepared?.vectors
        ? (papers) => {
            textsEmbedded += papers.length;
            return (prepared.vectors as NewPaperVectors)(papers);
          }
        : undefined;
      const { summary } = await consumeEntries(createIngestRepositories(database.db), entries(), {
        source: 'bulk-test',
        chunkSize: 7,
        vectors,
      });
      await prepared?.finish();
      const counted = await database.db.execute<{ rows: number; vectors: number; chinese: number }>(sql`
        SELECT count(*)::int AS rows, count(embedding)::int AS vectors,
               count(embedding) FILTER (WHERE doi = '10.5555/chinese-paper')::int AS chinese
        FROM radar.papers`);
      const before = counted.rows[0];
      if (inInsert) {
        expect(prepared?.vectors).toBeDefined();
        expect(before?.rows).toBe(summary.counts.added);
        // Written in the multi-row inserts; a paper stored alone (sharing a key with one written
        // earlier in its chunk) and the Chinese paper (its English gist is made per stored row) wait.
        expect(before?.vectors).toBeGreaterThan(summary.counts.added / 2);
        expect(before?.chinese).toBe(0);
        // No paper was embedded twice (a vector made ahead is not made again at the insert).
        expect(textsEmbedded).toBeLessThanOrEqual(drafts.length);
      } else expect(before?.vectors).toBe(0);
      await models.reembedStale();
      const rows = await database.db.execute<Row>(sql`
        SELECT p.doi, p.arxiv_id, p.url, p.embedding::text AS embedding, m.name AS model
        FROM radar.papers p LEFT JOIN radar.embedding_models m ON m.id = p.embedding_model_id`);
      embedded.push(rows.rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))));
    }
    expect(embedded[0]?.every((row) => row.model === 'hashing-512' && row.embedding)).toBe(true);
    expect(embedded[0]).toEqual(embedded[1]);
  });

  it('made ahead of the store are the ones inserted, and the insert embeds nothing again', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const models = createEmbeddingModels(loadConfig({}), createAiRepositories(database.db));
    const drafts = (await fixtureDrafts()).slice(0, 12);
    const prepared = await models.prepareImport({
      papers: drafts.map((draft) => ContentStore.paperText(draft)),
      expectedDocuments: drafts.length,
      mayFit: true,
    });
    const made = prepared.vectors;
    if (!made) throw new Error('the hashing model should give import vectors');
    const calls: number[] = [];
    const store = new ContentStore(createIngestRepositories(database.db), {
      source: 'bulk-test',
      vectors: (papers) => {
        calls.push(papers.length);
        return made(papers);
      },
    });
    await store.prepareVectors(drafts);
    expect(calls).toEqual([drafts.length]);
    const outcomes = await store.storePapers(drafts);
    await prepared.finish();
    const added = outcomes.filter((settled) => settled.status === 'fulfilled' && settled.value.outcome === 'added');
    expect(added.length).toBeGreaterThan(0);
    expect(calls).toEqual([drafts.length]);
    const counted = await database.db.execute<{ vectors: number }>(
      sql`SELECT count(embedding)::int AS vectors FROM radar.papers`,
    );
    // Written in the multi-row insert; a paper stored alone (sharing a key with an earlier one) waits for
    // the re-embedding, as before.
    expect(counted.rows[0]?.vectors).toBeGreaterThan(0);
    expect(counted.rows[0]?.vectors).toBeLessThanOrEqual(added.length);
  });
});
