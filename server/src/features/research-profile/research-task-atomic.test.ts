import { RESEARCH_TASK_KIND } from '@radar/ai';
import { AsyncTaskRepository, sql, UserRepository } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResearchProfileService } from './research-profile.service';

/**
 * Submitting an analysis writes two rows: the user's research_description and the task. A failure of
 * the second must not leave the first (issue: description saved, no task, 500).
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

describe('submitting a research-direction analysis', () => {
  it('writes neither the description nor the task when the task cannot be stored', async () => {
    const users = new UserRepository(database.db);
    const tasks = new AsyncTaskRepository(database.db);
    const user = await users.create({ email: 'atomic@example.org', researchDescription: 'before' });
    const research = new ResearchProfileService({
      users,
      tasks,
      // Not reached: the write fails before any analysis or queueing.
      ai: undefined as never,
      researchQueue: undefined as never,
      profileEmbedding: undefined as never,
      syncTimeoutMs: 1_000,
      logger: pino({ level: 'silent' }),
    });

    // A lone surrogate is stored (as U+FFFD) in a text column but refused in jsonb: the first write
    // succeeds and the second fails. The request schemas refuse such text; this reaches the service directly.
    await expect(research.submit(user, 'quantum \ud800 computing')).rejects.toThrow();

    expect((await users.findById(user.id))?.researchDescription).toBe('before');
    const stored = await database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM radar.async_tasks WHERE user_id = ${user.id} AND kind = ${RESEARCH_TASK_KIND}`,
    );
    expect(stored.rows[0]?.n).toBe(0);
  });
});
