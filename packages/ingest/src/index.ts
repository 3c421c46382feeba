/** What the server and the CLI use of ingestion. */

export { type ContentAiProviders, contentAiProvidersFrom } from './ai-slot';
export { catalogueEntries, loadSourceList, resolveSources } from './catalogue';
export { embedContent } from './content-embed';
export { NEWS_TRUNCATED_NOTE, NEWS_TRUNCATION_MARK } from './content-store';
export { loadDemoCorpus, removeDemoContent } from './demo/load-demo';
export { type EnqueueJob, enqueueEnrichment } from './enrichment';
export { isPreprintServerName } from './identifiers';
export { DatabasePolitenessLease } from './lease';
export { parseAuthorId } from './own-works/author-ids';
export { LibraryFileError } from './own-works/library-file';
export { parseLibraryFileOffThread } from './own-works/library-parse-thread';
export {
  OWN_WORKS_TASK_KIND,
  OwnWorksTaskFailedError,
  type OwnWorksTaskInput,
  runOwnWorksTask,
} from './own-works/seed-task';
export { summarizePapers } from './paper-summaries';
export type { IngestProgress, IngestSummary } from './pipeline';
export { READER_QUERY_SOURCE, readerQueriesOff, runReaderQueries } from './reader-queries';
export {
  describeError,
  importSourceFile,
  inspectSourceFile,
  runSource,
  SourceFileError,
  SourceRunError,
} from './run-source';
export {
  DEFAULT_TIER_REFRESH_SETTINGS,
  defaultIngestSettings,
  type IngestSettings,
  ingestSettingsFromConfig,
} from './settings';
export { describeSourceFailure, nextRetryOf } from './source-failure';
export { fieldsOf, type SourceConfig, SourcesConfigError, scheduleOf } from './sources-config';
export { importTierTableFile } from './tier-import';
export { refreshOpenAlexTiers, refreshScimagoTiers } from './tier-refresh';
export { isSourceKind, PermanentSourceError, SOURCE_KINDS, type SourceKind } from './types';
