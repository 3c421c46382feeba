import type { SourceStateRepository } from '@radar/db';
import type { AppQueue } from './queue-connection';
import { SOURCE_SCHEDULER_PREFIX } from './source-schedules';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What operators see of one source (`pnpm radar status`, the `radar_source_*` metrics). */
export interface SourceFlow {
  name: string;
  /** From the source's last run; null for a scheduled source that never ran. */
  kind: string | null;
  /** 'never-run' | 'running' | 'succeeded' | 'failed'. */
  status: string;
  lastRunAt: Date | null;
  lastSuccessAt: Date | null;
  /** Papers and news items the source created in the last 24 hours and 7 days. */
  addedLastDay: number;
  addedLastWeek: number;
  papersLastWeek: number;
  newsLastWeek: number;
  /** Failed runs (job attempts) since the last success. */
  consecutiveFailures: number;
  failingSince: Date | null;
  lastError: string | null;
  /** The next run its job scheduler (`source:<name>`) will start; null when none is scheduled. */
  nextRunAt: Date | null;
}

/**
 * Every source that has run or is scheduled, with its last run, items added in the last day and week,
 * failures and next run: one read of radar.ingest_sources, two index range scans of the week's papers
 * and news, and the ingest queue's job schedulers.
 */
export async function readSourceFlow(
  states: SourceStateRepository,
  ingestQueue: Pick<AppQueue<unknown>, 'getJobSchedulers'>,
  now = new Date(),
): Promise<SourceFlow[]> {
  const [rows, added, schedulers] = await Promise.all([
    states.list(),
    states.countAddedBySource(new Date(now.getTime() - DAY_MS), new Date(now.getTime() - 7 * DAY_MS)),
    ingestQueue.getJobSchedulers(0, -1),
  ]);
  const nextRuns = new Map<string, Date>();
  for (const scheduler of schedulers) {
    if (scheduler.key.startsWith(SOURCE_SCHEDULER_PREFIX) && typeof scheduler.next === 'number') {
      nextRuns.set(scheduler.key.slice(SOURCE_SCHEDULER_PREFIX.length), new Date(scheduler.next));
    }
  }
  const names = new Set([...rows.map((row) => row.name), ...nextRuns.keys()]);
  const byName = new Map(rows.map((row) => [row.name, row]));
  return [...names].sort().map((name) => {
    const row = byName.get(name);
    const counts = added.get(name) ?? { papersDay: 0, papersWeek: 0, newsDay: 0, newsWeek: 0 };
    return {
      name,
      kind: row?.kind ?? null,
      status: row?.status ?? 'never-run',
      lastRunAt: row?.lastRunAt ?? null,
      lastSuccessAt: row?.lastSuccessAt ?? null,
      addedLastDay: counts.papersDay + counts.newsDay,
      addedLastWeek: counts.papersWeek + counts.newsWeek,
      papersLastWeek: counts.papersWeek,
      newsLastWeek: counts.newsWeek,
      consecutiveFailures: row?.consecutiveFailures ?? 0,
      failingSince: row?.failingSince ?? null,
      lastError: row?.status === 'failed' ? (row.lastError ?? null) : null,
      nextRunAt: nextRuns.get(name) ?? null,
    };
  });
}
