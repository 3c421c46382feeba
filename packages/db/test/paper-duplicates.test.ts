import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmbeddingModelRow,
  EmbeddingRepository,
  IngestPaperRepository,
  KeywordRepository,
  PaperRepository,
  sql,
  VectorRepository,
} from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/**
 * Two records of one paper (a preprint and its journal version, identical text and vector): after
 * linkDuplicates only the journal record is recommended and alerted, on every search route.
 */

const KEY = 'contrastive pretraining of cell atlases|zhang';
let database: TestDatabase;
let model: EmbeddingModelRow;
let preprintId: number;
let journalId: number;
let userId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  model = await new EmbeddingRepository(database.db).registerModel({
    provider: 'test',
    name: 'dup',
    version: '1',
    dimension: 4,
  });
  const paperRepository = new PaperRepository(database.db);
  const base = {
    title: 'Contrastive Pretraining of Cell Atlases',
    authors: ['Zhang San'],
    abstract: 'Cell atlases pretrained contrastively.',
    titleAuthorKey: KEY,
    source: 'test',
  };
  const [preprint, journal, other] = await paperRepository.insertMany([
    { ...base, arxivId: '2601.01111' },
    { ...base, doi: '10.1038/s41586-026-00001-1', journalName: 'Nature', jcrTier: 1 },
    { title: 'An unrelated neighbour paper', source: 'test' },
  ]);
  preprintId = Number(preprint?.id);
  journalId = Number(journal?.id);
  await new VectorRepository(database.db).setVectors('papers', model.id, [
    { id: String(preprintId), vector: [1, 0, 0, 0] },
    { id: String(journalId), vector: [1, 0, 0, 0] },
    { id: String(other?.id), vector: [0.9, 0.1, 0, 0] },
  ]);
  expect(await new IngestPaperRepository(database.db).linkDuplicates(KEY)).toBe(journalId);
  const user = await database.db.execute<{ id: string }>(
    sql`INSERT INTO radar.users (email, is_email_verified, password_hash)
        VALUES ('alerts@example.org', true, 'x') RETURNING id`,
  );
  userId = String(user.rows[0]?.id);
  await database.db.execute(
    sql`INSERT INTO radar.user_keywords (user_id, name, alert_enabled) VALUES (${userId}, 'cell atlases', true)`,
  );
});

afterAll(async () => {
  await database?.close();
});

describe(`duplicate papers in lists (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it.each(['exact', 'index'] as const)(
    'recommends the paper once, as its journal record (%s route)',
    async (strategy) => {
      const result = await new PaperRepository(database.db).recommend({
        model,
        vector: [1, 0, 0, 0],
        topK: 10,
        threshold: -1,
        strategy,
      });
      const ids = result.papers.map((row) => row.id);
      expect(ids).toContain(journalId);
      expect(ids).not.toContain(preprintId);
      expect(ids).toHaveLength(2);
    },
  );

  it('alerts the paper once, as its journal record', async () => {
    const [claim] = await new KeywordRepository(database.db).claimAlertDigests([{ userId }], {
      dueSlackMinutes: 30,
      firstLookbackDays: 7,
      maxLookbackDays: 30,
      overlapMinutes: 60,
      maxPapers: 20,
    });
    expect(claim?.papers.map((paper) => paper.id)).toEqual([journalId]);
  });
});
