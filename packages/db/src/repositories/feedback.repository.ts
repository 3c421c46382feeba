import { eq } from 'drizzle-orm';
import type { Database } from '../connection';
import { feedback } from '../schema';

export type FeedbackRow = typeof feedback.$inferSelect;
export type NewFeedbackRow = typeof feedback.$inferInsert;

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
}
