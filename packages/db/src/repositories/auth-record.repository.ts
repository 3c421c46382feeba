import { and, count, desc, eq, gt, gte, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { emailVerificationCodes, passwordResetTokens, sessions, users } from '../schema';

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

  /**
   * The latest `limit` codes of the account with this address, newest first; empty when there is none.
   * Looked up by address in one statement, so an address without an account costs the same query.
   */
  async recentVerificationCodesByEmail(email: string, limit: number): Promise<VerificationCodeRow[]> {
    return this.db
      .select({ code: emailVerificationCodes })
      .from(emailVerificationCodes)
      .innerJoin(users, eq(users.id, emailVerificationCodes.userId))
      .where(sql`lower(${users.email}) = lower(${email})`)
      .orderBy(desc(emailVerificationCodes.createdAt))
      .limit(limit)
      .then((rows) => rows.map((row) => row.code));
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

  /**
   * Stores a reset token unless the user already got `max` since `since`; false when the cap is reached.
   * The user row is locked meanwhile, so simultaneous requests cannot all pass the count.
   */
  async createResetTokenWithinCap(
    values: { userId: string; tokenHash: string; createdAt: Date; expiresAt: Date },
    cap: { since: Date; max: number },
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, values.userId)).for('update');
      const [recent] = await tx
        .select({ value: count() })
        .from(passwordResetTokens)
        .where(and(eq(passwordResetTokens.userId, values.userId), gte(passwordResetTokens.createdAt, cap.since)));
      if ((recent?.value ?? 0) >= cap.max) return false;
      await tx.insert(passwordResetTokens).values(values);
      return true;
    });
  }

  /**
   * Redeems a reset token and sets the new password hash, all or nothing: the token must be unused,
   * unrevoked and unexpired; every other token of the user is revoked; the user's token version is
   * bumped and their sessions revoked, so sessions from before the reset end; following the mailed link also proves the address.
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
      // Every session ends with the old password (the version bump already refuses their tokens).
      await tx
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, token.userId), isNull(sessions.revokedAt)));
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
}
