import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { emailChanges, users } from '../schema';
import { isUniqueViolation } from './pg-errors';
import type { UserRow } from './user.repository';

export type EmailChangeRow = typeof emailChanges.$inferSelect;

/** Pending e-mail address changes, one per user, and the change itself. */
export class EmailChangeRepository {
  constructor(private readonly db: Database) {}

  /** Starts a change, replacing any pending one of the user (its code and attempts go with it). */
  async replace(values: { userId: string; newEmail: string; codeHash: string; expiresAt: Date }): Promise<void> {
    await this.db
      .insert(emailChanges)
      .values({ ...values, attempts: 0 })
      .onConflictDoUpdate({
        target: emailChanges.userId,
        set: {
          newEmail: values.newEmail,
          codeHash: values.codeHash,
          expiresAt: values.expiresAt,
          attempts: 0,
          createdAt: sql`now()`,
        },
      });
  }

  async find(userId: string): Promise<EmailChangeRow | undefined> {
    const [row] = await this.db.select().from(emailChanges).where(eq(emailChanges.userId, userId));
    return row;
  }

  /**
   * Counts a wrong code; at `maxAttempts` the change is deleted. Returns the attempts left (0: ended).
   * One statement per step, so parallel guesses cannot each see the same count.
   */
  async recordFailedAttempt(userId: string, codeHash: string, maxAttempts: number): Promise<number> {
    const [row] = await this.db
      .update(emailChanges)
      .set({ attempts: sql`${emailChanges.attempts} + 1` })
      .where(and(eq(emailChanges.userId, userId), eq(emailChanges.codeHash, codeHash)))
      .returning({ attempts: emailChanges.attempts });
    if (!row) return 0;
    if (row.attempts >= maxAttempts) await this.delete(userId);
    return Math.max(0, maxAttempts - row.attempts);
  }

  async delete(userId: string): Promise<void> {
    await this.db.delete(emailChanges).where(eq(emailChanges.userId, userId));
  }

  /**
   * Moves the account to the pending change's address and ends the change, in one transaction, only
   * if the change is still the one whose code was checked (`codeHash`). 'taken': another account holds
   * the address now (the unique index decided); 'gone': the change was replaced, used or ended meanwhile.
   */
  async apply(
    userId: string,
    codeHash: string,
  ): Promise<{ outcome: 'changed'; user: UserRow; oldEmail: string } | { outcome: 'taken' | 'gone' }> {
    try {
      return await this.db.transaction(async (tx) => {
        const [change] = await tx
          .delete(emailChanges)
          .where(and(eq(emailChanges.userId, userId), eq(emailChanges.codeHash, codeHash)))
          .returning();
        if (!change) return { outcome: 'gone' as const };
        const [before] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).for('update');
        if (!before) return { outcome: 'gone' as const };
        const [user] = await tx.update(users).set({ email: change.newEmail }).where(eq(users.id, userId)).returning();
        if (!user) return { outcome: 'gone' as const };
        return { outcome: 'changed' as const, user, oldEmail: before.email };
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The rolled-back transaction kept the pending row; the address is not free, so it ends here.
      await this.delete(userId);
      return { outcome: 'taken' };
    }
  }
}
