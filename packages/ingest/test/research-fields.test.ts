import fs from 'node:fs';
import path from 'node:path';
import { createIngestRepositories, PaperRepository, sql } from '@radar/db';
import { createTestDatabase, sharedFixturesDir, type TestDatabase } from '@radar/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSourceFile } from '../src/pipeline/run-source';
import { defaultIngestSettings } from '../src/pipeline/settings';
import { loadSources } from '../src/pipeline/sources-config';
import { arxivFields, openAlexTopicFields, scimagoFields } from '../src/text/research-field-evidence';
import { importTierTableFile } from '../src/tiers/tier-import';

/**
 * Research fields from what sources say, stored at ingest: arXiv categories, OpenAlex primary topics and
 * SCImago subject areas from recorded real payloads, into a real database; a source's declared fields.
 */

const REAL = path.join(sharedFixturesDir(), 'real');
const hasReal = fs.existsSync(REAL);
if (!hasReal) console.warn(`skipping the real-payload part of research-fields.test.ts: ${REAL} does not exist`);

describe('field evidence', () => {
  it('maps arXiv archives and categories, ignoring what is not a category', () => {
    expect(arxivFields(['cs.LG', 'stat.ML'])).toEqual(['computer-science', 'mathematics']);
    expect(arxivFields(['cond-mat.mtrl-sci'])).toEqual(['physics-astronomy', 'materials-science']);
    expect(arxivFields(['hep-th', 'astro-ph.CO', 'quant-ph', 'nucl-ex', 'gr-qc'])).toEqual(['physics-astronomy']);
    expect(arxivFields(['q-bio.GN'])).toEqual(['biology']);
    expect(arxivFields(['q-fin.ST', 'econ.EM'])).toEqual(['economics']);
    expect(arxivFields(['eess.SP'])).toEqual(['engineering-technology']);
    expect(arxivFields(['physics.ed-ph'])).toEqual(['physics-astronomy', 'education']);
    expect(arxivFields(['math-ph'])).toEqual(['mathematics', 'physics-astronomy']);
    expect(arxivFields(['Cancer', 'Physics of things', 'unknown.XX', ''])).toEqual([]);
  });

  it('maps SCImago areas, narrowed by categories in the humanities and social sciences', () => {
    expect(scimagoFields('Biochemistry, Genetics and Molecular Biology; Medicine', 'Endocrinology (Q1)')).toEqual([
      'biology',
      'medicine',
    ]);
    expect(scimagoFields('Arts and Humanities', 'History (Q1); Philosophy (Q2)')).toEqual(['history', 'philosophy']);
    expect(scimagoFields('Arts and Humanities', '')).toEqual(['arts', 'history', 'literature', 'philosophy']);
    expect(
      scimagoFields('Social Sciences; Psychology', 'Education (Q1); Developmental and Educational Psychology (Q1)'),
    ).toEqual(['education', 'psychology']);
    expect(scimagoFields('Multidisciplinary', 'Multidisciplinary (Q1)')).toEqual(['multidisciplinary']);
    expect(scimagoFields('', '')).toEqual([]);
  });

  it('maps OpenAlex primary topics by field id, narrowed by subfield', () => {
    const topic = (field: number, subfield: number) => ({
      field: { id: `https://openalex.org/fields/${field}` },
      subfield: { id: `https://openalex.org/subfields/${subfield}` },
    });
    expect(openAlexTopicFields(topic(17, 1707))).toEqual(['computer-science']);
    expect(openAlexTopicFields(topic(33, 3304))).toEqual(['education']);
    expect(openAlexTopicFields(topic(12, 1202))).toEqual(['history']);
    expect(openAlexTopicFields({ field: { display_name: 'Materials Science' } })).toEqual(['materials-science']);
    expect(openAlexTopicFields(null)).toEqual([]);
  });
});

describe.runIf(hasReal)('fields stored at ingest from recorded real payloads', () => {
  let database: TestDatabase;
  const fieldsOfRows = async (where: ReturnType<typeof sql>) =>
    (
      await database.db.execute<{ research_fields: string[] }>(
        sql`SELECT research_fields FROM radar.papers WHERE ${where} ORDER BY id`,
      )
    ).rows.map((row) => row.research_fields);

  beforeAll(async () => {
    database = await createTestDatabase();
    const deps = { repositories: createIngestRepositories(database.db), settings: defaultIngestSettings() };
    await importSourceFile(deps, { kind: 'arxiv', filePath: path.join(REAL, 'arxiv/rsxiv_query.xml') });
    await importSourceFile(deps, {
      kind: 'openalex',
      filePath: path.join(REAL, 'openalex/openalex_works_search_full_schema_3results_fastpaper.json'),
    });
    const { sources } = await loadSources({
      sourcesFile: '',
      sourcesJson: JSON.stringify({
        sources: [
          { name: 'nature-feed', kind: 'rss', url: 'https://www.nature.com/nature.rss', fields: ['multidisciplinary'] },
        ],
      }),
    });
    await importSourceFile(deps, {
      kind: 'rss',
      source: sources[0],
      filePath: path.join(REAL, 'journal-feeds/nature_rss1.0_rdf_75items_2024-07-18.rss'),
    });
  }, 180_000);
  afterAll(async () => {
    await database?.close();
  });

  it('gives arXiv papers the fields of their categories', async () => {
    const rows = await fieldsOfRows(sql`source = 'arxiv-file'`);
    expect(rows.length).toBeGreaterThan(0);
    // The recorded query is about nuclear and particle physics.
    for (const fields of rows) expect(fields).toContain('physics-astronomy');
  });

  it('gives OpenAlex works the fields of their primary topic', async () => {
    const rows = await fieldsOfRows(sql`source = 'openalex-file'`);
    expect(rows.map((fields) => [...fields].sort())).toEqual([
      ['computer-science'],
      ['computer-science'],
      ['biology', 'psychology'],
    ]);
  });

  it("gives a source's declared fields to every item it stores", async () => {
    const rows = await fieldsOfRows(sql`source = 'nature-feed'`);
    expect(rows.length).toBeGreaterThan(50);
    for (const fields of rows) expect(fields).toEqual(['multidisciplinary']);
  });

  it("fills journals' fields from a SCImago export, joined with the paper's own when ranking", async () => {
    await importTierTableFile(
      createIngestRepositories(database.db),
      path.join(REAL, 'journal-tiers/scimago_endocrinology_2024_dreaydemir.csv'),
    );
    const journals = await database.db.execute<{ title: string; research_fields: string[] }>(
      sql`SELECT title, research_fields FROM radar.journals WHERE title = 'The Lancet Diabetes and Endocrinology'`,
    );
    expect(journals.rows[0]?.research_fields).toEqual(['biology', 'medicine']);
    const withFields = await database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM radar.journals WHERE cardinality(research_fields) > 0`,
    );
    expect(withFields.rows[0]?.n).toBeGreaterThan(50);
    // A paper of a journal whose areas arrive later counts them at once (no backfill).
    const [paper] = await new PaperRepository(database.db).insertMany([
      {
        title: 'Once-weekly insulin in type 2 diabetes',
        journalId: Number(
          (
            await database.db.execute<{ id: string }>(
              sql`SELECT id FROM radar.journals WHERE title = 'The Lancet Diabetes and Endocrinology'`,
            )
          ).rows[0]?.id,
        ),
        url: 'https://example.org/insulin',
        researchFields: [],
        source: 'test',
      },
    ]);
    const joined = await database.db.execute<{ fields: string[] }>(
      sql`SELECT p.research_fields || j.research_fields AS fields
          FROM radar.papers p JOIN radar.journals j ON j.id = p.journal_id WHERE p.id = ${paper?.id as number}`,
    );
    expect(joined.rows[0]?.fields).toEqual(['biology', 'medicine']);
  });
});
