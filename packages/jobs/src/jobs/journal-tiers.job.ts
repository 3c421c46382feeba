import type { IngestRepositories } from '@radar/db';
import { type IngestSettings, PermanentSourceError, refreshOpenAlexTiers, refreshScimagoTiers } from '@radar/ingest';
import type { JournalTiersJob } from '@radar/shared';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { defineJob } from '../job-definition';

/**
 * Journal tiers with no operator step: the SCImago export when no current SCImago tiers are stored, and
 * (with OPENALEX_API_KEY) OpenAlex quartiles for journals without a tier. Idempotent: each run checks what
 * is stored first, and importing the same table again changes nothing. A failure a retry cannot fix (the
 * export's shape, a 4xx) ends the job; the next scheduled run tries again.
 */
export function createJournalTiersProcessor(deps: {
  repositories: Pick<IngestRepositories, 'journals' | 'tierRefreshes' | 'papers'>;
  settings: IngestSettings;
  logger?: Logger;
}) {
  return async (job: { data: JournalTiersJob }, _token?: string, signal?: AbortSignal) => {
    const payload = job.data;
    // A run scheduled while the refreshes were on, met after they were switched off: nothing to fetch.
    if (!payload.force && !(deps.settings.enabled && deps.settings.tiers.auto)) {
      return { outcome: 'skipped', reason: 'scheduled tier refreshes are off (JOURNAL_TIERS_AUTO, INGEST_ENABLED)' };
    }
    try {
      const result =
        payload.system === 'scimago'
          ? await refreshScimagoTiers(deps.repositories, deps.settings, { force: payload.force, signal })
          : await refreshOpenAlexTiers(deps.repositories, deps.settings, { signal });
      if (result.outcome === 'success')
        deps.logger?.info({ system: payload.system, ...result }, 'journal tiers refreshed');
      return result;
    } catch (error) {
      if (error instanceof PermanentSourceError) throw new UnrecoverableError(error.message);
      throw error;
    }
  };
}

/**
 * The automatic journal tier sources (scheduled runs, so only with INGEST_ENABLED). Each run checks what is
 * stored and skips when nothing is due, so a weekly SCImago check fetches the export about once a year,
 * and the daily OpenAlex run looks up only journals new since the last one.
 */
const TIER_SCHEDULES = [
  { id: 'refresh-scimago-tiers', pattern: '13 4 * * 1', data: { system: 'scimago' } }, // Mondays at 04:13
  // Daily at 04:43, after the night's ingest runs.
  { id: 'refresh-openalex-tiers', pattern: '43 4 * * *', data: { system: 'openalex' } },
] as const;

export const journalTiersJob = defineJob({
  queue: 'journal-tiers',
  processor: ({ repositories, ingest, logger }) =>
    createJournalTiersProcessor({ repositories: repositories.ingest, settings: ingest, logger }),
  // One tier refresh at a time: SCImago's import and the OpenAlex quartiles write the same journals.
  concurrency: 1,
  // Scheduled only when switched on, so not in `schedules`.
  atStart: async ({ ingest, queue }) => {
    const tierQueue = queue('journal-tiers');
    if (!(ingest.enabled && ingest.tiers.auto)) {
      // Switched off: the schedules an earlier start registered go too (their queued runs skip).
      for (const schedule of TIER_SCHEDULES) await tierQueue.removeJobScheduler(schedule.id);
      return;
    }
    for (const schedule of TIER_SCHEDULES) {
      await tierQueue.upsertJobScheduler(
        schedule.id,
        { pattern: schedule.pattern },
        { name: schedule.id, data: schedule.data },
      );
      // Once soon after start too (SCImago first: OpenAlex fills only what it lacks); a run with nothing
      // due skips at once, so restarts cost a database query each.
      await tierQueue.add(`${schedule.id}-at-start`, schedule.data, { delay: ingest.tiers.startDelayMs });
    }
  },
});
