import { index, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, radar } from './columns';
import { ownerColumn } from './users';

/**
 * One row per login: the `sid` claim of its bearer token. A token is accepted only while its session
 * is here, unrevoked and unexpired (the auth guard reads them through its cache, plugins/user-cache.ts).
 * Revoking notifies every process (the trigger installed by UserRepository.ensureChangeNotifications);
 * `last_seen_at` moves at most once per SESSION_LAST_SEEN_INTERVAL and notifies nobody.
 */
export const sessions = radar.table(
  'sessions',
  {
    /** The token's `sid` claim. */
    id: uuid('id').primaryKey(),
    userId: ownerColumn(),
    /** The User-Agent of the login request (cut to 512 characters); the device shown on /my. */
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** The token's `exp`: the row is purged after it. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set by a logout, "log out other devices", a password change or reset. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('sessions_user_expires_idx').on(t.userId, t.expiresAt),
    index('sessions_expires_at_idx').on(t.expiresAt),
  ],
);
