import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createIngestRepositories, sql } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentStore } from '../src/pipeline/content-store';
import { importSourceFile } from '../src/pipeline/run-source';
import { defaultIngestSettings } from '../src/pipeline/settings';
import { importTierTableFile } from '../src/tiers/tier-import';
import type { SourceKind } from '../src/types';

/**
 * Dedupe across sources and versions on a real database: the same paper arriving from arXiv (two
 * versions and formats), the arXiv RSS feed, OpenAlex and Crossref ends as one row, and the preprint
 * takes its journal version's journal and tier.
 */

const FIXTURES = fileURLToPath(new URL('./fixtures/ingest/', import.meta.url));
let database: TestDatabase;
/** The repositories ingestion takes from its composition root; built here per call. */
const repositories = () => createIngestRepositories(database.db);

const deps = () => ({ repositories: repositories(), settings: defaultIngestSettings() });
const load = (kind: SourceKind, name: string, extra: { institute?: string; journal?: string } = {}) =>
  importSourceFile(deps(), { kind, filePath: path.join(FIXTURES, name), ...extra });

type PaperRow = {
  id: number;
  title: string;
  abstract: string;
  doi: string | null;
  arxiv_id: string | null;
  journal_name: string;
  jcr_tier: number | null;
  source: string;
  source_ids: Record<string, string>;
  pdf_url: string | null;
  published_at: string | null;
};

async function papers(where = sql`true`): Promise<PaperRow[]> {
  const result = await database.db.execute<PaperRow>(
    sql`SELECT id::int AS id, title, abstract, doi, arxiv_id, journal_name, jcr_tier, source, source_ids, pdf_url, published_at::text
        FROM radar.papers WHERE ${where} ORDER BY id`,
  );
  return result.rows;
}

beforeAll(async () => {
  database = await createTestDatabase();
  // Tiers first, so journals met during ingestion already have theirs.
  await importTierTableFile(repositories(), path.join(FIXTURES, 'tiers-scimago.csv'));
});

afterAll(async () => {
  await database?.close();
});

describe('dedupe across sources and versions', () => {
  it('stores the first copy of each paper', async () => {
    const summary = await load('arxiv', 'arxiv-api-2025-08-legacy.xml');
    expect(summary.counts).toMatchObject({ added: 2, updated: 0, rejected: 0 });
    expect(summary.source).toBe('arxiv-file');
  });

  it('takes the text of a newer arXiv version (other format), adds new papers, rejects the entry without id', async () => {
    const summary = await load('arxiv', 'arxiv-api-2025-11.xml');
    expect(summary.counts).toMatchObject({ added: 3, updated: 1, rejected: 1 });
    expect(summary.rejectedReasons).toEqual({ 'no arXiv id': 1 });
    expect(summary.notes).toEqual({ 'no abstract': 1 });
    const [sparse] = await papers(sql`arxiv_id = '2501.01234'`);
    expect(sparse?.abstract).toContain('four long-document benchmarks');
    expect(sparse?.source_ids.arxivVersion).toBe('2');
    expect(summary.changedPaperIds).toEqual([sparse?.id]);
  });

  it('links the preprint to its journal version from Crossref: journal, tier and DOI', async () => {
    const summary = await load('crossref', 'crossref-journal-works.json');
    expect(summary.counts).toMatchObject({ added: 1, updated: 1, rejected: 1 });
    expect(summary.skippedReasons).toEqual({ 'not a paper (journal-issue)': 1 });
    const rows = await papers(sql`arxiv_id = '2501.01234' OR doi = '10.5555/jmlrl.2025.0042'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      arxiv_id: '2501.01234',
      doi: '10.5555/jmlrl.2025.0042',
      journal_name: 'Journal of Machine Learning Research Letters',
      jcr_tier: 1,
      // The preprint's own text, PDF and date stay.
      title: 'Sparse Attention for Long Document Retrieval',
      pdf_url: 'https://arxiv.org/pdf/2501.01234v2',
      published_at: '2025-01-03',
    });
    expect(rows[0]?.source_ids).toMatchObject({ arxiv: '2501.01234', crossref: '10.5555/jmlrl.2025.0042' });
  });

  it('recognises OpenAlex copies by DOI, arXiv id and title + first author', async () => {
    const summary = await load('openalex', 'openalex-works.json');
    // W1 is the journal version of the graph diffusion preprint; W2 the arXiv copy of the sparse attention paper.
    expect(summary.counts).toMatchObject({ added: 1, updated: 2, rejected: 0 });
    expect(summary.skippedReasons).toEqual({ retracted: 1 });
    const rows = await papers(sql`arxiv_id = '2501.05678'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      doi: '10.5555/jccl.2025.777',
      journal_name: 'Journal of Computational Chemistry Letters',
      jcr_tier: 2,
      title: 'Graph Diffusion Models for Molecule Generation',
    });
    expect(rows[0]?.source_ids.openalex).toBe('W4400000001');
    expect((await papers(sql`source_ids->>'openalex' = 'W4400000002'`)).map((row) => row.arxiv_id)).toEqual([
      '2501.01234',
    ]);
  });

  it('updates a known paper from an RSS replacement and skips replacements of unknown papers', async () => {
    const summary = await importSourceFile(deps(), {
      kind: 'arxiv-rss',
      filePath: path.join(FIXTURES, 'arxiv-rss-cs.IR.xml'),
      source: {
        name: 'arxiv-ir',
        kind: 'arxiv-rss',
        enabled: true,
        categories: ['cs.IR'],
        includeReplacements: false,
        baseUrl: 'https://rss.arxiv.org/rss/',
      },
    });
    expect(summary.counts).toMatchObject({ added: 2, updated: 1 });
    expect(summary.skippedReasons).toEqual({ 'replacement of a paper not in the database': 1 });
    const [sparse] = await papers(sql`arxiv_id = '2501.01234'`);
    expect(sparse?.abstract).toContain('Version 3 adds an analysis');
    expect(sparse?.jcr_tier).toBe(1);
    expect(await papers(sql`arxiv_id = '2301.00001'`)).toEqual([]);
  });

  it('keeps who the authors are beside their names, and a names-only copy learns it from a record that knows', async () => {
    const draft = (source: string, identities?: { name: string; orcid?: string; affiliation?: string }[]) =>
      new ContentStore(repositories(), { source }).storePaper({
        key: '10.5555/authors.1',
        title: 'Who wrote this: author identities across sources',
        authors: ['J. Liu', 'Ana Souza'],
        authorIdentities: identities,
        abstract: 'An abstract.',
        doi: '10.5555/authors.1',
        keywords: [],
        sourceIds: {},
        notes: [],
      });
    expect(await draft('names-only')).toMatchObject({ outcome: 'added' });
    const keysOf = async () =>
      (
        await database.db.execute<{ identities: unknown; keys: string[] }>(
          sql`SELECT author_identities AS identities, author_keys AS keys FROM radar.papers WHERE doi = '10.5555/authors.1'`,
        )
      ).rows[0];
    expect(await keysOf()).toEqual({ identities: null, keys: ['n:liu j', 'n:souza a'] });
    const identities = [
      { name: 'Jiangjiang Liu', orcid: '0000-0002-1341-2763', affiliation: 'Nankai University' },
      { name: 'Ana Souza' },
    ];
    expect(await draft('crossref-like', identities)).toMatchObject({ outcome: 'updated' });
    // The stored names stay; each identity is the one of the name at its place.
    expect(await keysOf()).toEqual({
      identities: [
        { name: 'J. Liu', orcid: '0000-0002-1341-2763', affiliation: 'Nankai University' },
        { name: 'Ana Souza' },
      ],
      keys: ['n:liu j', 'n:souza a', 'o:0000-0002-1341-2763'],
    });
  });

  it('is idempotent: the same files again change nothing', async () => {
    const before = await papers();
    for (const [kind, name] of [
      ['arxiv', 'arxiv-api-2025-11.xml'],
      ['crossref', 'crossref-journal-works.json'],
      ['openalex', 'openalex-works.json'],
    ] as const) {
      const summary = await load(kind, name);
      expect(summary.counts.added).toBe(0);
      expect(summary.counts.updated).toBe(0);
    }
    expect(await papers()).toEqual(before);
  });

  it('dedupes news by normalised URL and keeps the institute', async () => {
    const first = await load('news-rss', 'news-wordpress-rss2.xml', { institute: 'Demo Institute' });
    // The last item is the first one's URL with tracking parameters.
    expect(first.counts).toMatchObject({ added: 2, updated: 1, rejected: 2 });
    const again = await load('news-rss', 'news-wordpress-rss2.xml', { institute: 'Demo Institute' });
    expect(again.counts).toMatchObject({ added: 0, rejected: 2 });
    const rows = await database.db.execute<{ title: string; institute: string; content: string }>(
      sql`SELECT n.title, i.name AS institute, n.content FROM radar.news_items n JOIN radar.institutes i ON i.id = n.institute_id ORDER BY n.id`,
    );
    expect(rows.rows.map((row) => [row.title, row.institute])).toEqual([
      ['Lab team wins national award for quantum sensing', 'Demo Institute'],
      ['Open day for prospective students', 'Demo Institute'],
    ]);
    expect(rows.rows[0]?.content).not.toMatch(/<|script|dataLayer/);
  });

  it('records rejected items and warnings with their reasons', async () => {
    await load('news-rss', 'malformed-feed.xml', { institute: 'Bad Feed' });
    const rejects = await database.db.execute<{
      source: string;
      severity: string;
      reason: string;
      item_key: string | null;
    }>(
      sql`SELECT source, severity, reason, item_key FROM radar.ingest_rejects WHERE source = 'news-rss-file' ORDER BY id`,
    );
    const reasons = rejects.rows.map((row) => `${row.severity}:${row.reason}`);
    expect(reasons).toContain('rejected:no URL');
    expect(reasons).toContain('rejected:no title');
    expect(reasons).toContain('warning:malformed XML');
    expect(reasons).toContain('warning:feed truncated');
    expect(reasons).toContain('rejected:incomplete entry at end of feed');
  });

  it('gives a file that is not a feed one clear error', async () => {
    await expect(load('news-rss', 'not-a-feed.html', { institute: 'x' })).rejects.toThrow(
      /not-a-feed\.html looks like an HTML page, not a news feed: save the feed itself/,
    );
    await expect(load('rss', 'does-not-exist.xml')).rejects.toThrow(/no such file/);
  });
});
