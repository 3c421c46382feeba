import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createIngestRepositories, sql } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSourceFile } from '../src/pipeline/run-source';
import { defaultIngestSettings } from '../src/pipeline/settings';
import { importTierTableFile } from '../src/tiers/tier-import';

/** Tier tables on a real database: import, mapping papers by ISSN then title, re-import updating papers. */

const FIXTURES = fileURLToPath(new URL('./fixtures/ingest/', import.meta.url));
let database: TestDatabase;
/** The repositories ingestion takes from its composition root; built here per call. */
const repositories = () => createIngestRepositories(database.db);
let tmp: string;

async function tierOf(where: ReturnType<typeof sql>): Promise<(number | null)[]> {
  const result = await database.db.execute<{ jcr_tier: number | null }>(
    sql`SELECT jcr_tier FROM radar.papers WHERE ${where} ORDER BY id`,
  );
  return result.rows.map((row) => row.jcr_tier);
}

beforeAll(async () => {
  database = await createTestDatabase();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-tiers-'));
  const deps = { repositories: repositories(), settings: defaultIngestSettings() };
  // Papers first: journals are created without tier, the import then reaches them.
  await importSourceFile(deps, { kind: 'crossref', filePath: path.join(FIXTURES, 'crossref-journal-works.json') });
  await importSourceFile(deps, { kind: 'rss', filePath: path.join(FIXTURES, 'journal-rss1.rdf') });
  await importSourceFile(deps, {
    kind: 'rss',
    filePath: path.join(FIXTURES, 'journal-atom.xml'),
    journal: 'Demo Physics Letters',
  });
  await importSourceFile(deps, { kind: 'arxiv', filePath: path.join(FIXTURES, 'arxiv-api-2025-11.xml') });
});

afterAll(async () => {
  await database?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('journal tiers', () => {
  it('leaves papers without tier until a table is imported', async () => {
    // 11 items, one of them the journal version of an arXiv preprint (merged): 10 papers.
    expect(await tierOf(sql`true`)).toEqual(new Array(10).fill(null));
  });

  it('imports the SCImago export and maps papers by ISSN', async () => {
    const summary = await importTierTableFile(repositories(), path.join(FIXTURES, 'tiers-scimago.csv'));
    expect(summary).toMatchObject({
      label: 'scimago-2024',
      format: 'scimago',
      rows: 6,
      journalsAdded: 2, // Journal of Computational Chemistry Letters and Nature were not seen yet
      journalsUpdated: 2,
    });
    expect(summary.rejects.map((reject) => reject.reason)).toEqual(['no tier', 'no journal']);
    expect(summary.papersRetiered).toBe(4);
    expect(await tierOf(sql`journal_name = 'Journal of Machine Learning Research Letters'`)).toEqual([1, 1]);
    expect(await tierOf(sql`journal_name = 'Frontiers of Demo Ecology'`)).toEqual([3, 3]);
    // Preprints have no tier, and keep none (the fourth arXiv paper names its journal: see below).
    expect(await tierOf(sql`journal_name = 'arXiv'`)).toEqual([null, null]);
    const journals = await database.db.execute<{
      title: string;
      issn: string | null;
      eissn: string | null;
      tier: number;
    }>(
      sql`SELECT title, issn, eissn, tier FROM radar.journals WHERE title = 'Journal of Computational Chemistry Letters'`,
    );
    expect(journals.rows).toEqual([
      { title: 'Journal of Computational Chemistry Letters', issn: '20493630', eissn: '20493649', tier: 2 },
    ]);
  });

  it('combines several exports of the same table to the best tier', async () => {
    const other = path.join(tmp, 'scimago-ai.csv');
    await fs.writeFile(
      other,
      'Rank;Sourceid;Title;Type;Issn;SJR;SJR Quartile;Total Docs. (2024)\n1;1;Journal of Machine Learning Research Letters;journal;12345679;0,9;Q3;10\n',
    );
    const summary = await importTierTableFile(repositories(), other);
    expect(summary).toMatchObject({ label: 'scimago-2024', journalsUpdated: 0, journalsUnchanged: 1 });
    expect(await tierOf(sql`journal_name = 'Journal of Machine Learning Research Letters'`)).toEqual([1, 1]);
  });

  it('maps papers by normalised title when no ISSN is known, and a new table replaces the old tier', async () => {
    const summary = await importTierTableFile(repositories(), path.join(FIXTURES, 'tiers-plain.csv'));
    expect(summary).toMatchObject({ label: 'tiers-plain', format: 'plain' });
    expect(await tierOf(sql`journal_name = 'Journal of Machine Learning Research Letters'`)).toEqual([2, 2]);
    expect(await tierOf(sql`journal_name = 'Demo Physics Letters'`)).toEqual([2, 2, 2]);
    // Not in the new table: keeps the tier of the earlier one.
    expect(await tierOf(sql`journal_name = 'Frontiers of Demo Ecology'`)).toEqual([3, 3]);
  });

  it('re-importing the same table changes nothing', async () => {
    const summary = await importTierTableFile(repositories(), path.join(FIXTURES, 'tiers-plain.csv'));
    expect(summary).toMatchObject({ journalsAdded: 0, journalsUpdated: 0, papersRetiered: 0, papersLinked: 0 });
  });

  it('gives a preprint the tier of its journal version as soon as that arrives', async () => {
    const summary = await importSourceFile(
      { repositories: repositories(), settings: defaultIngestSettings() },
      { kind: 'crossref', filePath: path.join(FIXTURES, 'crossref-single-work.json') },
    );
    // The Crossref work is the journal version of arXiv:2501.05678 (same title and first author).
    expect(summary.counts).toMatchObject({ added: 0, updated: 1 });
    expect(await tierOf(sql`doi = '10.5555/jccl.2025.777' AND arxiv_id = '2501.05678'`)).toEqual([2]);
  });

  it('decodes entities in table titles and reads a Spanish header: the journal is matched, not duplicated', async () => {
    const feed = path.join(tmp, 'energy.xml');
    await fs.writeFile(
      feed,
      `<rss version="2.0"><channel><title>Energy</title><item><title>Soot formation in demo flames</title>
       <link>https://energy.example.org/articles/1</link><pubDate>Mon, 02 Jun 2025 00:00:00 GMT</pubDate></item></channel></rss>`,
    );
    await importSourceFile(
      { repositories: repositories(), settings: defaultIngestSettings() },
      { kind: 'rss', filePath: feed, journal: 'Energy & Fuels' },
    );
    const table = path.join(tmp, 'cuartiles.csv');
    await fs.writeFile(table, 'Título;ISSN;Cuartil\nEnergy &amp; Fuels;;Q2\n');
    const summary = await importTierTableFile(repositories(), table);
    expect(summary).toMatchObject({ rows: 1, journalsAdded: 0, journalsUpdated: 1 });
    expect(await tierOf(sql`journal_name = 'Energy & Fuels'`)).toEqual([2]);
    const titles = await database.db.execute<{ title: string }>(
      sql`SELECT title FROM radar.journals WHERE title LIKE 'Energy%' ORDER BY id`,
    );
    expect(titles.rows).toEqual([{ title: 'Energy & Fuels' }]);
  });

  it("gives an arXiv paper the journal its journal_ref names, with that journal's tier", async () => {
    const table = path.join(tmp, 'ir.csv');
    await fs.writeFile(table, 'title,issn,tier\nInformation Retrieval Journal,,Q1\n');
    await importTierTableFile(repositories(), table);
    const journalsBefore = await database.db.execute<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM radar.journals`,
    );
    await importSourceFile(
      { repositories: repositories(), settings: defaultIngestSettings() },
      { kind: 'arxiv', filePath: path.join(FIXTURES, 'arxiv-api-2025-08-legacy.xml') },
    );
    const rows = await database.db.execute<{ arxiv_id: string; journal_name: string; jcr_tier: number | null }>(
      sql`SELECT arxiv_id, journal_name, jcr_tier FROM radar.papers WHERE arxiv_id IN ('2412.09999', 'cond-mat/0501001') ORDER BY arxiv_id`,
    );
    expect(rows.rows).toEqual([
      { arxiv_id: '2412.09999', journal_name: 'Information Retrieval Journal', jcr_tier: 1 },
      // "Phys. Rev. B 71, 000001 (2005)": shown as published there; no journal row made from free text.
      { arxiv_id: 'cond-mat/0501001', journal_name: 'Phys. Rev. B', jcr_tier: null },
    ]);
    const journalsAfter = await database.db.execute<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM radar.journals`,
    );
    expect(journalsAfter.rows).toEqual(journalsBefore.rows);
  });

  it('explains a file that is not a tier table', async () => {
    const bad = path.join(tmp, 'bad.csv');
    await fs.writeFile(bad, 'name;score\nA;1\n');
    await expect(importTierTableFile(repositories(), bad)).rejects.toThrow(/no tier column/);
  });
});
