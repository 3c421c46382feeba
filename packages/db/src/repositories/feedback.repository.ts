import { and, desc, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { feedback, users } from '../schema';

export type FeedbackRow = typeof feedback.$inferSelect;
export type NewFeedbackRow = typeof feedback.$inferInsert;
/** A message as the operator reads it: with the sender's account address, when they were signed in. */
export type FeedbackMessage = FeedbackRow & { accountEmail: string | null };

export class FeedbackRepository {
  constructor(private readonly db: Database) {}

  async insert(values: NewFeedbackRow): Promise<FeedbackRow> {
    const [row] = await this.db.insert(feedback).values(values).returning();
    if (!row) throw new Error('insert into feedback returned no row');
    return row;
  }

  async findById(id: number): Promise<FeedbackRow | undefined> {
    const [row] = await this.db.select().from(feedback).where(eq(feedback.id, id));
    return row;
  }

  async markMailed(id: number, at: Date): Promise<void> {
    await this.db.update(feedback).set({ mailedAt: at }).where(eq(feedback.id, id));
  }

  /** Messages for the operator (`radar messages`), newest first: all, or only those not marked read. */
  async list(options: { unreadOnly: boolean; limit: number }): Promise<FeedbackMessage[]> {
    return this.db
      .select({ ...getTableColumns(feedback), accountEmail: users.email })
      .from(feedback)
      .leftJoin(users, eq(users.id, feedback.userId))
      .where(options.unreadOnly ? isNull(feedback.readAt) : undefined)
      .orderBy(desc(feedback.createdAt), desc(feedback.id))
      .limit(options.limit);
  }

  /**
   * Marks messages read (the given ids, or every unread one), keeping the first time a message was
   * marked. Returns the ids that were unread until now, so marking twice counts nothing the second time.
   */
  async markRead(ids: readonly number[] | 'all', at: Date): Promise<number[]> {
    if (ids !== 'all' && ids.length === 0) return [];
    const rows = await this.db
      .update(feedback)
      .set({ readAt: at })
      .where(and(isNull(feedback.readAt), ids === 'all' ? undefined : inArray(feedback.id, [...ids])))
      .returning({ id: feedback.id });
    return rows.map((row) => row.id).sort((a, b) => a - b);
  }

  /** Which of the ids name a stored message. */
  async existing(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select({ id: feedback.id })
      .from(feedback)
      .where(inArray(feedback.id, [...ids]));
    return rows.map((row) => row.id);
  }

  async countUnread(): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(feedback)
      .where(isNull(feedback.readAt));
    return row?.count ?? 0;
  }
}
