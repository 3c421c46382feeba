import { and, asc, eq, gte, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { readerQueries, users } from '../schema';

export type ReaderQueryRow = typeof readerQueries.$inferSelect;

export interface DueReader {
  userId: string;
  researchSummaryEn: string;
}

export interface ReaderQueryOutcome {
  terms: string[];
  calls: number;
  added: number;
  error?: string | undefined;
}

/**
 * The per-reader OpenAlex query's state: which readers are due (enabled, verified, with an English
 * research summary, and no query since `cutoff`), claiming one so two runs never query the same reader
 * twice, and the calls made since a moment (the daily budget).
 */
export class ReaderQueryRepository {
  constructor(private readonly db: Database) {}

  /** Readers due a query, those never queried first, then the longest waiting; at most `limit`. */
  async listDue(cutoff: Date, limit: number): Promise<DueReader[]> {
    return this.db
      .select({ userId: users.id, researchSummaryEn: users.researchSummaryEn })
      .from(users)
      .leftJoin(readerQueries, eq(readerQueries.userId, users.id))
      .where(
        and(
          eq(users.isEmailVerified, true),
          isNull(users.disabledAt),
          ne(sql`btrim(${users.researchSummaryEn})`, ''),
          or(isNull(readerQueries.lastRunAt), lt(readerQueries.lastRunAt, cutoff)),
        ),
      )
      .orderBy(sql`${readerQueries.lastRunAt} ASC NULLS FIRST`, asc(users.createdAt), asc(users.id))
      .limit(limit);
  }

  /**
   * Marks the reader's query as running at `now` unless one ran since `cutoff` (another run claimed it
   * meanwhile): true when this caller may run it. The previous outcome is cleared.
   */
  async claim(userId: string, now: Date, cutoff: Date): Promise<boolean> {
    const rows = await this.db
      .insert(readerQueries)
      .values({ userId, lastRunAt: now })
      .onConflictDoUpdate({
        target: readerQueries.userId,
        set: { lastRunAt: now, terms: [], calls: 0, added: 0, lastError: null, updatedAt: now },
        setWhere: lt(readerQueries.lastRunAt, cutoff),
      })
      .returning({ userId: readerQueries.userId });
    return rows.length === 1;
  }

  async record(userId: string, outcome: ReaderQueryOutcome): Promise<void> {
    await this.db
      .update(readerQueries)
      .set({
        terms: outcome.terms,
        calls: outcome.calls,
        added: outcome.added,
        lastError: outcome.error ?? null,
      })
      .where(eq(readerQueries.userId, userId));
  }

  /** OpenAlex calls of the queries that ran at or after `since` (each reader's row holds its latest run). */
  async callsSince(since: Date): Promise<number> {
    const [row] = await this.db
      .select({ calls: sql<number>`coalesce(sum(${readerQueries.calls}), 0)::int` })
      .from(readerQueries)
      .where(gte(readerQueries.lastRunAt, since));
    return Number(row?.calls ?? 0);
  }

  async get(userId: string): Promise<ReaderQueryRow | undefined> {
    const [row] = await this.db.select().from(readerQueries).where(eq(readerQueries.userId, userId));
    return row;
  }
}
