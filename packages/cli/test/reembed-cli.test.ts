import fs from 'node:fs/promises';
import os from 'node:os';
import { syntheticPapers } from '@radar/ai/testing';
import { openDatabase, PaperRepository, sql, UserRepository } from '@radar/db';
import { createMigratedDataDir, createTestDatabase, testDatabaseUrl } from '@radar/db/testing';
import { describe, expect, it } from 'vitest';
import { runRadar } from './run-radar';

/** `pnpm radar reembed` on the embedded database or PostgreSQL (in this process: see run-radar.ts). */

async function reembed(env: Record<string, string>, ...args: string[]): Promise<string> {
  const run = await runRadar(['reembed', ...args], env);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout;
}

const papers = syntheticPapers(210).map((p) => ({ title: p.title, abstract: p.abstract, source: 'test' }));

function expectFirstRun(stdout: string) {
  expect(stdout).toContain('activated the configured embedding model: builtin/hashing-512@1');
  expect(stdout).toContain('refitted the built-in model (first fit)');
  // 32 dimensions: the size chosen for a corpus of 210 documents.
  expect(stdout).toMatch(/active model: builtin\/tfidf-lsa@[0-9a-f]{12} \(32 dimensions\)/);
  expect(stdout).toContain('to embed:     1 user profiles, 210 papers, 0 news items');
  expect(stdout).toMatch(/embedded 1 user profiles, 210 papers, 0 news items with builtin\/tfidf-lsa@/);
}

describe('pnpm radar reembed', () => {
  // The embedded database is its own DATA_DIR, whatever the run's database: the PostgreSQL mode would
  // only repeat it, so it runs in the embedded mode, and that mode's DATABASE_URL test below in the other.
  it.skipIf(testDatabaseUrl())(
    'fits the built-in model and re-embeds everything on the embedded database; a second run has nothing to do',
    async () => {
      const dataDir = await createMigratedDataDir();
      try {
        const db = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 2, migrate: true });
        try {
          await new PaperRepository(db.db).insertMany(papers);
          await new UserRepository(db.db).create({
            email: 'cli@example.org',
            researchSummaryEn: 'I study markets, inflation and monetary policy.',
          });
        } finally {
          await db.close();
        }

        expectFirstRun(await reembed({ DATA_DIR: dataDir }));
        const again = await reembed({ DATA_DIR: dataDir });
        expect(again).toContain('no refit: fitted on 210 documents; the corpus has 210');
        expect(again).toContain('every stored vector is on the active model');

        const forced = await reembed({ DATA_DIR: dataDir }, '--refit');
        // Same corpus, same deterministic fit: the same version, so nothing to re-embed.
        expect(forced).toContain('refitted the built-in model');
        expect(forced).toContain('every stored vector is on the active model');

        const wrong = await runRadar(['reembed', '--everything'], { DATA_DIR: dataDir });
        expect(wrong.code).toBe(1);
        expect(wrong.stderr).toContain('unknown option --everything');
      } finally {
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    },
    120_000,
  );

  it.runIf(testDatabaseUrl())(
    'does the same on PostgreSQL (DATABASE_URL)',
    async () => {
      const database = await createTestDatabase();
      try {
        await new PaperRepository(database.db).insertMany(papers);
        await new UserRepository(database.db).create({
          email: 'cli@example.org',
          researchSummaryEn: 'I study markets.',
        });
        const url = String(database.connectionConfig.connectionString);
        expectFirstRun(await reembed({ DATA_DIR: os.tmpdir(), DATABASE_URL: url }));
        const models = await database.db.execute<{ name: string; n: number }>(
          sql`SELECT m.name, count(*)::int AS n FROM radar.papers p JOIN radar.embedding_models m ON m.id = p.embedding_model_id GROUP BY 1`,
        );
        expect(models.rows).toEqual([{ name: 'tfidf-lsa', n: 210 }]);
      } finally {
        await database.close();
      }
    },
    120_000,
  );
});
