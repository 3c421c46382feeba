import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestPaperRepository } from '../src';
import { insertColumns } from '../src/repositories/columnar-insert';
import type { NewPaperRow } from '../src/repositories/paper.repository';
import { papers } from '../src/schema';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/**
 * The duplicate lookup of a bulk import's chunk (findDedupeCandidatesOfMany) on a table without planner
 * statistics, as during an import (PGlite has no autovacuum): it finds the stored rows by any key and
 * reads the table through its indexes only. A sequential scan per chunk made an import quadratic.
 */

let database: TestDatabase;
const STORED = 3_000;
const ODD_KEY = `o'dd "key", {with} \\back\\slash|author`;

beforeAll(async () => {
  database = await createTestDatabase();
  const rows: NewPaperRow[] = Array.from({ length: STORED }, (_, i) => ({
    title: `Stored work number ${i} on lookup plans`,
    abstract: 'An abstract long enough to make the rows take some pages of the table. '.repeat(8),
    doi: `10.5555/lookup.${i}`,
    url: `https://example.org/lookup/${i}`,
    urlNormalized: `example.org/lookup/${i}`,
    titleAuthorKey: `stored work number ${i} on lookup plans|author`,
    source: 'lookup-test',
  }));
  // A key with every character an array or string literal must escape.
  rows.push({
    ...rows[0],
    title: 'Odd key',
    doi: null,
    url: '',
    urlNormalized: null,
    titleAuthorKey: ODD_KEY,
  } as NewPaperRow);
  for (let i = 0; i < rows.length; i += 1_000)
    await insertColumns(database.db, papers, rows.slice(i, i + 1_000), papers.id);
  await database.db.execute(sql`DELETE FROM pg_statistic WHERE starelid = 'radar.papers'::regclass`);
});

afterAll(async () => {
  await database?.close();
});

async function scans(): Promise<{ seq: number; index: number }> {
  await database.db.execute(sql`SELECT pg_stat_force_next_flush()`);
  // A new statement after the flush: its own snapshot of the statistics.
  const result = await database.db.execute<{ seq: string; idx: string }>(
    sql`SELECT seq_scan::text AS seq, coalesce(idx_scan, 0)::text AS idx FROM pg_stat_user_tables
        WHERE relid = 'radar.papers'::regclass`,
  );
  return { seq: Number(result.rows[0]?.seq), index: Number(result.rows[0]?.idx) };
}

describe('the duplicate lookup of a chunk', () => {
  it('finds rows by each key kind through the indexes, with no sequential scan of the papers', async () => {
    const keys = Array.from({ length: 1_000 }, (_, i) => i * 3);
    const repository = new IngestPaperRepository(database.db);
    const before = await scans();
    const found = await repository.findDedupeCandidatesOfMany({
      // One stored row in 50 per key kind, the rest new, as in a chunk of an import.
      dois: keys.map((i) => (i % 150 === 0 ? `10.5555/lookup.${i}` : `10.5555/new.${i}`)),
      arxivIds: [],
      urlsNormalized: keys.map((i) => (i % 150 === 3 ? `example.org/lookup/${i}` : `example.org/new/${i}`)),
      titleAuthorKeys: keys.map((i) =>
        i % 150 === 6 ? `stored work number ${i} on lookup plans|author` : `new work ${i}|author`,
      ),
    });
    const after = await scans();
    const odd = await repository.findDedupeCandidatesOfMany({
      dois: [],
      arxivIds: [],
      urlsNormalized: [],
      titleAuthorKeys: ['another', ODD_KEY],
    });
    expect(odd.map((row) => row.titleAuthorKey)).toEqual([ODD_KEY]);
    expect(odd[0]).toMatchObject({ title: 'Odd key', authors: [], keywords: [], isDemo: false, privateTo: null });
    expect(typeof odd[0]?.id).toBe('number');

    const expected = keys.filter((i) => i % 150 === 0 || i % 150 === 3 || i % 150 === 6);
    expect(found.map((row) => row.doi)).toEqual(expected.map((i) => `10.5555/lookup.${i}`));
    expect(after.seq - before.seq).toBe(0);
    expect(after.index - before.index).toBeGreaterThan(0);
  });
});
