import { bigint, index, integer, jsonb, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, radar, updatedAt } from './columns';

/**
 * One row per configured content source (config/sources.*), keyed by the source's name: how its last
 * run went and how far it got, so scheduled runs are incremental and operators can see failures
 * (`pnpm radar sources`).
 */
export const ingestSources = radar.table('ingest_sources', {
  name: text('name').primaryKey(),
  kind: text('kind').notNull(),
  /** 'never-run' | 'running' | 'succeeded' | 'failed'. */
  status: text('status').notNull().default('never-run'),
  /** The source's high-water mark (submission date, publication date, ETag ...), adapter-specific. */
  cursor: jsonb('cursor').$type<Record<string, unknown>>().notNull().default({}),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  lastAdded: integer('last_added').notNull().default(0),
  lastUpdated: integer('last_updated').notNull().default(0),
  lastSkipped: integer('last_skipped').notNull().default(0),
  lastRejected: integer('last_rejected').notNull().default(0),
  totalAdded: integer('total_added').notNull().default(0),
  /** Counts by reason and warnings of the last finished run. */
  lastSummary: jsonb('last_summary').$type<Record<string, unknown>>().notNull().default({}),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  /** Start of the current run of failures (the first failed run after a success); null when not failing. */
  failingSince: timestamp('failing_since', { withTimezone: true }),
  /**
   * When the source's first run was queued because it became active (a reader named one of its
   * fields); with no finished run yet, the first fetch is pending or running since then.
   */
  firstFetchRequestedAt: timestamp('first_fetch_requested_at', { withTimezone: true }),
  /** When this failing spell was logged at warn (once per spell); cleared by the next success. */
  failureWarnedAt: timestamp('failure_warned_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Items a run could not store (rejected) or stored with a caveat (warning), with the reason, so bad
 * input is visible instead of silently dropped. Pruned to the newest rows per source.
 */
export const ingestRejects = radar.table(
  'ingest_rejects',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    source: text('source').notNull(),
    /** 'rejected' | 'warning'. */
    severity: text('severity').notNull().default('rejected'),
    /** What identifies the item in its source: DOI, arXiv id, URL, feed position or CSV line. */
    itemKey: text('item_key'),
    reason: text('reason').notNull(),
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [index('ingest_rejects_source_created_idx').on(t.source, t.createdAt)],
);

/**
 * Cross-process politeness: a host that allows one connection at a time (arXiv) is fetched only by the
 * process holding its lease, and the next request waits until next_request_at.
 */
export const ingestHostLeases = radar.table('ingest_host_leases', {
  key: text('key').primaryKey(),
  holder: text('holder'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  nextRequestAt: timestamp('next_request_at', { withTimezone: true }),
  updatedAt: updatedAt(),
});

/**
 * One row per automatic journal tier system ('scimago', 'openalex'): when it was last tried and last
 * succeeded, the data year it got, the last run's counts, and what it keeps between runs (the OpenAlex
 * field quartile boundaries of the year).
 */
export const tierRefreshes = radar.table('tier_refreshes', {
  system: text('system').primaryKey(),
  lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  lastError: text('last_error'),
  year: smallint('year'),
  summary: jsonb('summary').$type<Record<string, unknown>>().notNull().default({}),
  state: jsonb('state').$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: updatedAt(),
});
