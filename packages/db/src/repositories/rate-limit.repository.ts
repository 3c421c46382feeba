import { and, eq, gt, inArray, like, lte, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { rateLimitCounters } from '../schema';

export interface RateLimitCount {
  /** Hits in the current window (0 when no window is running). */
  hits: number;
  /** Milliseconds until the window ends (0 when none is running). */
  ttlMs: number;
}

/** Keeps a flood of hits on one key from overflowing the integer column. */
const MAX_HITS = 2_000_000_000;

const msLeft = sql<number>`greatest(0, ceil(extract(epoch from ${rateLimitCounters.resetAt} - now()) * 1000))::float8`;

/** `LIKE` pattern matching every text that starts with `prefix`. */
const startsWith = (prefix: string) => `${prefix.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * Fixed-window rate-limit counters in PostgreSQL (used when no Redis is configured). Windows run on the
 * database clock, so every process sharing the database agrees on when one ends.
 */
export class RateLimitRepository {
  constructor(private readonly db: Database) {}

  /**
   * Counts one hit in one statement: a new key or an ended window starts a window of `windowMs` at 1,
   * a running window adds 1. Concurrent hits on one key each count (the upsert locks the row).
   */
  async hit(key: string, windowMs: number): Promise<RateLimitCount> {
    const windowEnded = sql`${rateLimitCounters.resetAt} <= now()`;
    const [row] = await this.db
      .insert(rateLimitCounters)
      .values({ key, hits: 1, resetAt: sql`now() + make_interval(secs => ${windowMs / 1000})` })
      .onConflictDoUpdate({
        target: rateLimitCounters.key,
        set: {
          hits: sql`CASE WHEN ${windowEnded} THEN 1 ELSE least(${rateLimitCounters.hits}, ${MAX_HITS}) + 1 END`,
          resetAt: sql`CASE WHEN ${windowEnded} THEN excluded.reset_at ELSE ${rateLimitCounters.resetAt} END`,
        },
      })
      .returning({ hits: rateLimitCounters.hits, ttlMs: msLeft });
    if (!row) throw new Error('upsert into rate_limit_counters returned no row');
    // now() is each transaction's start: a hit that waited on the row lock behind the one that opened the
    // window started a little earlier, and would see a few milliseconds more than the whole window.
    return { hits: row.hits, ttlMs: Math.min(row.ttlMs, windowMs) };
  }

  /**
   * Counts one hit on each of several keys in one statement (one round trip), each with its own window:
   * the per-user quotas count the user's overall budget and the route's budget together. Keys must be
   * distinct; callers always pass them in the same order, so concurrent statements lock rows alike.
   */
  async hitMany(hits: readonly { key: string; windowMs: number }[]): Promise<RateLimitCount[]> {
    if (hits.length === 0) return [];
    const windowEnded = sql`${rateLimitCounters.resetAt} <= now()`;
    const rows = await this.db
      .insert(rateLimitCounters)
      .values(
        hits.map(({ key, windowMs }) => ({
          key,
          hits: 1,
          resetAt: sql`now() + make_interval(secs => ${windowMs / 1000})`,
        })),
      )
      .onConflictDoUpdate({
        target: rateLimitCounters.key,
        set: {
          hits: sql`CASE WHEN ${windowEnded} THEN 1 ELSE least(${rateLimitCounters.hits}, ${MAX_HITS}) + 1 END`,
          resetAt: sql`CASE WHEN ${windowEnded} THEN excluded.reset_at ELSE ${rateLimitCounters.resetAt} END`,
        },
      })
      .returning({ key: rateLimitCounters.key, hits: rateLimitCounters.hits, ttlMs: msLeft });
    const byKey = new Map(rows.map((row) => [row.key, row]));
    return hits.map(({ key, windowMs }) => {
      const row = byKey.get(key);
      if (!row) throw new Error('upsert into rate_limit_counters returned no row');
      return { hits: row.hits, ttlMs: Math.min(row.ttlMs, windowMs) };
    });
  }

  /** The running window of a key, without counting a hit. */
  async read(key: string): Promise<RateLimitCount> {
    const [row] = await this.db
      .select({ hits: rateLimitCounters.hits, ttlMs: msLeft })
      .from(rateLimitCounters)
      .where(and(eq(rateLimitCounters.key, key), gt(rateLimitCounters.resetAt, sql`now()`)));
    return row ?? { hits: 0, ttlMs: 0 };
  }

  async delete(key: string): Promise<void> {
    await this.db.delete(rateLimitCounters).where(eq(rateLimitCounters.key, key));
  }

  /** Forgets every key starting with `prefix` (a range of the byte-ordered primary key). */
  async deleteByPrefix(prefix: string): Promise<number> {
    const result = await this.db.delete(rateLimitCounters).where(like(rateLimitCounters.key, startsWith(prefix)));
    return result.rowCount ?? 0;
  }

  /** Deletes up to `limit` rows whose window has ended; they would restart at 1 anyway. */
  async purgeExpired(limit = 10_000): Promise<number> {
    const ended = this.db
      .select({ key: rateLimitCounters.key })
      .from(rateLimitCounters)
      .where(lte(rateLimitCounters.resetAt, sql`now()`))
      .limit(limit);
    const result = await this.db.delete(rateLimitCounters).where(inArray(rateLimitCounters.key, ended));
    return result.rowCount ?? 0;
  }
}
