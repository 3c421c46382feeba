import { type AppConfig, loadConfig } from '@radar/shared/server';

/** The configuration's ingest section (AppConfig), documented there. */
type IngestConfig = AppConfig['ingest'];

/** What ingestion needs from the configuration; tests build it directly with faster timings. */
export interface IngestSettings
  extends Pick<
      IngestConfig,
      | 'enabled'
      | 'sourcesFile'
      | 'disabledSources'
      | 'openAlexBaseUrl'
      | 'openAlexReaderQueriesPerDay'
      | 'orcidBaseUrl'
      | 'crossrefBaseUrl'
      | 'arxivMinIntervalMs'
      | 'httpTimeoutMs'
      | 'maxItemsPerRun'
      | 'maxFeedBytes'
    >,
    Partial<Pick<IngestConfig, 'sourcesJson' | 'openAlexApiKey' | 'crossrefMailto'>> {
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
  /** The automatic journal tier sources (SCImago export, OpenAlex quartiles); see tier-refresh.ts. */
  tiers: TierRefreshSettings;
  /**
   * FOR TESTS ONLY (never read from the environment): an origin such as http://127.0.0.1:4100 that
   * replaces the origin of every URL the built-in catalogue fetches, so a test installation runs the
   * real catalogue against a local server. Sources files are never rewritten.
   */
  catalogueOriginForTests?: string | undefined;
}

export interface TierRefreshSettings {
  /** Scheduled tier refreshes on (JOURNAL_TIERS_AUTO, with scheduled ingestion); off in defaultIngestSettings. */
  auto: boolean;
  /** SCImago's site; the export of all journals is `<base>/journalrank.php?out=xls`. Tests point it at 127.0.0.1. */
  scimagoBaseUrl: string;
  /** The OpenAlex API; tests point it at 127.0.0.1. */
  openAlexBaseUrl: string;
  /** Largest SCImago export read (the 2024 export of all journals is about 12 MB). */
  maxExportBytes: number;
  /** Days after a SCImago fetch that brought no current year before it is fetched again. */
  scimagoRefetchAfterDays: number;
  /** OpenAlex requests one tier run may make (the journal batches and the yearly reference sample). */
  openAlexMaxRequests: number;
  /** Journals drawn at random from OpenAlex once a year to set the per-field quartile boundaries. */
  openAlexSampleSize: number;
  /** Days before a journal looked up in OpenAlex is looked up again. */
  openAlexRecheckDays: number;
  /** How long after the worker starts the first tier runs wait (tests: 0). */
  startDelayMs: number;
}

export const DEFAULT_TIER_REFRESH_SETTINGS: TierRefreshSettings = {
  auto: true,
  scimagoBaseUrl: 'https://www.scimagojr.com',
  openAlexBaseUrl: 'https://api.openalex.org',
  maxExportBytes: 64 * 1024 * 1024,
  scimagoRefetchAfterDays: 30,
  openAlexMaxRequests: 60,
  openAlexSampleSize: 4000,
  openAlexRecheckDays: 180,
  startDelayMs: 30_000,
};

const DEFAULT_USER_AGENT = 'ResearchRadar/0.1 (self-hosted research assistant)';

export function ingestSettingsFromConfig(config: AppConfig): IngestSettings {
  const { ingest } = config;
  const contact = ingest.crossrefMailto ? `; mailto:${ingest.crossrefMailto}` : '';
  return {
    enabled: ingest.enabled,
    sourcesFile: ingest.sourcesFile,
    sourcesJson: ingest.sourcesJson,
    disabledSources: ingest.disabledSources,
    openAlexApiKey: ingest.openAlexApiKey,
    openAlexBaseUrl: ingest.openAlexBaseUrl,
    openAlexReaderQueriesPerDay: ingest.openAlexReaderQueriesPerDay,
    crossrefMailto: ingest.crossrefMailto,
    orcidBaseUrl: ingest.orcidBaseUrl,
    crossrefBaseUrl: ingest.crossrefBaseUrl,
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
    tiers: { ...DEFAULT_TIER_REFRESH_SETTINGS, auto: ingest.tiersAuto },
  };
}

/**
 * Settings for code paths that have no configuration (tests of other features): the configuration's
 * own defaults, with nothing scheduled and no sources file.
 */
export function defaultIngestSettings(overrides: Partial<IngestSettings> = {}): IngestSettings {
  const config = loadConfig({ INGEST_ENABLED: 'false', SOURCES_FILE: '/nonexistent/sources.json' });
  const settings = ingestSettingsFromConfig(config);
  return {
    ...settings,
    userAgent: DEFAULT_USER_AGENT,
    // No scheduled tier fetch from the real services unless a test points them elsewhere.
    tiers: { ...settings.tiers, auto: false },
    ...overrides,
  };
}
