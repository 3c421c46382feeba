import type { IngestRepositories, SourceStateRepository } from '@radar/db';
import { type IngestSettings, resolveSources, type SourceConfig, scheduleOf } from '@radar/ingest';
import type { Logger } from 'pino';
import type { JobQueue } from './queue-connection';

/** Job scheduler ids of sources: `source:<name>`, so stale ones can be told from other schedulers. */
export const SOURCE_SCHEDULER_PREFIX = 'source:';

export interface ScheduleSync {
  scheduled: string[];
  removed: string[];
  failed: { source: string; error: string }[];
}

/**
 * Makes the ingest queue's job schedulers match the given sources: one per enabled source (upserted, so
 * a changed cron pattern takes effect), none for sources removed, disabled or no longer active, none at
 * all when INGEST_ENABLED=false. A schedule BullMQ refuses is recorded as the source's last error.
 */
async function syncSourceSchedulers(
  queue: JobQueue<'ingest'>,
  sources: SourceConfig[],
  options: { states: SourceStateRepository; settings: IngestSettings; logger?: Logger | undefined },
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
      await options.states.recordFailure(source.name, source.kind, message).catch(() => {});
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

/** The deduplication id of a source's first run: one queued at a time, however often the sync runs. */
const firstRunDedupId = (source: string) => `first-run:${source}`;

export interface ActiveSourcesSync extends ScheduleSync {
  /** Where the sources came from (a path, INGEST_SOURCES_JSON, or the built-in catalogue). */
  origin: string;
  /** Active sources that never finished a run, queued to run now. */
  firstRuns: string[];
}

/**
 * Makes the schedules follow activation (`resolveSources`): one scheduler per active source, none for
 * the others. An active source that has never finished a run also gets one run queued now rather than
 * at its next cron time, deduplicated per source while that run is queued or running, and the time of
 * the request is recorded (`ingest_sources.first_fetch_requested_at`) for the papers page's estimate.
 * (A first run that ended without a finished run, e.g. skipped because its readers left meanwhile, is
 * queued again, with a new request time, once the source is active again.)
 * Nothing is queued when INGEST_ENABLED=false. Idempotent: run at worker start, every few minutes by
 * the maintenance queue, and whenever a saved profile names a field.
 */
export async function syncActiveSources(deps: {
  /** Reader counts per field, which decide the catalogue's active sources (resolveSources). */
  repositories: Pick<IngestRepositories, 'readerFields'>;
  /** Where runs are recorded: first runs are told from sources that ran, refused schedules are recorded. */
  states: SourceStateRepository;
  settings: IngestSettings;
  queue: JobQueue<'ingest'>;
  logger?: Logger | undefined;
}): Promise<ActiveSourcesSync> {
  const resolved = await resolveSources({ repositories: deps.repositories, settings: deps.settings });
  const sync = await syncSourceSchedulers(deps.queue, resolved.active, deps);
  const firstRuns: string[] = [];
  if (deps.settings.enabled) {
    const { states } = deps;
    const scheduled = new Set(sync.scheduled);
    for (const source of resolved.active) {
      if (!scheduled.has(source.name)) continue;
      const state = await states.get(source.name);
      if (state?.lastFinishedAt || state?.status === 'running') continue;
      if (await isQueued(deps.queue, firstRunDedupId(source.name))) continue;
      await deps.queue.add(
        `ingest:${source.name}`,
        { source: source.name },
        {
          deduplication: { id: firstRunDedupId(source.name) },
          attempts: deps.settings.jobAttempts,
          backoff: { type: 'exponential', delay: deps.settings.jobBackoffMs },
        },
      );
      await states.recordFirstFetchRequested(source.name, source.kind);
      firstRuns.push(source.name);
    }
  }
  return { ...sync, origin: resolved.origin, firstRuns };
}

/** Whether a job of this deduplication id is waiting, delayed or running. */
async function isQueued(queue: JobQueue<'ingest'>, dedupId: string): Promise<boolean> {
  const jobId = await queue.getDeduplicationJobId(dedupId);
  if (!jobId) return false;
  const state = await queue.getJobState(jobId);
  return !['completed', 'failed', 'unknown'].includes(state);
}

/** Logs a sync that changed something (the periodic one upserts the same schedules every time: no news). */
export function logSourcesSync(logger: Logger, sync: ActiveSourcesSync, atStart = false): void {
  if ((atStart && sync.scheduled.length) || sync.removed.length || sync.firstRuns.length) {
    logger.info(
      { sources: sync.origin, scheduled: sync.scheduled, removed: sync.removed, firstRuns: sync.firstRuns },
      'content sources scheduled',
    );
  }
}
