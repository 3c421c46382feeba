/** What the server and the CLI use of ingestion. */
export { generateDemoCorpus } from '../demo/demo-corpus';
export { type DemoLoadSummary, loadDemoCorpus, removeDemoContent } from '../demo/load-demo';
export { type EmbedContentResult, embedContent } from '../jobs/embed-content.job';
export { summarizePapers } from '../jobs/summarize-papers.job';
export { type ContentAiProviders, contentAiProvidersFrom } from './ai-slot';
export { type EnqueueJob, enqueueEnrichment } from './enrichment';
export type { IngestCounts, IngestProgress, IngestSummary } from './pipeline';
export { importSourceFile, inspectSourceFile, runSource, SourceFileError, SourceRunError } from './run-source';
export { SOURCE_SCHEDULER_PREFIX, syncSourceSchedulers } from './schedules';
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
