import { index, integer, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, radar } from './columns';
import { ownerColumn } from './users';

/** One row per code sent. Only a hash of the code is stored. */
export const emailVerificationCodes = radar.table(
  'email_verification_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerColumn(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    /** Set when the attempts are used up: no code is accepted before this unless a new one is sent. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('email_verification_codes_user_created_idx').on(t.userId, t.createdAt)],
);

/** Password reset tokens: hashed, single use, short lived. */
export const passwordResetTokens = radar.table(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerColumn(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** Invalidated because another token of the same user was used. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);
