import type { IngestRepositories, SourceStateRepository } from '@radar/db';
import type { IngestSettings, IngestSummary } from '@radar/ingest';
import {
  describeError,
  type EnqueueJob,
  enqueueEnrichment,
  PermanentSourceError,
  resolveSources,
  runSource,
  SourceRunError,
  SourcesConfigError,
} from '@radar/ingest';
import type { AppMetrics } from '@radar/metrics';
import type { IngestJob } from '@radar/shared';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { defineJob } from '../job-definition';
import { requestRefitIfDue } from './embeddings.job';

/** A source failing this long (no success in between) is logged at warn, once per failing spell. */
const SOURCE_FAILING_WARN_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Runs one configured source (queue `ingest`; scheduled per active source, see syncActiveSources). The
 * sources (file or built-in catalogue) and their activation are read at each run, so an edited URL or
 * filter takes effect without a restart, and a catalogue source no reader needs any more is skipped. A failing source is
 * retried with backoff by BullMQ, except for failures a retry cannot fix (4xx, not a feed, bad
 * configuration); either way its last error is kept for `pnpm radar sources`. Items stored before a
 * failure stay, and get their vectors and summaries. A run that stored content also asks for a refit
 * of the built-in embedding model when one is due (`requestRefit`), so the first fit follows the
 * first ingestion instead of waiting for the hourly maintenance.
 *
 * Logging of failures: each failed run at info; a source failing for SOURCE_FAILING_WARN_AFTER_MS at
 * warn once (the database row records that the warning was given, so several workers and retries
 * give it once); the success that ends a failing spell at info.
 */
export function createIngestProcessor(deps: {
  repositories: IngestRepositories;
  /** Where a failing spell's warning is claimed (SOURCE_FAILING_WARN_AFTER_MS). */
  states: SourceStateRepository;
  settings: IngestSettings;
  enqueue: EnqueueJob;
  /** Queues a refit of the built-in model when one is due (requestRefitIfDue); never fails the run. */
  requestRefit?: (() => Promise<unknown>) | undefined;
  logger?: Logger | undefined;
  /** Counts the new items per source and kind (`radar_ingested_items_total`). */
  metrics?: AppMetrics | undefined;
}) {
  const report = (summary: IngestSummary) => ({
    added: summary.counts.added,
    updated: summary.counts.updated,
    skipped: summary.counts.skipped,
    rejected: summary.counts.rejected,
    warnings: summary.warnings.length,
    // Caveats on stored items (no abstract, content truncated ...), also kept in ingest_rejects.
    notes: summary.notes,
  });
  const enrichment = { summaries: deps.settings.summariesEnabled };
  const { states } = deps;

  const afterStore = async (source: string, summary: IngestSummary) => {
    deps.metrics?.countIngested(source, 'papers', summary.newPaperIds.length);
    deps.metrics?.countIngested(source, 'news', summary.newNewsIds.length);
    await enqueueEnrichment(deps.enqueue, summary, enrichment);
    if (!deps.requestRefit || summary.newPaperIds.length + summary.newNewsIds.length === 0) return;
    await deps.requestRefit().catch((error: Error) =>
      // The hourly maintenance refits anyway: a failure here must not fail (and repeat) the run.
      deps.logger?.warn({ err: error.message }, 'could not request a refit of the embedding model'),
    );
  };
  return async (job: { data: IngestJob }) => {
    const payload = job.data;
    let entries: Awaited<ReturnType<typeof resolveSources>>['entries'];
    try {
      entries = (await resolveSources({ repositories: deps.repositories, settings: deps.settings })).entries;
    } catch (error) {
      if (error instanceof SourcesConfigError) throw new UnrecoverableError(error.message);
      throw error;
    }
    const entry = entries.find((candidate) => candidate.source.name === payload.source);
    if (!entry) return { outcome: 'skipped', reason: `source "${payload.source}" is not configured` };
    const { source } = entry;
    if (!source.enabled) return { outcome: 'skipped', reason: `source "${source.name}" is disabled` };
    if (!entry.active) return { outcome: 'skipped', reason: `source "${source.name}" is off: ${entry.why}` };

    try {
      const summary = await runSource({ repositories: deps.repositories, settings: deps.settings }, source, {
        since: payload.since,
      });
      await afterStore(source.name, summary);
      deps.logger?.info({ source: source.name, ...report(summary) }, 'source ingested');
      if (summary.recoveredFrom) {
        deps.logger?.info(
          {
            source: source.name,
            failingSince: summary.recoveredFrom.failingSince.toISOString(),
            failures: summary.recoveredFrom.failures,
          },
          'source recovered',
        );
      }
      return { outcome: 'success', ...report(summary) };
    } catch (error) {
      if (error instanceof SourceRunError) {
        await afterStore(source.name, error.summary).catch(() => {});
      }
      const permanent = error instanceof PermanentSourceError || (error instanceof SourceRunError && error.isPermanent);
      deps.logger?.info({ source: source.name, permanent, err: describeError(error) }, 'source run failed');
      const spell = await states
        .claimFailureWarning(source.name, new Date(Date.now() - SOURCE_FAILING_WARN_AFTER_MS))
        .catch(() => undefined);
      if (spell) {
        deps.logger?.warn(
          {
            source: source.name,
            failingSince: spell.failingSince.toISOString(),
            failures: spell.failures,
            err: spell.lastError,
          },
          'source failing for a day',
        );
      }
      if (permanent) throw new UnrecoverableError(describeError(error));
      throw error;
    }
  };
}

export const ingestJob = defineJob({
  queue: 'ingest',
  processor: ({ repositories, ingest, enqueue, ai, queue, logger, metrics }) =>
    createIngestProcessor({
      repositories: repositories.ingest,
      states: repositories.sourceStates,
      settings: ingest,
      enqueue,
      metrics,
      // A run that stored content refits the built-in model right away when due (not at the next hour).
      requestRefit: () => requestRefitIfDue(ai.embeddings, queue('embeddings')),
      logger,
    }),
  // One source at a time per process: politeness towards the hosts, and runs are I/O-bound anyway.
  concurrency: 1,
  // A failing source is logged by its ingest job (warn once a day of failures), not at every attempt.
  failureLogLevel: 'info',
});
