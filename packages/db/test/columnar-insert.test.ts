import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertColumns } from '../src/repositories/columnar-insert';
import type { NewPaperRow } from '../src/repositories/paper.repository';
import { papers } from '../src/schema';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/**
 * insertColumns (a bulk import's multi-row insert, one array per column) writes the rows drizzle's
 * `insert(...).values(rows)` writes: every column compared, generated ones included, with rows that leave
 * out columns others give (the table's defaults, SQL and JavaScript ones), explicit nulls, and text that
 * array and JSON literals must escape.
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

const ROWS: NewPaperRow[] = [
  {
    title: 'A full row: "quoted", back\\slash, {braces}, 中文标题',
    authors: ['Ana "Q" Silva', 'Wei Li', "O'Brien"],
    authorIdentities: [{ openalexId: 'A1', orcid: '0000-0002-1825-0097' }, null, { openalexId: 'A3' }] as never,
    abstract: 'Line one.\nLine two with a tab\tand NUL-free text; ＡＢＣ full-width and 全角。',
    journalName: 'Journal of {Odd}, "Names"',
    jcrTier: 2,
    doi: '10.5555/columns.1',
    arxivId: '2401.01234',
    url: 'https://example.org/a?b=c&d="e"',
    urlNormalized: 'example.org/a?b=c&d="e"',
    pdfUrl: 'https://example.org/a.pdf',
    publishedAt: '2025-03-01',
    keywords: ['a,b', 'quote"d', 'back\\slash', 'NULL', '{brace}', '中文', ''],
    researchFields: ['physics', 'computer-science'],
    titleAuthorKey: 'a full row|silva',
    sourceIds: { openalex: 'W1', note: 'say "hi" \\ 你好' },
    source: 'columns-test',
    isDemo: true,
    journalVersionAt: new Date('2025-04-02T03:04:05.678Z'),
    embedding: [0.1, -2.5e-7, 3, 123456.789],
    createdAt: new Date('2025-01-02T00:00:00.000Z'),
  },
  // Only what has no default: every other column takes the table's default (DEFAULT in a VALUES list).
  { title: 'Defaults only', source: 'columns-test' },
  {
    title: 'Explicit nulls',
    source: 'columns-test',
    doi: null,
    arxivId: null,
    authorIdentities: null,
    jcrTier: null,
    publishedAt: null,
    embedding: null,
    keywords: [],
    authors: [],
  },
];

/** Every column of the stored rows but the id, in title order (generated columns included). */
async function storedRows(): Promise<Record<string, unknown>[]> {
  const result = await database.db.execute<{ row: Record<string, unknown> }>(
    sql`SELECT to_jsonb(p) - 'id' - 'updated_at' AS row FROM radar.papers p ORDER BY title`,
  );
  return result.rows.map(({ row }) => {
    // The rows of one path are made in one statement: a creation time left to the default is "now".
    if (row.title !== ROWS[0]?.title) expect(row.created_at).toEqual(expect.any(String));
    return { ...row, created_at: row.title === ROWS[0]?.title ? row.created_at : 'now' };
  });
}

describe('insertColumns', () => {
  it('writes the rows a VALUES insert writes, and returns their ids in the order given', async () => {
    await database.db.insert(papers).values(ROWS);
    const expected = await storedRows();
    await database.db.delete(papers).where(eq(papers.source, 'columns-test'));

    const ids = (await insertColumns(database.db, papers, ROWS, papers.id)) as number[];
    expect(await storedRows()).toEqual(expected);
    const stored = await database.db
      .select({ id: papers.id, title: papers.title })
      .from(papers)
      .orderBy(asc(papers.id));
    expect(ids).toEqual(stored.map((row) => row.id));
    expect(stored.map((row) => row.title)).toEqual(ROWS.map((row) => row.title));
    expect(ids.every((id) => typeof id === 'number')).toBe(true);
    // The generated search document and author keys were computed (not left empty).
    const first = expected.find((row) => row.title === ROWS[0]?.title);
    expect(String(first?.search_vector)).toContain("'quot'");
    expect(first?.author_keys).toEqual(expect.arrayContaining(['a:A1']));
  });

  it('refuses a value given as SQL, and inserts nothing for no rows', async () => {
    await expect(
      insertColumns(
        database.db,
        papers,
        [{ title: 'x', source: 'columns-test', createdAt: sql`now()` as never }],
        papers.id,
      ),
    ).rejects.toThrow(/createdAt is given as SQL/);
    expect(await insertColumns(database.db, papers, [], papers.id)).toEqual([]);
  });
});
