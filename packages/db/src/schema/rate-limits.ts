import { customType, integer, timestamp } from 'drizzle-orm/pg-core';
import { radar } from './columns';

/**
 * Text compared byte by byte. A key prefix (`login-client:<account>:`) is then a range of the primary key
 * index, so forgetting every counter of one account does not scan the table; under a locale collation a
 * `LIKE 'prefix%'` cannot use the index.
 */
const byteOrderedText = customType<{ data: string }>({
  dataType: () => 'text COLLATE "C"',
});

/**
 * Rate-limit counters when no Redis is configured: one fixed window per key, shared by every server
 * process and kept across restarts. Rows whose window has ended are dead weight and are purged.
 */
export const rateLimitCounters = radar.table('rate_limit_counters', {
  /** What is counted: a route and client address, an account, a user. Never a raw e-mail address. */
  key: byteOrderedText('key').primaryKey(),
  hits: integer('hits').notNull(),
  /** End of the current window; the next hit after it starts a new one. */
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
});
