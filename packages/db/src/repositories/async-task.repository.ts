import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { asyncTasks, users } from '../schema';

export type AsyncTaskRow = typeof asyncTasks.$inferSelect;

/**
 * User-visible background tasks. Status changes are single conditional UPDATEs, so a retried or
 * duplicated job can never move a finished task back, and a task is completed at most once.
 */
export class AsyncTaskRepository {
  constructor(private readonly db: Database) {}

  async create(values: { userId: string; kind: string; input: Record<string, unknown> }): Promise<AsyncTaskRow> {
    const [row] = await this.db.insert(asyncTasks).values(values).returning();
    if (!row) throw new Error('insert into async_tasks returned no row');
    return row;
  }

  /**
   * Saves the text to analyse as the user's research_description and creates the task that analyses
   * it, in one transaction: a failure leaves neither, so the profile never shows a description that no
   * task was created for.
   */
  async createWithResearchDescription(values: {
    userId: string;
    kind: string;
    researchDescription: string;
  }): Promise<AsyncTaskRow> {
    return this.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ researchDescription: values.researchDescription })
        .where(eq(users.id, values.userId));
      const [row] = await tx
        .insert(asyncTasks)
        .values({
          userId: values.userId,
          kind: values.kind,
          input: { research_description: values.researchDescription },
        })
        .returning();
      if (!row) throw new Error('insert into async_tasks returned no row');
      return row;
    });
  }

  async findById(id: string): Promise<AsyncTaskRow | undefined> {
    const [row] = await this.db.select().from(asyncTasks).where(eq(asyncTasks.id, id)).limit(1);
    return row;
  }

  /** The task only if it belongs to the user: other users' tasks look the same as missing ones. */
  async findOwned(id: string, userId: string): Promise<AsyncTaskRow | undefined> {
    const [row] = await this.db
      .select()
      .from(asyncTasks)
      .where(and(eq(asyncTasks.id, id), eq(asyncTasks.userId, userId)))
      .limit(1);
    return row;
  }

  /**
   * pending/processing -> processing, counting the attempt. Undefined when the task is already
   * completed or failed (a duplicate or late job must then do nothing) or does not exist.
   */
  async startAttempt(id: string): Promise<AsyncTaskRow | undefined> {
    const [row] = await this.db
      .update(asyncTasks)
      .set({
        status: 'processing',
        attempts: sql`${asyncTasks.attempts} + 1`,
        startedAt: sql`coalesce(${asyncTasks.startedAt}, now())`,
        progress: sql`greatest(${asyncTasks.progress}, 5)`,
      })
      .where(and(eq(asyncTasks.id, id), inArray(asyncTasks.status, ['pending', 'processing'])))
      .returning();
    return row;
  }

  /** Progress only moves forward, and only while processing. */
  async reportProgress(id: string, progress: number): Promise<void> {
    const value = Math.max(0, Math.min(99, Math.round(progress)));
    await this.db
      .update(asyncTasks)
      .set({ progress: sql`greatest(${asyncTasks.progress}, ${value})` })
      .where(and(eq(asyncTasks.id, id), eq(asyncTasks.status, 'processing')));
  }

  /** processing -> completed with the result. False when the task was not processing (already finished). */
  async complete(id: string, resultData: unknown): Promise<boolean> {
    const rows = await this.db
      .update(asyncTasks)
      .set({ status: 'completed', resultData, progress: 100, errorMessage: null, finishedAt: sql`now()` })
      .where(and(eq(asyncTasks.id, id), eq(asyncTasks.status, 'processing')))
      .returning({ id: asyncTasks.id });
    return rows.length === 1;
  }

  /** pending/processing -> failed with a message for the user. False when already finished. */
  async fail(id: string, errorMessage: string): Promise<boolean> {
    const rows = await this.db
      .update(asyncTasks)
      .set({ status: 'failed', errorMessage, finishedAt: sql`now()` })
      .where(and(eq(asyncTasks.id, id), inArray(asyncTasks.status, ['pending', 'processing'])))
      .returning({ id: asyncTasks.id });
    return rows.length === 1;
  }

  /** Tasks of a kind still pending or processing that were created before a time, oldest first. */
  async listUnfinished(
    kind: string,
    createdBefore: Date,
    limit: number,
  ): Promise<Pick<AsyncTaskRow, 'id' | 'status' | 'createdAt'>[]> {
    return this.db
      .select({ id: asyncTasks.id, status: asyncTasks.status, createdAt: asyncTasks.createdAt })
      .from(asyncTasks)
      .where(
        and(
          eq(asyncTasks.kind, kind),
          inArray(asyncTasks.status, ['pending', 'processing']),
          lt(asyncTasks.createdAt, createdBefore),
        ),
      )
      .orderBy(asc(asyncTasks.createdAt))
      .limit(limit);
  }

  /** A user's tasks of a kind still pending or processing: their place in a fair queue. */
  async countUnfinishedOf(userId: string, kind: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(asyncTasks)
      .where(
        and(
          eq(asyncTasks.userId, userId),
          eq(asyncTasks.kind, kind),
          inArray(asyncTasks.status, ['pending', 'processing']),
        ),
      );
    return row?.count ?? 0;
  }
}
