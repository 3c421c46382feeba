import { createIngestRepositories, OwnWorkRepository, sql } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentStore } from '../src/pipeline/content-store';
import type { PaperDraft } from '../src/types';

/**
 * A reader's own-works import (ContentStore with `privateTo`) against public sources, on a real database:
 * an upload is private to its reader and never rewrites a stored paper; a public source's record replaces
 * an upload of the same work and makes it public; private rows take no part in linking duplicates.
 */

let database: TestDatabase;
let readerA: string;
let readerB: string;

const draft = (overrides: Partial<PaperDraft>): PaperDraft => ({
  key: overrides.doi ?? overrides.arxivId ?? overrides.url ?? 'x',
  title: 'Graph Rewiring for Over-Squashing in Message Passing',
  authors: ['Li Wei', 'Anna Schmidt'],
  abstract: '',
  keywords: [],
  sourceIds: {},
  notes: [],
  ...overrides,
});

const upload = (readerId: string) =>
  new ContentStore(createIngestRepositories(database.db), { source: 'own-works', privateTo: readerId });
const publicSource = () => new ContentStore(createIngestRepositories(database.db), { source: 'crossref-test' });

type Row = {
  id: number;
  title: string;
  abstract: string;
  url: string;
  doi: string | null;
  arxiv_id: string | null;
  authors: string[];
  keywords: string[];
  source: string;
  private_to: string | null;
  duplicate_of: number | null;
};

async function paper(id: number): Promise<Row> {
  const result = await database.db.execute<Row>(
    sql`SELECT id::int AS id, title, abstract, url, doi, arxiv_id, authors, keywords, source, private_to,
          duplicate_of::int AS duplicate_of
        FROM radar.papers WHERE id = ${id}`,
  );
  const row = result.rows[0];
  if (!row) throw new Error(`paper ${id} is gone`);
  return row;
}

const authoredBy = async (userId: string) =>
  (
    await database.db.execute<{ paper_id: number }>(
      sql`SELECT paper_id::int AS paper_id FROM radar.user_article_states
          WHERE user_id = ${userId}::uuid AND authored_at IS NOT NULL ORDER BY paper_id`,
    )
  ).rows.map((row) => row.paper_id);

const idOf = (outcome: Awaited<ReturnType<ContentStore['storePaper']>>) => {
  if (!('id' in outcome)) throw new Error(`not stored: ${outcome.outcome} ${outcome.reason}`);
  return outcome.id;
};

beforeAll(async () => {
  database = await createTestDatabase();
  const created = await database.db.execute<{ id: string }>(
    sql`INSERT INTO radar.users (email) VALUES ('a@example.org'), ('b@example.org') RETURNING id`,
  );
  [readerA, readerB] = created.rows.map((row) => String(row.id)) as [string, string];
});

afterAll(async () => {
  await database?.close();
});

describe('own-works uploads against public sources', () => {
  it('an upload is private to its reader; a public record of the same DOI replaces all of it and makes it public', async () => {
    const spam = await upload(readerA).storePaper(
      draft({
        title: 'FREE CRYPTO click here',
        doi: '10.5555/rewire.2024.1',
        url: 'https://phish.example/login',
        abstract: 'Send your password to us.',
        keywords: ['crypto giveaway'],
      }),
    );
    expect(spam.outcome).toBe('added');
    const id = idOf(spam);
    await new OwnWorkRepository(database.db).markAuthored(readerA, [id]);
    expect(await paper(id)).toMatchObject({
      private_to: readerA,
      source: 'own-works',
      title: 'FREE CRYPTO click here',
    });

    const stored = await publicSource().storePaper(
      draft({
        doi: '10.5555/REWIRE.2024.1',
        url: 'https://journal.example/rewire',
        abstract: 'We rewire graphs to relieve over-squashing.',
        authors: ['Wei Li'],
      }),
    );
    expect(stored).toMatchObject({ outcome: 'updated', id, textChanged: true });
    expect(await paper(id)).toMatchObject({
      title: 'Graph Rewiring for Over-Squashing in Message Passing',
      abstract: 'We rewire graphs to relieve over-squashing.',
      url: 'https://journal.example/rewire',
      authors: ['Wei Li'],
      keywords: [],
      source: 'crossref-test',
      private_to: null,
    });
    // The uploader keeps it as their own work.
    expect(await authoredBy(readerA)).toContain(id);
  });

  it('an upload matching a stored public paper leaves it as it was, and one matching another reader’s upload is skipped', async () => {
    const publicId = idOf(
      await publicSource().storePaper(
        draft({ title: 'Kelp Forest Decline', doi: '10.5555/kelp.1', url: 'https://journal.example/kelp' }),
      ),
    );
    const before = await paper(publicId);
    const again = await upload(readerB).storePaper(
      draft({
        title: 'Kelp Forest Decline (buy now)',
        doi: '10.5555/kelp.1',
        url: 'https://phish.example/kelp',
        abstract: 'Spam abstract.',
        arxivId: '2401.00001',
        keywords: ['spam'],
      }),
    );
    expect(again).toMatchObject({ outcome: 'unchanged', id: publicId });
    expect(await paper(publicId)).toEqual(before);

    const privateA = idOf(
      await upload(readerA).storePaper(draft({ title: 'Seagrass Carbon', doi: '10.5555/seagrass.1' })),
    );
    expect(
      await upload(readerB).storePaper(draft({ title: 'Seagrass Carbon', doi: '10.5555/seagrass.1' })),
    ).toMatchObject({
      outcome: 'skipped',
    });
    // Reader A importing it again finds their own upload.
    expect(
      await upload(readerA).storePaper(draft({ title: 'Seagrass Carbon v2', doi: '10.5555/seagrass.1' })),
    ).toMatchObject({
      outcome: 'unchanged',
      id: privateA,
    });
    expect((await paper(privateA)).title).toBe('Seagrass Carbon');
  });

  it('private rows are never linked as duplicates; made public, they link like any record and keep the own-work mark', async () => {
    const title = 'Coral Reef Fish Recovery After Marine Heatwaves';
    // The public record and an upload with the same title and first author under another DOI.
    const publicId = idOf(
      await publicSource().storePaper(
        draft({ title, doi: '10.5555/coral.journal', journal: { name: 'Coral Reefs', issns: [] } }),
      ),
    );
    const uploadId = idOf(
      await upload(readerA).storePaper(draft({ title, doi: '10.5555/coral.upload', abstract: 'Upload text.' })),
    );
    await new OwnWorkRepository(database.db).markAuthored(readerA, [uploadId]);
    // A second public record of the key relinks it: the upload is neither canonical nor a duplicate.
    const conferenceId = idOf(await publicSource().storePaper(draft({ title, doi: '10.5555/coral.conference' })));
    expect((await paper(uploadId)).duplicate_of).toBeNull();
    expect((await paper(publicId)).duplicate_of).toBeNull();
    expect((await paper(conferenceId)).duplicate_of).toBe(publicId);

    // A public source brings the uploaded DOI: public now, linked under the journal record, and reader
    // A's own-work mark moves with it.
    await publicSource().storePaper(draft({ title, doi: '10.5555/coral.upload' }));
    expect(await paper(uploadId)).toMatchObject({ private_to: null, duplicate_of: publicId, abstract: '' });
    expect(await authoredBy(readerA)).toContain(publicId);
  });
});
