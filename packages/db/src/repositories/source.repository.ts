import { and, eq, gte, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { ingestHostLeases, ingestRejects, ingestSources, newsItems, papers } from '../schema';

export type IngestSourceRow = typeof ingestSources.$inferSelect;
export type NewIngestReject = Omit<typeof ingestRejects.$inferInsert, 'id' | 'createdAt'>;

export interface SourceRunCounts {
  added: number;
  updated: number;
  skipped: number;
  rejected: number;
  summary: Record<string, unknown>;
  cursor: Record<string, unknown>;
}

/** A failing spell that a success just ended. */
export interface EndedFailure {
  failingSince: Date;
  failures: number;
}

/** A source's failing spell, as the first warning about it reports it. */
export interface FailingSpell {
  failingSince: Date;
  failures: number;
  lastError: string | null;
}

/** Items a source created (papers and news, by `source` and `created_at`) since two instants. */
export interface AddedCounts {
  papersDay: number;
  papersWeek: number;
  newsDay: number;
  newsWeek: number;
}

/** State of content sources between runs, what they rejected, and cross-process politeness leases. */
export class SourceStateRepository {
  constructor(private readonly db: Database) {}

  async list(): Promise<IngestSourceRow[]> {
    return this.db.select().from(ingestSources).orderBy(ingestSources.name);
  }

  async get(name: string): Promise<IngestSourceRow | undefined> {
    const [row] = await this.db.select().from(ingestSources).where(eq(ingestSources.name, name));
    return row;
  }

  async markRunning(name: string, kind: string): Promise<IngestSourceRow> {
    const [row] = await this.db
      .insert(ingestSources)
      .values({ name, kind, status: 'running', lastRunAt: new Date() })
      .onConflictDoUpdate({
        target: ingestSources.name,
        set: { kind, status: 'running', lastRunAt: new Date(), updatedAt: new Date() },
      })
      .returning();
    if (!row) throw new Error(`source state row for ${name} missing after upsert`);
    return row;
  }

  /**
   * Records a successful run and ends a failing spell; returns that spell (when the source was failing)
   * so the recovery is logged once. The subqueries in RETURNING read the row as it was before.
   */
  async recordSuccess(name: string, counts: SourceRunCounts): Promise<EndedFailure | undefined> {
    const now = new Date();
    const [row] = await this.db
      .update(ingestSources)
      .set({
        status: 'succeeded',
        lastFinishedAt: now,
        lastSuccessAt: now,
        lastAdded: counts.added,
        lastUpdated: counts.updated,
        lastSkipped: counts.skipped,
        lastRejected: counts.rejected,
        totalAdded: sql`${ingestSources.totalAdded} + ${counts.added}`,
        lastSummary: counts.summary,
        cursor: counts.cursor,
        consecutiveFailures: 0,
        failingSince: null,
        failureWarnedAt: null,
      })
      .where(eq(ingestSources.name, name))
      .returning({
        failingSince: sql<
          string | Date | null
        >`(SELECT s.failing_since FROM radar.ingest_sources s WHERE s.name = ${name})`,
        failures: sql<number>`(SELECT s.consecutive_failures FROM radar.ingest_sources s WHERE s.name = ${name})`,
      });
    if (!row?.failingSince) return undefined;
    return { failingSince: new Date(row.failingSince), failures: Number(row.failures) };
  }

  /**
   * A failed run keeps its cursor (the next run starts from the same place) and its error; items it
   * stored before failing stay, and are counted.
   */
  async recordFailure(name: string, kind: string, message: string, added = 0): Promise<void> {
    const now = new Date();
    await this.db
      .insert(ingestSources)
      .values({
        name,
        kind,
        status: 'failed',
        lastRunAt: now,
        lastFinishedAt: now,
        lastError: message,
        lastErrorAt: now,
        consecutiveFailures: 1,
        failingSince: now,
      })
      .onConflictDoUpdate({
        target: ingestSources.name,
        set: {
          status: 'failed',
          lastFinishedAt: now,
          lastError: message,
          lastErrorAt: now,
          totalAdded: sql`${ingestSources.totalAdded} + ${added}`,
          consecutiveFailures: sql`${ingestSources.consecutiveFailures} + 1`,
          failingSince: sql`coalesce(${ingestSources.failingSince}, ${now.toISOString()}::timestamptz)`,
          updatedAt: now,
        },
      });
  }

  /**
   * Notes that a source's first run was queued now (it became active and has never finished a run),
   * creating its row when it has none.
   */
  async recordFirstFetchRequested(name: string, kind: string, at = new Date()): Promise<void> {
    await this.db
      .insert(ingestSources)
      .values({ name, kind, firstFetchRequestedAt: at })
      .onConflictDoUpdate({
        target: ingestSources.name,
        set: {
          firstFetchRequestedAt: at,
          updatedAt: at,
        },
      });
  }

  /**
   * Claims the one warning of a failing spell: true for the first caller once the source has been
   * failing since `failingSince` or earlier, false afterwards until a success ends the spell.
   */
  async claimFailureWarning(name: string, failingSince: Date): Promise<FailingSpell | undefined> {
    const [row] = await this.db
      .update(ingestSources)
      .set({ failureWarnedAt: new Date() })
      .where(
        and(
          eq(ingestSources.name, name),
          lte(ingestSources.failingSince, failingSince),
          isNull(ingestSources.failureWarnedAt),
        ),
      )
      .returning({
        failingSince: ingestSources.failingSince,
        failures: ingestSources.consecutiveFailures,
        lastError: ingestSources.lastError,
      });
    return row?.failingSince
      ? { failingSince: row.failingSince, failures: row.failures, lastError: row.lastError }
      : undefined;
  }

  /**
   * Papers and news items each source created since `week` and since `day` (per-source counts of the
   * `created_at` range: an index range scan of the week's rows).
   */
  async countAddedBySource(day: Date, week: Date): Promise<Map<string, AddedCounts>> {
    const count = (table: typeof papers | typeof newsItems) =>
      this.db
        .select({
          source: table.source,
          day: sql<number>`count(*) filter (where ${table.createdAt} >= ${day.toISOString()}::timestamptz)::int`,
          week: sql<number>`count(*)::int`,
        })
        .from(table)
        .where(gte(table.createdAt, week))
        .groupBy(table.source);
    const [paperRows, newsRows] = await Promise.all([count(papers), count(newsItems)]);
    const counts = new Map<string, AddedCounts>();
    const entry = (source: string) => {
      let value = counts.get(source);
      if (!value) {
        value = { papersDay: 0, papersWeek: 0, newsDay: 0, newsWeek: 0 };
        counts.set(source, value);
      }
      return value;
    };
    for (const row of paperRows) Object.assign(entry(row.source), { papersDay: row.day, papersWeek: row.week });
    for (const row of newsRows) Object.assign(entry(row.source), { newsDay: row.day, newsWeek: row.week });
    return counts;
  }

  async recordRejects(rows: NewIngestReject[]): Promise<void> {
    for (let start = 0; start < rows.length; start += 200) {
      await this.db.insert(ingestRejects).values(rows.slice(start, start + 200));
    }
  }

  /** Keeps the newest `keep` records of a source. */
  async pruneRejects(source: string, keep = 1_000): Promise<number> {
    const result = await this.db.execute(sql`
      DELETE FROM radar.ingest_rejects
      WHERE source = ${source}
        AND id < (SELECT coalesce(min(id), 0) FROM (
          SELECT id FROM radar.ingest_rejects WHERE source = ${source} ORDER BY id DESC LIMIT ${keep}) newest)`);
    return result.rowCount ?? 0;
  }

  /**
   * Takes the lease of a politeness key when it is free, expired, or already ours. Returns when the
   * next request may be sent (set by the previous holder), or undefined when someone else holds it.
   */
  async tryAcquireLease(
    key: string,
    holder: string,
    ttlMs: number,
  ): Promise<{ acquired: true; nextRequestAt: Date | null } | { acquired: false }> {
    const leaseUntil = new Date(Date.now() + ttlMs);
    const rows = await this.db
      .insert(ingestHostLeases)
      .values({ key, holder, leaseUntil })
      .onConflictDoUpdate({
        target: ingestHostLeases.key,
        set: { holder, leaseUntil, updatedAt: new Date() },
        setWhere: sql`${ingestHostLeases.leaseUntil} IS NULL OR ${ingestHostLeases.leaseUntil} < now() OR ${ingestHostLeases.holder} = ${holder}`,
      })
      .returning({ nextRequestAt: ingestHostLeases.nextRequestAt });
    const [row] = rows;
    return row ? { acquired: true, nextRequestAt: row.nextRequestAt } : { acquired: false };
  }

  async renewLease(key: string, holder: string, ttlMs: number): Promise<void> {
    await this.db
      .update(ingestHostLeases)
      .set({ leaseUntil: new Date(Date.now() + ttlMs) })
      .where(and(eq(ingestHostLeases.key, key), eq(ingestHostLeases.holder, holder)));
  }

  async releaseLease(key: string, holder: string, nextRequestAt: Date): Promise<void> {
    await this.db
      .update(ingestHostLeases)
      .set({ holder: null, leaseUntil: null, nextRequestAt })
      .where(and(eq(ingestHostLeases.key, key), eq(ingestHostLeases.holder, holder)));
  }
}
