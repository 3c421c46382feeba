import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { ingestHostLeases, ingestRejects, ingestSources } from '../schema';

export type IngestSourceRow = typeof ingestSources.$inferSelect;
export type IngestRejectRow = typeof ingestRejects.$inferSelect;
export type NewIngestReject = Omit<typeof ingestRejects.$inferInsert, 'id' | 'createdAt'>;

export interface SourceRunCounts {
  added: number;
  updated: number;
  skipped: number;
  rejected: number;
  summary: Record<string, unknown>;
  cursor: Record<string, unknown>;
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

  async recordSuccess(name: string, counts: SourceRunCounts): Promise<void> {
    const now = new Date();
    await this.db
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
      })
      .where(eq(ingestSources.name, name));
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
          updatedAt: now,
        },
      });
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

  async listRejects(source: string, limit = 50): Promise<IngestRejectRow[]> {
    return this.db
      .select()
      .from(ingestRejects)
      .where(eq(ingestRejects.source, source))
      .orderBy(desc(ingestRejects.id))
      .limit(limit);
  }

  async countRejects(sources: string[]): Promise<Map<string, { rejected: number; warnings: number }>> {
    if (sources.length === 0) return new Map();
    const rows = await this.db
      .select({
        source: ingestRejects.source,
        rejected: sql<number>`count(*) filter (where ${ingestRejects.severity} = 'rejected')::int`,
        warnings: sql<number>`count(*) filter (where ${ingestRejects.severity} = 'warning')::int`,
      })
      .from(ingestRejects)
      .where(inArray(ingestRejects.source, sources))
      .groupBy(ingestRejects.source);
    return new Map(rows.map((row) => [row.source, { rejected: row.rejected, warnings: row.warnings }]));
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
