import { type AppConfig, loadConfig } from '@radar/shared/server';

/** What ingestion needs from the configuration; tests build it directly with faster timings. */
export interface IngestSettings {
  /** Scheduled runs on or off; manual runs (`pnpm radar ingest`) work either way. */
  enabled: boolean;
  sourcesFile: string;
  sourcesJson?: string | undefined;
  disabledSources: string[];
  openAlexApiKey?: string | undefined;
  crossrefMailto?: string | undefined;
  arxivMinIntervalMs: number;
  httpTimeoutMs: number;
  maxItemsPerRun: number;
  maxFeedBytes: number;
  userAgent: string;
  /** Language of llm_summary (zh, en, ...). */
  summaryLanguage: string;
  /** An LLM is configured (LLM_MODEL): new papers get summary jobs. Without one none are queued. */
  summariesEnabled: boolean;
  /** HTTP retries inside one run for 429/503 and network errors. */
  httpMaxAttempts: number;
  httpRetryBaseDelayMs: number;
  maxRetryAfterMs: number;
  /** Backoff of the job's own retries after a source failed. */
  jobAttempts: number;
  jobBackoffMs: number;
  /** How long a run waits for another process's arXiv lease before failing (and being retried). */
  leaseWaitMs: number;
}

export const DEFAULT_USER_AGENT = 'ResearchRadar/0.1 (self-hosted research assistant)';

export function ingestSettingsFromConfig(config: AppConfig): IngestSettings {
  const { ingest } = config;
  const contact = ingest.crossrefMailto ? `; mailto:${ingest.crossrefMailto}` : '';
  return {
    enabled: ingest.enabled,
    sourcesFile: ingest.sourcesFile,
    sourcesJson: ingest.sourcesJson,
    disabledSources: ingest.disabledSources,
    openAlexApiKey: ingest.openAlexApiKey,
    crossrefMailto: ingest.crossrefMailto,
    arxivMinIntervalMs: ingest.arxivMinIntervalMs,
    httpTimeoutMs: ingest.httpTimeoutMs,
    maxItemsPerRun: ingest.maxItemsPerRun,
    maxFeedBytes: ingest.maxFeedBytes,
    userAgent: `ResearchRadar/0.1 (+${config.webBaseUrl}${contact})`,
    summaryLanguage: config.llm.summaryLanguage,
    summariesEnabled: Boolean(config.llm.model),
    httpMaxAttempts: 4,
    httpRetryBaseDelayMs: 2_000,
    maxRetryAfterMs: 120_000,
    jobAttempts: 4,
    jobBackoffMs: 60_000,
    leaseWaitMs: 10 * 60_000,
  };
}

/**
 * Settings for code paths that have no configuration (tests of other features): the configuration's
 * own defaults, with nothing scheduled and no sources file.
 */
export function defaultIngestSettings(overrides: Partial<IngestSettings> = {}): IngestSettings {
  const config = loadConfig({ INGEST_ENABLED: 'false', SOURCES_FILE: '/nonexistent/sources.json' });
  return { ...ingestSettingsFromConfig(config), userAgent: DEFAULT_USER_AGENT, ...overrides };
}
