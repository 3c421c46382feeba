import type { IngestRepositories } from '@radar/db';
import { type IngestSettings, PermanentSourceError, refreshOpenAlexTiers, refreshScimagoTiers } from '@radar/ingest';
import type { JournalTiersJob } from '@radar/shared';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';

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
