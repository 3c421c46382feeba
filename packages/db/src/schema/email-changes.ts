import { integer, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, radar } from './columns';
import { ownerKeyColumn } from './users';

/**
 * A signed-in user's request to move the account to another address, waiting for the code mailed to
 * that address. One per user: a new request replaces the old one (and its code).
 */
export const emailChanges = radar.table('email_changes', {
  userId: ownerKeyColumn(),
  /** Lower-cased, like users.email. */
  newEmail: text('new_email').notNull(),
  /** HMAC of the code bound to the user (SecretCodes.hashVerificationCode); empty when the address was taken and no code was sent. */
  codeHash: text('code_hash').notNull(),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** Wrong codes typed; the change ends at the limit. */
  attempts: integer('attempts').notNull().default(0),
});
