import { and, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { emailVerificationCodes, passwordResetTokens } from '../schema';

export class AuthRecordRepository {
  constructor(private readonly db: Database) {}

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
          isNotNull(passwordResetTokens.usedAt),
          isNotNull(passwordResetTokens.revokedAt),
        ),
      )
      .returning({ id: passwordResetTokens.id });
    return { codes: codes.length, resetTokens: resetTokens.length };
  }

  async countAll(): Promise<{ codes: number; resetTokens: number }> {
    const [row] = await this.db
      .execute<{ codes: number; reset_tokens: number }>(
        sql`SELECT (SELECT count(*)::int FROM radar.email_verification_codes) AS codes,
                 (SELECT count(*)::int FROM radar.password_reset_tokens) AS reset_tokens`,
      )
      .then((result) => result.rows);
    return { codes: row?.codes ?? 0, resetTokens: row?.reset_tokens ?? 0 };
  }
}
