import { and, count, desc, eq, gt, gte, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { emailVerificationCodes, passwordResetTokens, users } from '../schema';

export type VerificationCodeRow = typeof emailVerificationCodes.$inferSelect;

/**
 * E-mail verification codes and password reset tokens. Times are passed in rather than taken from
 * the database clock, so expiry rules run on one clock (the service's) and tests can move it.
 */
export class AuthRecordRepository {
  constructor(private readonly db: Database) {}

  async createVerificationCode(values: {
    userId: string;
    codeHash: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<VerificationCodeRow> {
    const [row] = await this.db.insert(emailVerificationCodes).values(values).returning();
    if (!row) throw new Error('insert into email_verification_codes returned no row');
    return row;
  }

  async deleteVerificationCode(id: string): Promise<void> {
    await this.db.delete(emailVerificationCodes).where(eq(emailVerificationCodes.id, id));
  }

  /** The most recent code sent to the user: the only one that can be used. */
  async latestVerificationCode(userId: string): Promise<VerificationCodeRow | undefined> {
    const [row] = await this.db
      .select()
      .from(emailVerificationCodes)
      .where(eq(emailVerificationCodes.userId, userId))
      .orderBy(desc(emailVerificationCodes.createdAt))
      .limit(1);
    return row;
  }

  /** Codes sent since a time, oldest first (for the per-address hourly and daily caps). */
  async verificationCodesSentSince(userId: string, since: Date): Promise<Date[]> {
    const rows = await this.db
      .select({ createdAt: emailVerificationCodes.createdAt })
      .from(emailVerificationCodes)
      .where(and(eq(emailVerificationCodes.userId, userId), gte(emailVerificationCodes.createdAt, since)))
      .orderBy(emailVerificationCodes.createdAt);
    return rows.map((row) => row.createdAt);
  }

  /**
   * Counts a wrong guess. Atomic, so concurrent guesses each count; the code locks when the count
   * reaches maxAttempts. Returns the updated row, or undefined if the code was consumed meanwhile.
   */
  async recordFailedAttempt(
    id: string,
    maxAttempts: number,
    lockUntil: Date,
  ): Promise<VerificationCodeRow | undefined> {
    const [row] = await this.db
      .update(emailVerificationCodes)
      .set({
        failedAttempts: sql`${emailVerificationCodes.failedAttempts} + 1`,
        lockedUntil: sql`CASE WHEN ${emailVerificationCodes.failedAttempts} + 1 >= ${maxAttempts} THEN ${lockUntil.toISOString()}::timestamptz ELSE ${emailVerificationCodes.lockedUntil} END`,
      })
      .where(and(eq(emailVerificationCodes.id, id), isNull(emailVerificationCodes.consumedAt)))
      .returning();
    return row;
  }

  /**
   * Uses a code once: of two simultaneous correct submissions only one gets `true`. Marks the user
   * verified in the same transaction.
   */
  async consumeVerificationCode(code: VerificationCodeRow, now: Date, maxAttempts: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const consumed = await tx
        .update(emailVerificationCodes)
        .set({ consumedAt: now })
        .where(
          and(
            eq(emailVerificationCodes.id, code.id),
            isNull(emailVerificationCodes.consumedAt),
            gt(emailVerificationCodes.expiresAt, now),
            lt(emailVerificationCodes.failedAttempts, maxAttempts),
          ),
        )
        .returning({ id: emailVerificationCodes.id });
      if (consumed.length === 0) return false;
      await tx.update(users).set({ isEmailVerified: true }).where(eq(users.id, code.userId));
      return true;
    });
  }

  async createResetToken(values: { userId: string; tokenHash: string; createdAt: Date; expiresAt: Date }) {
    await this.db.insert(passwordResetTokens).values(values);
  }

  async resetTokensCreatedSince(userId: string, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ value: count() })
      .from(passwordResetTokens)
      .where(and(eq(passwordResetTokens.userId, userId), gte(passwordResetTokens.createdAt, since)));
    return row?.value ?? 0;
  }

  /**
   * Redeems a reset token and sets the new password hash, all or nothing: the token must be unused,
   * unrevoked and unexpired; every other token of the user is revoked; the user's token version is
   * bumped so sessions from before the reset end; following the mailed link also proves the address.
   * Returns the user id, or undefined when the token is not redeemable.
   */
  async redeemResetToken(tokenHash: string, now: Date, passwordHash: string): Promise<string | undefined> {
    return this.db.transaction(async (tx) => {
      const [token] = await tx
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(passwordResetTokens.tokenHash, tokenHash),
            isNull(passwordResetTokens.usedAt),
            isNull(passwordResetTokens.revokedAt),
            gt(passwordResetTokens.expiresAt, now),
          ),
        )
        .returning({ id: passwordResetTokens.id, userId: passwordResetTokens.userId });
      if (!token) return undefined;
      await tx
        .update(passwordResetTokens)
        .set({ revokedAt: now })
        .where(
          and(
            eq(passwordResetTokens.userId, token.userId),
            ne(passwordResetTokens.id, token.id),
            isNull(passwordResetTokens.usedAt),
            isNull(passwordResetTokens.revokedAt),
          ),
        );
      await tx
        .update(users)
        .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, isEmailVerified: true })
        .where(eq(users.id, token.userId));
      return token.userId;
    });
  }

  /**
   * Deletes verification codes and reset tokens that can no longer be used. Codes are kept for a day
   * after they expire because the per-address sending caps count the codes of the last 24 hours.
   */
  async purgeExpired(now: Date = new Date()): Promise<{ codes: number; resetTokens: number }> {
    const dayAgo = new Date(now.getTime() - 24 * 60 * 60 * 1000);
    const codes = await this.db
      .delete(emailVerificationCodes)
      .where(and(lt(emailVerificationCodes.expiresAt, dayAgo), lt(emailVerificationCodes.createdAt, dayAgo)))
      .returning({ id: emailVerificationCodes.id });
    const resetTokens = await this.db
      .delete(passwordResetTokens)
      .where(
        or(
          lt(passwordResetTokens.expiresAt, now),
          sql`${passwordResetTokens.usedAt} IS NOT NULL`,
          sql`${passwordResetTokens.revokedAt} IS NOT NULL`,
        ),
      )
      .returning({ id: passwordResetTokens.id });
    return { codes: codes.length, resetTokens: resetTokens.length };
  }

  async countAll(): Promise<{ codes: number; resetTokens: number }> {
    const [codes] = await this.db.select({ value: count() }).from(emailVerificationCodes);
    const [resetTokens] = await this.db.select({ value: count() }).from(passwordResetTokens);
    return { codes: codes?.value ?? 0, resetTokens: resetTokens?.value ?? 0 };
  }
}
