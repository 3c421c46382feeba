import type { Database } from '@radar/db';
import type { IngestSettings, IngestSummary } from '@radar/ingest';
import {
  describeError,
  type EnqueueJob,
  enqueueEnrichment,
  loadSources,
  PermanentSourceError,
  runSource,
  SourceRunError,
  SourcesConfigError,
} from '@radar/ingest';
import type { AppMetrics } from '@radar/metrics';
import { ingestJobSchema } from '@radar/shared';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';

/**
 * Runs one configured source (queue `ingest`; scheduled per source from the sources file). The file is
 * read at each run, so an edited URL or filter takes effect without a restart. A failing source is
 * retried with backoff by BullMQ, except for failures a retry cannot fix (4xx, not a feed, bad
 * configuration); either way its last error is kept for `pnpm radar sources`. Items stored before a
 * failure stay, and get their vectors and summaries. A run that stored content also asks for a refit
 * of the built-in embedding model when one is due (`requestRefit`), so the first fit follows the
 * first ingestion instead of waiting for the hourly maintenance.
 */
export function createIngestProcessor(deps: {
  db: Database;
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
  return async (job: { data: unknown }) => {
    const parsed = ingestJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid ingest payload: ${parsed.error.message}`);
    let sources: Awaited<ReturnType<typeof loadSources>>['sources'];
    try {
      sources = (await loadSources(deps.settings)).sources;
    } catch (error) {
      if (error instanceof SourcesConfigError) throw new UnrecoverableError(error.message);
      throw error;
    }
    const source = sources.find((candidate) => candidate.name === parsed.data.source);
    if (!source) return { outcome: 'skipped', reason: `source "${parsed.data.source}" is not configured` };
    if (!source.enabled) return { outcome: 'skipped', reason: `source "${source.name}" is disabled` };

    try {
      const summary = await runSource({ db: deps.db, settings: deps.settings }, source, { since: parsed.data.since });
      await afterStore(source.name, summary);
      deps.logger?.info({ source: source.name, ...report(summary) }, 'source ingested');
      return { outcome: 'success', ...report(summary) };
    } catch (error) {
      if (error instanceof SourceRunError) {
        await afterStore(source.name, error.summary).catch(() => {});
      }
      const permanent = error instanceof PermanentSourceError || (error instanceof SourceRunError && error.isPermanent);
      deps.logger?.warn({ source: source.name, permanent, err: describeError(error) }, 'source run failed');
      if (permanent) throw new UnrecoverableError(describeError(error));
      throw error;
    }
  };
}
