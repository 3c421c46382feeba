import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ArticleRepository, createIngestRepositories, sql } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentStore } from '../src/pipeline/content-store';
import { titleAuthorKey } from '../src/text/identifiers';
import type { PaperDraft } from '../src/types';

/**
 * The same paper stored twice under identifiers that cannot be merged (a conference DOI and a journal
 * DOI, or two arXiv ids): one row is canonical, the other points at it, lists show it once and the
 * user's states follow the canonical row. The backfill of migration 0010 runs the same function.
 */

const MIGRATION = new URL('../../db/migrations/0010_paper_duplicates.sql', import.meta.url);
const TITLE = 'Sparse Mixture Routing for Long-Document Retrieval';
let database: TestDatabase;
/** The repositories ingestion takes from its composition root; built here per call. */
const repositories = () => createIngestRepositories(database.db);
let userId: string;

const draft = (overrides: Partial<PaperDraft>): PaperDraft => ({
  key: overrides.doi ?? overrides.arxivId ?? 'x',
  title: TITLE,
  authors: ['Li Wei', 'Anna Schmidt'],
  abstract: '',
  keywords: [],
  sourceIds: {},
  notes: [],
  ...overrides,
});

async function rows(): Promise<{ id: number; doi: string | null; duplicate_of: number | null }[]> {
  const result = await database.db.execute<{ id: number; doi: string | null; duplicate_of: number | null }>(
    sql`SELECT id::int AS id, doi, duplicate_of::int AS duplicate_of FROM radar.papers ORDER BY id`,
  );
  return result.rows;
}

const search = () =>
  new ArticleRepository(database.db).search({ keywords: ['Sparse Mixture Routing'], userId, limit: 20, offset: 0 });

beforeAll(async () => {
  database = await createTestDatabase();
  const result = await database.db.execute<{ id: string }>(
    sql`INSERT INTO radar.users (email) VALUES ('dup@example.org') RETURNING id`,
  );
  userId = String(result.rows[0]?.id);
});

afterAll(async () => {
  await database?.close();
});

describe('papers stored twice under different identifiers', () => {
  it('gives generic titles and papers without authors no key', () => {
    expect(titleAuthorKey('Author Correction', ['Li Wei'])).toBeUndefined();
    expect(titleAuthorKey('Reply to comment', ['Li Wei'])).toBeUndefined();
    expect(titleAuthorKey(TITLE, [])).toBeUndefined();
    expect(titleAuthorKey(TITLE, ['Li Wei'])).toBeDefined();
  });

  it('keeps the journal version canonical and moves the favourite of the first record to it', async () => {
    const store = new ContentStore(repositories(), { source: 'test' });
    const first = await store.storePaper(draft({ doi: '10.1145/3600000.3600001', url: 'https://dl.acm.org/x' }));
    expect(first.outcome).toBe('added');
    const firstId = (first as { id: number }).id;
    const articles = new ArticleRepository(database.db);
    expect(await articles.toggleFavorite(userId, firstId)).toBe(true);
    expect(await articles.recordReadProgress(userId, firstId, 40)).toBe(40);

    const journal = await store.storePaper(
      draft({
        doi: '10.1016/j.ipm.2026.104001',
        url: 'https://doi.org/10.1016/j.ipm.2026.104001',
        abstract: 'We route long documents through sparse experts.',
        journal: { name: 'Information Processing & Management', issns: ['03064573'] },
      }),
    );
    expect(journal.outcome).toBe('added');
    const journalId = (journal as { id: number }).id;
    expect(await rows()).toEqual([
      { id: firstId, doi: '10.1145/3600000.3600001', duplicate_of: journalId },
      { id: journalId, doi: '10.1016/j.ipm.2026.104001', duplicate_of: null },
    ]);

    const found = await search();
    expect(found.total).toBe(1);
    expect(found.papers[0]).toMatchObject({ id: journalId });
    const library = await articles.library({ userId, list: 'all', limit: 20, offset: 0 });
    expect(library.papers.map((paper) => [paper.id, paper.readProgress])).toEqual([[journalId, 40]]);
    const states = await database.db.execute<{ paper_id: number; is_favorited: boolean }>(
      sql`SELECT paper_id::int AS paper_id, is_favorited FROM radar.user_article_states`,
    );
    expect(states.rows).toEqual([{ paper_id: journalId, is_favorited: true }]);
  });

  it('writes a state sent with the old id to the canonical row', async () => {
    const [old, canonical] = await rows();
    const articles = new ArticleRepository(database.db);
    expect(await articles.toggleSaved(userId, Number(old?.id))).toBe(true);
    const states = await database.db.execute<{ paper_id: number; is_saved: boolean; is_favorited: boolean }>(
      sql`SELECT paper_id::int AS paper_id, is_saved, is_favorited FROM radar.user_article_states`,
    );
    expect(states.rows).toEqual([{ paper_id: canonical?.id, is_saved: true, is_favorited: true }]);
  });

  it('migration 0010: clears generic keys, links pre-existing duplicates, merges both states without repeating a key', async () => {
    const key = titleAuthorKey('Graph Priors for Protein Folding at Scale', ['Chen Ming']);
    const inserted = await database.db.execute<{ id: number }>(
      sql`INSERT INTO radar.papers (title, authors, abstract, arxiv_id, title_author_key, source)
          VALUES ('Graph Priors for Protein Folding at Scale', '["Chen Ming"]', '', '2601.00001', ${key}, 'old'),
                 ('Graph Priors for Protein Folding at Scale', '["Chen Ming"]', 'An abstract.', '2601.99999', ${key}, 'old')
          RETURNING id::int AS id`,
    );
    const [preprint, better] = inserted.rows.map((row) => Number(row.id));
    await database.db.execute(
      sql`INSERT INTO radar.user_article_states (user_id, paper_id, is_favorited, read_progress, dismissed_at)
          VALUES (${userId}, ${preprint}, true, 10, NULL), (${userId}, ${better}, false, 70, now())`,
    );
    await database.db.execute(
      sql`INSERT INTO radar.keyword_alert_deliveries (user_id, paper_id) VALUES (${userId}, ${preprint}), (${userId}, ${better})`,
    );
    // Two corrections by one author, stored with a key before generic titles had none.
    await database.db.execute(
      sql`INSERT INTO radar.papers (title, authors, doi, title_author_key, source)
          VALUES ('Author Correction', '["Chen Ming"]', '10.1038/corr-1', 'author correction|ming', 'old'),
                 ('Author Correction', '["Chen Ming"]', '10.1038/corr-2', 'author correction|ming', 'old')`,
    );
    // Migration 0010 itself, less the column and index it added (already in the test database).
    const migration = await readFile(fileURLToPath(MIGRATION), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) {
      if (/^\s*(ALTER TABLE|CREATE INDEX)/.test(statement)) continue;
      await database.db.execute(sql.raw(statement));
    }
    const corrections = await database.db.execute(
      sql`SELECT title_author_key, duplicate_of FROM radar.papers WHERE title = 'Author Correction'`,
    );
    expect(corrections.rows).toEqual([
      { title_author_key: null, duplicate_of: null },
      { title_author_key: null, duplicate_of: null },
    ]);
    const linked = await database.db.execute<{ id: number; duplicate_of: number | null }>(
      sql`SELECT id::int AS id, duplicate_of::int AS duplicate_of FROM radar.papers WHERE title_author_key = ${key} ORDER BY id`,
    );
    expect(linked.rows).toEqual([
      { id: preprint, duplicate_of: better },
      { id: better, duplicate_of: null },
    ]);
    const states = await database.db.execute(
      sql`SELECT paper_id::int AS paper_id, is_favorited, read_progress, dismissed_at
          FROM radar.user_article_states WHERE paper_id IN (${preprint}, ${better})`,
    );
    // Favourited on one record, dismissed on the other: the favourite wins, the furthest reading stays.
    expect(states.rows).toEqual([{ paper_id: better, is_favorited: true, read_progress: 70, dismissed_at: null }]);
    const deliveries = await database.db.execute(
      sql`SELECT paper_id::int AS paper_id FROM radar.keyword_alert_deliveries WHERE paper_id IN (${preprint}, ${better})`,
    );
    expect(deliveries.rows).toEqual([{ paper_id: better }]);
  });
});

describe('a favourited preprint whose journal version arrives as its own record', () => {
  it('marks the journal record as the published version, which the reader is told of', async () => {
    const title = 'Contrastive Priors for Sea Ice Forecasting';
    const preprintDraft = { ...draft({ arxivId: '2603.00011' }), title, journal: { name: 'arXiv', issns: [] } };
    const store = new ContentStore(repositories(), { source: 'test' });
    const preprint = (await store.storePaper(preprintDraft)) as { id: number };
    const articles = new ArticleRepository(database.db);
    expect(await articles.toggleSaved(userId, preprint.id)).toBe(true);
    const before = new Date(Date.now() - 1000);

    // Another arXiv id on the journal record (a second listing): the two cannot share a row.
    const journal = (await store.storePaper({
      ...draft({ arxivId: '2603.00099', doi: '10.1016/j.ocemod.2026.102301' }),
      title,
      journal: { name: 'Ocean Modelling', issns: ['14635003'] },
    })) as { id: number };
    const published = await articles.listPublishedPreprints(userId, before);
    expect(published.map((paper) => [paper.id, paper.journalName, paper.doi])).toEqual([
      [journal.id, 'Ocean Modelling', '10.1016/j.ocemod.2026.102301'],
    ]);
    expect(published[0]?.journalVersionArrivedAt).toBeInstanceOf(Date);
  });
});

describe('a linked paper that changes its title', () => {
  it('frees the row it was linked with, which becomes canonical again', async () => {
    const store = new ContentStore(repositories(), { source: 'arxiv' });
    const title = 'Tensor Networks for Lattice Gauge Theories';
    const authors = ['Maria Rossi'];
    const a = await store.storePaper(
      draft({ title, authors, arxivId: '2603.00001', sourceIds: { arxivVersion: '1' }, abstract: 'First version.' }),
    );
    const b = await store.storePaper(
      draft({ title, authors, arxivId: '2603.00002', sourceIds: { arxivVersion: '1' } }),
    );
    const [aId, bId] = [(a as { id: number }).id, (b as { id: number }).id];
    const linkOf = async (id: number) =>
      (
        await database.db.execute<{ duplicate_of: number | null }>(
          sql`SELECT duplicate_of::int AS duplicate_of FROM radar.papers WHERE id = ${id}`,
        )
      ).rows[0]?.duplicate_of;
    // Both preprints; the one with an abstract wins.
    expect(await linkOf(bId)).toBe(aId);

    const renamed = await store.storePaper(
      draft({
        title: 'Tensor Networks for Non-Abelian Lattice Gauge Theories in Two Dimensions',
        authors,
        arxivId: '2603.00001',
        sourceIds: { arxivVersion: '2' },
        abstract: 'Second version.',
        isAuthoritativeVersion: true,
      }),
    );
    expect(renamed.outcome).toBe('updated');
    expect(await linkOf(bId)).toBeNull();
    expect(await linkOf(aId)).toBeNull();
  });
});

describe('news posted twice by one institute', () => {
  const news = (url: string, publishDate: Date, institute = '中国科学院物理研究所') => ({
    key: url,
    title: '物理所在高温超导机理研究中取得新进展',
    content: '研究团队发现了新的配对机制。',
    url,
    institute,
    publishDate,
    notes: [],
  });

  it('stores one item for the same title from the same institute a day apart, under another URL', async () => {
    const store = new ContentStore(repositories(), { source: 'test-news' });
    const first = await store.storeNews(
      news('https://www.iop.cas.cn/xwzx/kydt/202611/t20261120_1.html', new Date('2026-11-20T08:00:00Z')),
    );
    const second = await store.storeNews(
      news('https://www.iop.cas.cn/news/t20261120_1.html', new Date('2026-11-21T02:00:00Z')),
    );
    expect(first.outcome).toBe('added');
    expect(second).toEqual({ outcome: 'unchanged', id: (first as { id: number }).id, matchedBy: 'title' });
  });

  it('keeps a recurring title weeks apart, and the same title from another institute', async () => {
    const store = new ContentStore(repositories(), { source: 'test-news' });
    const later = await store.storeNews(
      news('https://www.iop.cas.cn/xwzx/kydt/202612/t20261215_9.html', new Date('2026-12-15T08:00:00Z')),
    );
    const elsewhere = await store.storeNews(
      news('https://www.ihep.cas.cn/dtxw/t20261120.html', new Date('2026-11-20T08:00:00Z'), '中国科学院高能物理研究所'),
    );
    expect(later.outcome).toBe('added');
    expect(elsewhere.outcome).toBe('added');
    const count = await database.db.execute<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM radar.news_items`,
    );
    expect(count.rows[0]?.count).toBe(3);
  });
});
