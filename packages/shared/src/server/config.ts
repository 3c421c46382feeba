import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { OWN_WORKS_LIMITS } from '../api/research.schema';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../date-filters';
import { DURATION_EXAMPLES, parseDuration } from '../duration';
import { EMAIL_PATTERN } from '../email';
import { ActionableError } from './actionable-error';

/**
 * The only place that reads process.env. Every process (server, worker, CLI) parses its environment
 * once at start-up with `loadConfig()`; a bad value stops start-up with one line naming the variable.
 */

/**
 * SOURCES_FILE unset: config/sources.yaml, or config/sources.json when only that one exists
 * (installations from before the sources file could be YAML).
 */
function defaultSourcesFile(): string {
  const yamlFile = path.resolve('config/sources.yaml');
  const jsonFile = path.resolve('config/sources.json');
  return !fs.existsSync(yamlFile) && fs.existsSync(jsonFile) ? jsonFile : yamlFile;
}

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

const booleanFlag = (defaultValue: boolean) =>
  z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
      .optional()
      .transform((value) => (value === undefined ? defaultValue : ['true', '1', 'yes'].includes(value))),
  );

const integer = (defaultValue: number, min: number, max: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ message: 'must be a number' })
      .int({ message: 'must be a whole number' })
      .min(min, { message: `must be at least ${min}` })
      .max(max, { message: `must be at most ${max}` })
      .default(defaultValue),
  );

const urlWithProtocols = (protocols: string[], example: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(
        (value) => {
          try {
            return protocols.includes(new URL(value).protocol);
          } catch {
            return false;
          }
        },
        { message: `must be a URL like ${example}` },
      )
      .optional(),
  );

const envSchema = z.object({
  // 0 listens on a free port the system picks (tests); mail links then follow the real port.
  PORT: integer(3000, 0, 65535),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  METRICS_PORT: integer(9464, 0, 65535),
  // Loopback: the metrics listener has no authentication, so it is reachable from outside only when
  // an operator says so (compose sets 0.0.0.0 inside its private network).
  METRICS_HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(false|true|\d+|[\d.:a-fA-F/]+(,[\d.:a-fA-F/]+)*)$/, {
        message: 'must be false, true, a number of proxy hops, or a comma-separated list of proxy addresses',
      })
      .default('false'),
  ),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:'], 'postgresql://user:password@host:5432/radar'),
  DATABASE_POOL_MAX: integer(10, 1, 200),
  REDIS_URL: urlWithProtocols(['redis:', 'rediss:'], 'redis://127.0.0.1:6379'),
  RUN_WORKER: booleanFlag(true),
  WORKER_CONCURRENCY: integer(2, 1, 64),
  JOB_LOCK_MS: integer(30_000, 1_000, 600_000),
  QUEUE_PREFIX: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[\w-]{1,50}$/, { message: 'must be letters, digits, _ or - (at most 50)' })
      .default('radar'),
  ),
  // Per-user quotas on authenticated routes (0 = no quota of that kind); docs/decisions.md, "Per-user quotas".
  QUOTA_REQUESTS_PER_MINUTE: integer(600, 0, 1_000_000),
  QUOTA_RECOMMEND_PER_MINUTE: integer(60, 0, 1_000_000),
  QUOTA_SIMILARITY_PER_MINUTE: integer(30, 0, 1_000_000),
  QUOTA_PROFILE_EDITS_PER_HOUR: integer(60, 0, 1_000_000),
  QUOTA_ARTICLE_SEARCH_PER_MINUTE: integer(120, 0, 1_000_000),
  QUOTA_NEWS_SEARCH_PER_MINUTE: integer(60, 0, 1_000_000),
  QUOTA_LIBRARY_EXPORTS_PER_MINUTE: integer(10, 0, 1_000_000),
  QUOTA_DATA_EXPORTS_PER_HOUR: integer(10, 0, 1_000_000),
  QUOTA_RATING_THRESHOLD_PER_MINUTE: integer(30, 0, 1_000_000),
  QUOTA_FEED_PER_HOUR: integer(120, 0, 1_000_000),
  QUOTA_CONCURRENT_PER_USER: integer(4, 0, 1_000),
  JWT_SECRET: optionalString,
  JWT_EXPIRES_IN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('7d')
      .transform((text, context) => {
        const ms = parseDuration(text);
        if (ms === undefined)
          context.addIssue({ code: 'custom', message: `must be a duration like ${DURATION_EXAMPLES}` });
        return ms ?? 0;
      }),
  ),
  OPERATOR_TOKEN: z.preprocess(
    emptyToUndefined,
    z.string().min(16, { message: 'must be at least 16 characters (e.g. openssl rand -base64 32)' }).optional(),
  ),
  WEB_BASE_URL: z.preprocess(
    emptyToUndefined,
    z.url({ message: 'must be a URL like https://radar.example.edu' }).optional(),
  ),
  SMTP_URL: urlWithProtocols(['smtp:', 'smtps:'], 'smtps://user:password@smtp.example.edu:465'),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('科研雷达 <no-reply@localhost>')),
  FEEDBACK_TO: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((value) => value.split(',').every((address) => EMAIL_PATTERN.test(address.trim())), {
        message: 'must be an e-mail address, or several separated by commas',
      })
      .transform((value) =>
        value
          .split(',')
          .map((address) => address.trim())
          .join(', '),
      )
      .optional(),
  ),
  SMTP_TLS_REJECT_UNAUTHORIZED: booleanFlag(true),
  SUPPORT_EMAIL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(EMAIL_PATTERN, { message: 'must be one e-mail address, like support@example.edu' })
      .optional(),
  ),
  TIME_ZONE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(isTimeZone, { message: 'must be an IANA time zone like Asia/Shanghai, Europe/Berlin or UTC' })
      // The zone's own spelling (asia/shanghai -> Asia/Shanghai), as the web app will show it.
      .transform((zone) => new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone)
      .default(DEFAULT_TIME_ZONE),
  ),
  OPENAI_BASE_URL: urlWithProtocols(['http:', 'https:'], 'https://api.openai.com/v1'),
  OPENAI_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  LLM_TIMEOUT_MS: integer(60_000, 1_000, 600_000),
  LLM_SUMMARY_LANGUAGE: z.preprocess(emptyToUndefined, z.string().default('zh')),
  LLM_JSON_MODE: z.preprocess(
    emptyToUndefined,
    z.enum(['json_object', 'json_schema', 'prompt']).default('json_object'),
  ),
  LLM_MAX_RETRIES: integer(2, 0, 10),
  LLM_GIST_DAILY_LIMIT: integer(500, 0, 1_000_000),
  LLM_RERANK: booleanFlag(false),
  LLM_RERANK_TIMEOUT_MS: integer(15_000, 1_000, 120_000),
  EMBEDDING_MODEL: optionalString,
  EMBEDDING_DIM: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ message: 'must be a number' })
      .int()
      .min(1)
      .max(2000, { message: 'must be at most 2000' })
      .optional(),
  ),
  EMBEDDING_BASE_URL: urlWithProtocols(['http:', 'https:'], 'https://api.openai.com/v1'),
  EMBEDDING_API_KEY: optionalString,
  EMBEDDING_MULTILINGUAL: booleanFlag(false),
  SOURCES_FILE: optionalString,
  INGEST_SOURCES_JSON: optionalString,
  INGEST_DISABLED_SOURCES: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9._-]+(\s*,\s*[a-z0-9._-]+)*$/, { message: 'must be a comma-separated list of source names' })
      .optional(),
  ),
  OPENALEX_API_KEY: optionalString,
  OPENALEX_BASE_URL: urlWithProtocols(['http:', 'https:'], 'https://api.openalex.org'),
  OPENALEX_READER_QUERIES_PER_DAY: integer(500, 0, 100_000),
  CROSSREF_MAILTO: optionalString,
  WEBHOOK_TEST_ORIGIN: urlWithProtocols(['http:', 'https:'], 'http://127.0.0.1:8080'),
  ORCID_BASE_URL: urlWithProtocols(['http:', 'https:'], 'https://pub.orcid.org'),
  CROSSREF_BASE_URL: urlWithProtocols(['http:', 'https:'], 'https://api.crossref.org'),
  INGEST_ENABLED: booleanFlag(true),
  JOURNAL_TIERS_AUTO: booleanFlag(true),
  INGEST_ARXIV_MIN_INTERVAL_MS: integer(3_000, 0, 600_000),
  INGEST_HTTP_TIMEOUT_MS: integer(30_000, 1_000, 600_000),
  INGEST_MAX_ITEMS_PER_RUN: integer(1_000, 1, 100_000),
  INGEST_MAX_FEED_BYTES: integer(20 * 1024 * 1024, 64 * 1024, 500 * 1024 * 1024),
});

export type Env = z.infer<typeof envSchema>;

/** Every environment variable the configuration reads (.env.example and docker-compose.yml are checked against it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export interface AppConfig {
  port: number;
  host: string;
  /**
   * Port of the internal listener with GET /metrics (Prometheus) and GET /health, on HOST; 0 = none.
   * It stays internal by being a port the deployment does not publish, so it has no authentication.
   */
  metricsPort: number;
  /** Interface of the metrics listener; loopback unless set (METRICS_HOST). */
  metricsHost: string;
  /**
   * Whether X-Forwarded-For is believed. Off by default: otherwise any client could pick the address
   * that per-IP rate limits count. A number of proxy hops or a list of proxy addresses/CIDRs: the
   * client is the nearest address not trusted, so entries a client prepends are never counted.
   * `true` means one hop (Fastify's own `true` would take the first entry, which the client writes).
   */
  trustProxy: false | number | string;
  /** Settings that work but deserve a line in the start-up log (the process logs each as a warning). */
  warnings: string[];
  logLevel: Env['LOG_LEVEL'];
  /** Absolute path; embedded database, generated secrets and the mail outbox live here. */
  dataDir: string;
  /** Unset means embedded mode: PGlite inside this process, served to itself over a local socket. */
  databaseUrl: string | undefined;
  databasePoolMax: number;
  /** Unset means BullMQ runs on its PostgreSQL backend in the app database. */
  redisUrl: string | undefined;
  runWorker: boolean;
  workerConcurrency: number;
  /**
   * How long a worker's claim on a job lasts without renewal, and how often workers look for jobs whose
   * worker died (BullMQ lockDuration and stalledInterval): a crashed worker's job is retried within about
   * twice this.
   */
  jobLockMs: number;
  /** Namespace of the queues (Redis key prefix); instances sharing one Redis need different ones. */
  queuePrefix: string;
  jwtSecret: string | undefined;
  /** JWT_EXPIRES_IN: how long a login token is valid, in milliseconds. */
  jwtExpiresInMs: number;
  /** QUOTA_*: per-user budgets of authenticated requests. */
  userQuotas: UserQuotas;
  /**
   * Presented as `Authorization: Bearer <token>`, it lets operators see versions in /api/health. Unset:
   * nobody sees them (they tell an attacker which known vulnerabilities to try).
   */
  operatorToken: string | undefined;
  /**
   * Public address of the web app, without a trailing slash, that mail links start with. WEB_BASE_URL,
   * or else http://localhost:<PORT> (HOST when it names one interface): the server then swaps in the
   * port it actually listens on (webBaseUrlFollowsPort), so links work on any PORT, 0 included.
   */
  webBaseUrl: string;
  /** True when WEB_BASE_URL is unset and webBaseUrl was derived from HOST and PORT. */
  webBaseUrlFollowsPort: boolean;
  /** Shown on the contact page (public); unset: the page offers only its contact form. */
  supportEmail: string | undefined;
  smtpUrl: string | undefined;
  /** false accepts a self-signed certificate on the mail server (some campus relays). */
  smtpTlsRejectUnauthorized: boolean;
  mailFrom: string;
  /** Where feedback is mailed (one address or several, comma-separated); unset: only stored. */
  feedbackTo: string | undefined;
  /**
   * The readers' IANA time zone: the publication windows (一天内 ... 一月内) count its calendar days, as
   * the web app's relative-time labels do.
   */
  timeZone: string;
  /**
   * An origin (scheme, host, port) readers' robot webhooks may point at besides the platforms' own
   * hosts: a local stand-in for WeCom, Feishu or DingTalk in tests. Unset in every deployment.
   */
  webhookTestOrigin: string | undefined;
  /** An OpenAI-compatible chat endpoint; the LLM is used only when llm.model is set. */
  llm: {
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string | undefined;
    timeoutMs: number;
    /** Language of paper summaries (llm_summary), e.g. zh. */
    summaryLanguage: string;
    /** How JSON answers are requested: response_format json_object (widest support), json_schema, or prompt only. */
    jsonMode: 'json_object' | 'json_schema' | 'prompt';
    /** Retries of one call on 429, 5xx and dropped connections (exponential backoff); 4xx are never retried. */
    maxRetries: number;
    /**
     * English gists of Chinese papers and news items (the text they are embedded from) the LLM may make
     * in any 24 hours, over all processes; beyond it, and with 0, items are glossed offline instead.
     */
    gistDailyLimit: number;
    /**
     * The LLM reorders the first 50 paper recommendations, with a reason in Chinese each (an order, never
     * a score); off by default: it adds a call of seconds to a recommendation whose list changed.
     */
    rerank: boolean;
    /** The rerank's time budget; past it the list keeps the pipeline's order. */
    rerankTimeoutMs: number;
  };
  /** An OpenAI-compatible embeddings endpoint when model is set; the built-in embedder otherwise. */
  embedding: {
    model: string | undefined;
    dimension: number | undefined;
    baseUrl: string | undefined;
    apiKey: string | undefined;
    /**
     * The endpoint's model is multilingual (bge-m3, multilingual-e5 ...): Chinese items and profiles are
     * embedded from their own text instead of an English gist or gloss. Only with `model` set.
     */
    multilingual: boolean;
  };
  ingest: {
    /** Scheduled runs on or off; manual runs (`pnpm radar ingest`) work either way. */
    enabled: boolean;
    /** Absolute path of the sources file (JSON; YAML when the `yaml` package is installed). */
    sourcesFile: string;
    /** Replaces the sources file when set (containers without a mounted file). */
    sourcesJson: string | undefined;
    /** Source names switched off without editing the file. */
    disabledSources: string[];
    openAlexApiKey: string | undefined;
    /** OpenAlex's API address (a mirror, or a local server in tests). */
    openAlexBaseUrl: string;
    /** Most OpenAlex calls the per-reader queries make in a day (UTC); 0 switches them off. */
    openAlexReaderQueriesPerDay: number;
    crossrefMailto: string | undefined;
    /** ORCID's public API (no key), read when a reader seeds the profile from an ORCID iD; tests point it at 127.0.0.1. */
    orcidBaseUrl: string;
    /** Crossref's REST API, asked by DOI for abstracts a reader's own works lack; tests point it at 127.0.0.1. */
    crossrefBaseUrl: string;
    /** Minimum time between two requests to arXiv (arXiv asks for 3 s, one connection at a time). */
    arxivMinIntervalMs: number;
    httpTimeoutMs: number;
    /** Default cap on the items one source run stores. */
    maxItemsPerRun: number;
    /** Default cap on one response body; a longer feed is cut there with a warning. */
    maxFeedBytes: number;
    /**
     * Journal tiers fetched on a schedule (the SCImago export; OpenAlex quartiles with OPENALEX_API_KEY),
     * with scheduled ingestion on. False leaves tiers to `pnpm radar journals import`.
     */
    tiersAuto: boolean;
  };
}

/** One per-user quota: `max` requests per window of `windowMs`; max 0 = no quota. */
export interface UserQuota {
  max: number;
  windowMs: number;
  /**
   * Requests of one user running at once on the route in one process, where it is lower than
   * `concurrentPerUser` (a route whose single call takes a core for a while: exports, the feed's build).
   */
  concurrent?: number;
}

/**
 * Per-user request budgets of authenticated routes, counted in the shared rate-limit store. `requests`
 * covers every authenticated request; the others are the costly routes' own, counted on top.
 */
export interface UserQuotas {
  requests: UserQuota;
  /** GET /api/auth/recommendations/papers/: a ranked nearest-neighbour search per call. */
  recommendations: UserQuota;
  /** GET /api/auth/recommendations/similarity/: `text=` embeds the text (a paid call with a remote model). */
  similarity: UserQuota;
  /** PATCH /api/auth/user/: a row write that every server process hears of (user cache). */
  profileUpdates: UserQuota;
  /** GET /articles/search/: a full-text query over the whole corpus. */
  articleSearch: UserQuota;
  /** POST /api/news/search/: full text, or a semantic search that embeds the query (maybe a paid call). */
  newsSearch: UserQuota;
  /** GET /articles/library/export/: the reader's whole library as a citation file (grows with it). */
  libraryExports: UserQuota;
  /** GET /api/auth/user/export/: every row the account owns, as one JSON file. */
  dataExports: UserQuota;
  /** GET of the rating threshold: every rated paper's similarity to the profile. */
  ratingThreshold: UserQuota;
  /** The public Atom feed, counted per reader whose feed it is (whatever the address polling it). */
  feed: UserQuota;
  /** Seeding the profile from ORCID, OpenAlex or a library file (fetches, parsing, an analysis). */
  ownWorks: UserQuota;
  /**
   * Requests of one user a server process runs at once on each costly route (those with their own
   * budget); beyond it 429 at once. 0 = no limit. Keeps one account's burst from queueing everyone
   * else's requests behind its own in the database.
   */
  concurrentPerUser: number;
}

export type UserQuotaName = Exclude<keyof UserQuotas, 'requests' | 'concurrentPerUser'>;

export class ConfigError extends ActionableError {
  override name = 'ConfigError';
}

/** Names the variables at fault in one line, with the offending value unless it may be a secret. */
function describeIssues(error: z.ZodError, env: Record<string, string | undefined>): string {
  const secretLike = /SECRET|PASSWORD|KEY|TOKEN|URL/;
  const parts = error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'environment');
    const value = env[name];
    const shown = value === undefined || secretLike.test(name) ? '' : ` (got "${value}")`;
    return `${name} ${issue.message}${shown}`;
  });
  return `Invalid configuration: ${parts.join('; ')}`;
}

/**
 * Where a browser on this machine reaches a server listening on HOST:PORT. A wildcard HOST (every
 * interface) is reached as localhost; a single interface by its own address.
 */
export function webBaseUrlFor(host: string, port: number): string {
  const wildcard = ['', '0.0.0.0', '::', '[::]'].includes(host.trim());
  const name = wildcard ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

function parseTrustProxy(value: string): AppConfig['trustProxy'] {
  if (value === 'true') return 1;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, env));
  const e = parsed.data;
  if (e.EMBEDDING_MULTILINGUAL && !e.EMBEDDING_MODEL) {
    throw new ConfigError(
      'Invalid configuration: EMBEDDING_MULTILINGUAL declares the EMBEDDING_MODEL endpoint multilingual; set EMBEDDING_MODEL too, or unset EMBEDDING_MULTILINGUAL (the built-in model is not multilingual)',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    warnings:
      e.TRUST_PROXY === 'true'
        ? [
            'TRUST_PROXY=true is read as one proxy hop: the client is the address your nearest proxy appended to X-Forwarded-For. Set TRUST_PROXY to the number of proxies in front of the server, or their addresses, to say so explicitly',
          ]
        : [],
    logLevel: e.LOG_LEVEL,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    redisUrl: e.REDIS_URL,
    runWorker: e.RUN_WORKER,
    workerConcurrency: e.WORKER_CONCURRENCY,
    jobLockMs: e.JOB_LOCK_MS,
    queuePrefix: e.QUEUE_PREFIX,
    jwtSecret: e.JWT_SECRET,
    jwtExpiresInMs: e.JWT_EXPIRES_IN,
    userQuotas: {
      requests: { max: e.QUOTA_REQUESTS_PER_MINUTE, windowMs: 60_000 },
      recommendations: { max: e.QUOTA_RECOMMEND_PER_MINUTE, windowMs: 60_000 },
      similarity: { max: e.QUOTA_SIMILARITY_PER_MINUTE, windowMs: 60_000 },
      profileUpdates: { max: e.QUOTA_PROFILE_EDITS_PER_HOUR, windowMs: 3_600_000 },
      articleSearch: { max: e.QUOTA_ARTICLE_SEARCH_PER_MINUTE, windowMs: 60_000, concurrent: 2 },
      newsSearch: { max: e.QUOTA_NEWS_SEARCH_PER_MINUTE, windowMs: 60_000, concurrent: 2 },
      libraryExports: { max: e.QUOTA_LIBRARY_EXPORTS_PER_MINUTE, windowMs: 60_000, concurrent: 1 },
      dataExports: { max: e.QUOTA_DATA_EXPORTS_PER_HOUR, windowMs: 3_600_000, concurrent: 1 },
      ratingThreshold: { max: e.QUOTA_RATING_THRESHOLD_PER_MINUTE, windowMs: 60_000, concurrent: 1 },
      feed: { max: e.QUOTA_FEED_PER_HOUR, windowMs: 3_600_000, concurrent: 2 },
      ownWorks: { max: OWN_WORKS_LIMITS.perHour, windowMs: 3_600_000, concurrent: 1 },
      concurrentPerUser: e.QUOTA_CONCURRENT_PER_USER,
    },
    operatorToken: e.OPERATOR_TOKEN,
    webBaseUrl: e.WEB_BASE_URL ? e.WEB_BASE_URL.replace(/\/+$/, '') : webBaseUrlFor(e.HOST, e.PORT),
    webBaseUrlFollowsPort: e.WEB_BASE_URL === undefined,
    supportEmail: e.SUPPORT_EMAIL,
    timeZone: e.TIME_ZONE,
    webhookTestOrigin: e.WEBHOOK_TEST_ORIGIN ? new URL(e.WEBHOOK_TEST_ORIGIN).origin : undefined,
    smtpUrl: e.SMTP_URL,
    smtpTlsRejectUnauthorized: e.SMTP_TLS_REJECT_UNAUTHORIZED,
    mailFrom: e.MAIL_FROM,
    feedbackTo: e.FEEDBACK_TO,
    llm: {
      baseUrl: e.OPENAI_BASE_URL,
      apiKey: e.OPENAI_API_KEY,
      model: e.LLM_MODEL,
      timeoutMs: e.LLM_TIMEOUT_MS,
      summaryLanguage: e.LLM_SUMMARY_LANGUAGE,
      jsonMode: e.LLM_JSON_MODE,
      maxRetries: e.LLM_MAX_RETRIES,
      gistDailyLimit: e.LLM_GIST_DAILY_LIMIT,
      rerank: e.LLM_RERANK,
      rerankTimeoutMs: e.LLM_RERANK_TIMEOUT_MS,
    },
    embedding: {
      model: e.EMBEDDING_MODEL,
      dimension: e.EMBEDDING_DIM,
      baseUrl: e.EMBEDDING_BASE_URL ?? e.OPENAI_BASE_URL,
      apiKey: e.EMBEDDING_API_KEY ?? e.OPENAI_API_KEY,
      multilingual: e.EMBEDDING_MULTILINGUAL,
    },
    ingest: {
      enabled: e.INGEST_ENABLED,
      sourcesFile: e.SOURCES_FILE ? path.resolve(e.SOURCES_FILE) : defaultSourcesFile(),
      sourcesJson: e.INGEST_SOURCES_JSON,
      disabledSources: (e.INGEST_DISABLED_SOURCES ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
      openAlexApiKey: e.OPENALEX_API_KEY,
      openAlexBaseUrl: (e.OPENALEX_BASE_URL ?? 'https://api.openalex.org').replace(/\/+$/, ''),
      openAlexReaderQueriesPerDay: e.OPENALEX_READER_QUERIES_PER_DAY,
      crossrefMailto: e.CROSSREF_MAILTO,
      orcidBaseUrl: (e.ORCID_BASE_URL ?? 'https://pub.orcid.org').replace(/\/+$/, ''),
      crossrefBaseUrl: (e.CROSSREF_BASE_URL ?? 'https://api.crossref.org').replace(/\/+$/, ''),
      arxivMinIntervalMs: e.INGEST_ARXIV_MIN_INTERVAL_MS,
      httpTimeoutMs: e.INGEST_HTTP_TIMEOUT_MS,
      maxItemsPerRun: e.INGEST_MAX_ITEMS_PER_RUN,
      maxFeedBytes: e.INGEST_MAX_FEED_BYTES,
      tiersAuto: e.JOURNAL_TIERS_AUTO,
    },
  };
}

export function isEmbeddedDatabase(config: Pick<AppConfig, 'databaseUrl'>): boolean {
  return config.databaseUrl === undefined;
}
