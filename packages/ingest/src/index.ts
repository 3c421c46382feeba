/** What the server and the CLI use of ingestion. */

export { catalogueEntries, loadSourceList, resolveSources } from './catalogue';
export { loadDemoCorpus, removeDemoContent } from './demo/load-demo';
export { parseAuthorId } from './own-works/author-ids';
export { LibraryFileError } from './own-works/library-file';
export { parseLibraryFileOffThread } from './own-works/library-parse-thread';
export {
  OWN_WORKS_TASK_KIND,
  OwnWorksTaskFailedError,
  type OwnWorksTaskInput,
  runOwnWorksTask,
} from './own-works/seed-task';
export { type ContentAiProviders, contentAiProvidersFrom } from './pipeline/ai-slot';
export { embedContent } from './pipeline/content-embed';
export { NEWS_TRUNCATED_NOTE, NEWS_TRUNCATION_MARK } from './pipeline/content-store';
export { type EnqueueJob, enqueueEnrichment } from './pipeline/enrichment';
export { DatabasePolitenessLease } from './pipeline/lease';
export { summarizePapers } from './pipeline/paper-summaries';
export type { IngestProgress, IngestSummary } from './pipeline/pipeline';
export { READER_QUERY_SOURCE, readerQueriesOff, runReaderQueries } from './pipeline/reader-queries';
export {
  describeError,
  importSourceFile,
  inspectSourceFile,
  type OpenedSourceFile,
  openSourceFile,
  runSource,
  SourceFileError,
  SourceRunError,
} from './pipeline/run-source';
export {
  DEFAULT_TIER_REFRESH_SETTINGS,
  defaultIngestSettings,
  type IngestSettings,
  ingestSettingsFromConfig,
} from './pipeline/settings';
export { describeSourceFailure, nextRetryOf } from './pipeline/source-failure';
export { fieldsOf, type SourceConfig, SourcesConfigError, scheduleOf } from './pipeline/sources-config';
export { isPreprintServerName } from './text/identifiers';
export { importTierTableFile } from './tiers/tier-import';
export { refreshOpenAlexTiers, refreshScimagoTiers } from './tiers/tier-refresh';
export { isSourceKind, PermanentSourceError, SOURCE_KINDS, type SourceKind } from './types';
