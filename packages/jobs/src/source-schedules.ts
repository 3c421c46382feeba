import { type Database, SourceStateRepository } from '@radar/db';
import { type IngestSettings, type SourceConfig, scheduleOf } from '@radar/ingest';
import type { IngestJob } from '@radar/shared';
import type { Logger } from 'pino';
import type { AppQueue } from './queue-connection';

/** Job scheduler ids of sources: `source:<name>`, so stale ones can be told from other schedulers. */
export const SOURCE_SCHEDULER_PREFIX = 'source:';

export interface ScheduleSync {
  scheduled: string[];
  removed: string[];
  failed: { source: string; error: string }[];
}

/**
 * Makes the ingest queue's job schedulers match the sources file: one per enabled source (upserted, so
 * a changed cron pattern takes effect), none for sources removed or disabled, none at all when
 * INGEST_ENABLED=false. A schedule BullMQ refuses is recorded as the source's last error.
 */
export async function syncSourceSchedulers(
  queue: AppQueue<IngestJob>,
  sources: SourceConfig[],
  options: { db: Database; settings: IngestSettings; logger?: Logger | undefined },
): Promise<ScheduleSync> {
  const { settings } = options;
  const wanted = settings.enabled ? sources.filter((source) => source.enabled) : [];
  const result: ScheduleSync = { scheduled: [], removed: [], failed: [] };
  for (const source of wanted) {
    const id = `${SOURCE_SCHEDULER_PREFIX}${source.name}`;
    try {
      await queue.upsertJobScheduler(
        id,
        { pattern: scheduleOf(source), ...(source.timezone ? { tz: source.timezone } : {}) },
        {
          name: `ingest:${source.name}`,
          data: { source: source.name },
          opts: { attempts: settings.jobAttempts, backoff: { type: 'exponential', delay: settings.jobBackoffMs } },
        },
      );
      result.scheduled.push(source.name);
    } catch (error) {
      const message = `invalid schedule "${scheduleOf(source)}": ${(error as Error).message}`;
      result.failed.push({ source: source.name, error: message });
      await new SourceStateRepository(options.db).recordFailure(source.name, source.kind, message).catch(() => {});
      options.logger?.error({ source: source.name, err: message }, 'source not scheduled');
    }
  }
  const keep = new Set(result.scheduled.map((name) => `${SOURCE_SCHEDULER_PREFIX}${name}`));
  for (const scheduler of await queue.getJobSchedulers(0, -1)) {
    if (scheduler.key.startsWith(SOURCE_SCHEDULER_PREFIX) && !keep.has(scheduler.key)) {
      await queue.removeJobScheduler(scheduler.key);
      result.removed.push(scheduler.key.slice(SOURCE_SCHEDULER_PREFIX.length));
    }
  }
  return result;
}
