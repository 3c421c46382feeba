import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestValue, runPreparedInOneTrip } from '../src/repositories/one-trip';
import { createTestDatabase, type TestDatabase } from '../src/testing';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

/** Our prepared statements in the session of one of the pool's connections. */
async function preparedNames(): Promise<string[]> {
  const { rows } = await database.pool.query<{ name: string }>(
    "SELECT name FROM pg_prepared_statements WHERE starts_with(name, 'radar_') ORDER BY name",
  );
  return rows.map((row) => row.name);
}

/** A statement whose text is the same for every value of `word`, with a setting read at its run. */
const echo = (word: string, tag = 'a') =>
  sql`SELECT ${requestValue(word)}::text AS word, current_setting('enable_sort') AS sort, ${tag} AS tag`;

describe('runPreparedInOneTrip', () => {
  it('runs each statement with its own values, after the settings, and prepares its text once', async () => {
    const before = (await preparedNames()).length;
    const first = await runPreparedInOneTrip(
      database.db,
      ["SET LOCAL enable_sort = 'off'"],
      [echo('one'), echo('two')],
    );
    expect(first).toEqual([[{ word: 'one', sort: 'off', tag: 'a' }], [{ word: 'two', sort: 'off', tag: 'a' }]]);
    const second = await runPreparedInOneTrip(database.db, [], [echo("it's")]);
    expect(second).toEqual([[{ word: "it's", sort: 'on', tag: 'a' }]]);
    // The same text with other values is one prepared statement; the setting ended with its message.
    expect((await preparedNames()).length).toBe(before + 1);
    const { texts } = await database.roundTrips.recordTexts(() =>
      runPreparedInOneTrip(database.db, [], [echo('three')]),
    );
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain('$1::text AS word');
  });

  it('prepares again when the session lost its statements, and keeps at most 32 plus those of a message', async () => {
    await database.pool.query('DEALLOCATE ALL');
    expect(await runPreparedInOneTrip(database.db, [], [echo('back')])).toEqual([
      [{ word: 'back', sort: 'on', tag: 'a' }],
    ]);
    for (let tag = 0; tag < 40; tag++) {
      const [rows] = await runPreparedInOneTrip(database.db, [], [echo(`w${tag}`, `t${tag}`)]);
      expect(rows).toEqual([{ word: `w${tag}`, sort: 'on', tag: `t${tag}` }]);
    }
    // Every connection's session (one in embedded mode) holds at most the bound.
    const client = await database.pool.connect();
    try {
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE starts_with(name, 'radar_')",
      );
      expect(rows[0].n).toBeLessThanOrEqual(33);
    } finally {
      client.release();
    }
  });

  it('runs inside a transaction without preparing (a failed PREPARE would abort it)', async () => {
    const before = await preparedNames();
    const rows = await database.db.transaction((tx) =>
      runPreparedInOneTrip(tx, ["SET LOCAL enable_sort = 'off'"], [echo('tx', 'in-transaction')]),
    );
    expect(rows).toEqual([[{ word: 'tx', sort: 'off', tag: 'in-transaction' }]]);
    expect(await preparedNames()).toEqual(before);
  });
});
