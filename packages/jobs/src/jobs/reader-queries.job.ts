import type { EmbeddingModels, TermWeighting } from '@radar/ai';
import type { IngestRepositories } from '@radar/db';
import {
  type EnqueueJob,
  enqueueEnrichment,
  type IngestSettings,
  READER_QUERY_SOURCE,
  runReaderQueries,
} from '@radar/ingest';
import type { AppMetrics } from '@radar/metrics';
import type { ReaderQueriesJob } from '@radar/shared';
import type { Logger } from 'pino';
import { defineJob } from '../job-definition';

/**
 * The per-reader OpenAlex queries (queue `reader-queries`, hourly): the readers whose daily query is
 * due, searched with the terms of their research summary (runReaderQueries). What a query stores gets
 * its vectors and summaries as any source run's. Without OPENALEX_API_KEY each run ends at once
 * (skipped, nothing logged: the worker said so once at start).
 */
export function createReaderQueriesProcessor(deps: {
  repositories: IngestRepositories;
  settings: IngestSettings;
  enqueue: EnqueueJob;
  /** The active embedding model, whose built-in vocabulary picks a summary's rarest terms when it has one. */
  embeddings?: Pick<EmbeddingModels, 'termWeighting'> | undefined;
  metrics?: AppMetrics | undefined;
  logger?: Logger | undefined;
}) {
  const enrichment = { summaries: deps.settings.summariesEnabled };
  // The payload (empty) was parsed by the worker (createWorker).
  return async (_job: { data: ReaderQueriesJob }) => {
    let weighting: TermWeighting | undefined;
    if (deps.settings.openAlexApiKey && deps.embeddings) {
      weighting = await deps.embeddings.termWeighting().catch((error: Error) => {
        deps.logger?.warn(
          { err: error.message },
          'term weights of the active model not loaded; summary terms unweighted',
        );
        return undefined;
      });
    }
    const report = await runReaderQueries(
      { repositories: deps.repositories, settings: deps.settings },
      {
        weighting,
        logger: deps.logger,
        afterStore: async (summary) => {
          deps.metrics?.countIngested(READER_QUERY_SOURCE, 'papers', summary.newPaperIds.length);
          await enqueueEnrichment(deps.enqueue, summary, enrichment);
        },
      },
    );
    if (report.outcome === 'success' && report.queried + report.failed + report.withoutTerms > 0) {
      deps.logger?.info({ source: READER_QUERY_SOURCE, ...report }, 'reader queries ran');
    }
    return report;
  };
}

export const readerQueriesJob = defineJob({
  queue: 'reader-queries',
  processor: ({ repositories, ingest, enqueue, ai, metrics, logger }) =>
    createReaderQueriesProcessor({
      repositories: repositories.ingest,
      settings: ingest,
      enqueue,
      embeddings: ai.embeddings,
      metrics,
      logger,
    }),
  concurrency: 1,
  // Hourly: readers whose daily OpenAlex query is due (only with OPENALEX_API_KEY).
  schedules: [{ id: 'query-openalex-for-readers', pattern: '13 * * * *', data: {} }],
});
