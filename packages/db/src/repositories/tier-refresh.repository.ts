import { eq, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { tierRefreshes } from '../schema';

export type TierRefreshRow = typeof tierRefreshes.$inferSelect;

/** The bookkeeping of the automatic journal tier systems (one row each, keyed by system). */
export class TierRefreshRepository {
  constructor(private readonly db: Database) {}

  async get(system: string): Promise<TierRefreshRow | undefined> {
    const [row] = await this.db.select().from(tierRefreshes).where(eq(tierRefreshes.system, system));
    return row;
  }

  async recordAttempt(system: string, at: Date): Promise<void> {
    await this.db
      .insert(tierRefreshes)
      .values({ system, lastAttemptAt: at })
      .onConflictDoUpdate({ target: tierRefreshes.system, set: { lastAttemptAt: at, updatedAt: sql`now()` } });
  }

  async recordSuccess(
    system: string,
    values: { at: Date; year: number | null; summary: Record<string, unknown>; state?: Record<string, unknown> },
  ): Promise<void> {
    const set = {
      lastSuccessAt: values.at,
      lastError: null,
      year: values.year,
      summary: values.summary,
      ...(values.state ? { state: values.state } : {}),
    };
    await this.db
      .insert(tierRefreshes)
      .values({ system, lastAttemptAt: values.at, ...set })
      .onConflictDoUpdate({ target: tierRefreshes.system, set: { ...set, updatedAt: sql`now()` } });
  }

  async recordFailure(system: string, error: string): Promise<void> {
    await this.db
      .insert(tierRefreshes)
      .values({ system, lastError: error })
      .onConflictDoUpdate({ target: tierRefreshes.system, set: { lastError: error, updatedAt: sql`now()` } });
  }
}
