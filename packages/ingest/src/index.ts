/** What the server and the CLI use of ingestion. */

export { type ContentAiProviders, contentAiProvidersFrom } from './ai-slot';
export { type EmbedContentResult, embedContent } from './content-embed';
export { NEWS_TRUNCATED_NOTE, NEWS_TRUNCATION_MARK } from './content-store';
export { generateDemoCorpus } from './demo/demo-corpus';
export { type DemoLoadSummary, loadDemoCorpus, removeDemoContent } from './demo/load-demo';
export { type EnqueueJob, enqueueEnrichment } from './enrichment';
export { DatabasePolitenessLease } from './lease';
export { summarizePapers } from './paper-summaries';
export type { IngestCounts, IngestProgress, IngestSummary } from './pipeline';
export {
  describeError,
  importSourceFile,
  inspectSourceFile,
  runSource,
  SourceFileError,
  SourceRunError,
} from './run-source';
export { defaultIngestSettings, type IngestSettings, ingestSettingsFromConfig } from './settings';
export {
  DEFAULT_SCHEDULES,
  loadSources,
  type SourceConfig,
  SourcesConfigError,
  scheduleOf,
} from './sources-config';
export { importTierTableFile, type TierImportSummary } from './tier-import';
export { TierTableError } from './tier-table';
export { isSourceKind, PermanentSourceError, SOURCE_KINDS, type SourceKind, TransientSourceError } from './types';
