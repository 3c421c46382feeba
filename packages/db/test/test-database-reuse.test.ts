import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testDatabaseUrl } from '../src/testing';

/*
 * The embedded mode keeps a closed test database and hands it to the next file of the process after
 * putting it back to the template's state (src/testing/pglite-reuse.ts). What a test leaves behind must
 * not reach the next one; a database whose schema changed is not reused at all.
 */

/** When the instance started: the same value means the same PGlite instance, reused. */
const startedAt = async (db: TestDatabase) =>
  String((await db.pool.query('SELECT pg_postmaster_start_time()::text AS t')).rows[0].t);

/** Everything a test can read that the reset must give back: rows, sequences, session and statistics. */
async function observable(db: TestDatabase): Promise<Record<string, unknown>> {
  const one = async (sql: string) => (await db.pool.query(sql)).rows;
  return {
    institutes: await one('SELECT count(*)::int AS n FROM radar.institutes'),
    migrations: await one('SELECT id, hash, created_at::text FROM drizzle.__drizzle_migrations ORDER BY id'),
    queueMigrations: await one('SELECT * FROM bullmq.migration ORDER BY 1'),
    nextInstitute: await one(
      "INSERT INTO radar.institutes (name) VALUES ('probe') RETURNING id; DELETE FROM radar.institutes",
    ).catch(() => undefined),
    jobSequence: await one('SELECT last_value::text, is_called FROM bullmq.job_seq'),
    statistics: await one(
      "SELECT count(*)::int AS n FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'radar'",
    ),
    prepared: await one('SELECT name FROM pg_prepared_statements ORDER BY name'),
    channels: await one('SELECT pg_listening_channels() AS channel'),
    advisoryLocks: await one("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'"),
    settings: await one(
      "SELECT current_setting('work_mem') AS work_mem, current_setting('search_path') AS search_path",
    ),
  };
}

describe.skipIf(testDatabaseUrl())('embedded test databases reused within a process', () => {
  it('hands out a closed database again as the template left it, whatever the last file did', async () => {
    const fresh = await createTestDatabase();
    const freshStart = await startedAt(fresh);
    const expected = await observable(fresh);

    // What a test file might leave: rows, used sequences, statistics, session state, and a client that
    // disconnects inside a transaction.
    await fresh.pool.query(
      "INSERT INTO radar.institutes (name) SELECT 'institute ' || i FROM generate_series(1, 300) i",
    );
    await fresh.pool.query('ANALYZE radar.institutes');
    await fresh.pool.query("SELECT nextval('bullmq.job_seq'), nextval('bullmq.job_seq')");
    await fresh.pool.query('DELETE FROM drizzle.__drizzle_migrations WHERE id > 30');
    await fresh.pool.query("UPDATE bullmq.migration SET name = 'changed'");
    await fresh.pool.query(
      "SET work_mem = '7MB'; PREPARE left_behind AS SELECT 1; LISTEN left_behind; SELECT pg_advisory_lock(36)",
    );
    const stray = new pg.Client(fresh.connectionConfig);
    stray.on('error', () => {});
    await stray.connect();
    await stray.query("BEGIN; INSERT INTO radar.institutes (name) VALUES ('uncommitted')");
    await fresh.close();

    const reused = await createTestDatabase();
    try {
      expect(await startedAt(reused)).toBe(freshStart);
      expect(await observable(reused)).toEqual(expected);
    } finally {
      await reused.close();
      await stray.end().catch(() => {});
    }
  });

  it('drops what the app creates while it runs (an index, a trigger and its function, a sequence) and reuses the database', async () => {
    const first = await createTestDatabase();
    const firstStart = await startedAt(first);
    await first.pool.query(`
      CREATE INDEX institutes_name_extra_idx ON radar.institutes (lower(name));
      CREATE FUNCTION radar.extra_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
      CREATE TRIGGER extra_notify AFTER UPDATE ON radar.institutes FOR EACH ROW EXECUTE FUNCTION radar.extra_notify();
      CREATE SEQUENCE bullmq.extra_queue_seq;
      INSERT INTO radar.institutes (name) VALUES ('with an index');`);
    await first.close();

    const next = await createTestDatabase();
    try {
      expect(await startedAt(next)).toBe(firstStart);
      const { rows } = await next.pool.query(`SELECT
          to_regclass('radar.institutes_name_extra_idx') AS index, to_regproc('radar.extra_notify') AS fn,
          to_regclass('bullmq.extra_queue_seq') AS seq,
          (SELECT count(*)::int FROM pg_trigger WHERE tgname = 'extra_notify') AS triggers,
          (SELECT count(*)::int FROM radar.institutes) AS institutes`);
      expect(rows).toEqual([{ index: null, fn: null, seq: null, triggers: 0, institutes: 0 }]);
    } finally {
      await next.close();
    }
  });

  it('does not reuse a database whose tables a test altered', async () => {
    const first = await createTestDatabase();
    const firstStart = await startedAt(first);
    await first.pool.query('ALTER TABLE radar.institutes ADD COLUMN extra text');
    await first.close();

    const next = await createTestDatabase();
    try {
      expect(await startedAt(next)).not.toBe(firstStart);
      const { rows } = await next.pool.query(
        "SELECT 1 FROM information_schema.columns WHERE table_schema = 'radar' AND table_name = 'institutes' AND column_name = 'extra'",
      );
      expect(rows).toHaveLength(0);
    } finally {
      await next.close();
    }
  });

  it('does not reuse a database after ALTER SYSTEM', async () => {
    const first = await createTestDatabase();
    const firstStart = await startedAt(first);
    await first.pool.query("ALTER SYSTEM SET work_mem = '9MB'");
    await first.close();

    const next = await createTestDatabase();
    try {
      expect(await startedAt(next)).not.toBe(firstStart);
    } finally {
      await next.close();
    }
  });
});
