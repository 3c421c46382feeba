import type { AiServices } from '@radar/ai';
import type { DatabaseHandle, UserChangeListener } from '@radar/db';
import type { IngestSettings } from '@radar/ingest';
import type { AppQueue, JobQueue, QueueConnection } from '@radar/jobs';
import type { Mailer } from '@radar/mail';
import type { AppMetrics } from '@radar/metrics';
import type { AppConfig } from '@radar/shared/server';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AuthRateLimits } from './features/accounts/account-rate-limits';
import type { HttpTimeouts } from './http-timeouts';
import type { Argon2Params } from './security/password-hasher';
import type { WebBaseUrl } from './web-base-url';

/** What one server process connects to, opened once by startRuntime and shared by every service. */
export interface ServerParts {
  config: AppConfig;
  logger: Logger;
  version: string;
  /** Signs login tokens and keys the verification-code hashes. */
  jwtSecret: string;
  database: DatabaseHandle;
  /**
   * Producers: `probe` answers the health check; `maintenance` (the same queue) takes the sources sync
   * a saved profile asks for; the others take the research-profile work.
   */
  queues: {
    backend: QueueConnection['backend'];
    probe: Pick<AppQueue<unknown>, 'getJobCounts'>;
    maintenance: JobQueue<'maintenance'>;
    research: JobQueue<'research-profile'>;
    embeddings: JobQueue<'embeddings'>;
    /** Recomputes a user's learned profile after a favourite, save, read or 'not interested'. */
    profileLearning: JobQueue<'profile-learning'>;
    /** Seeds a reader's profile from their own works (ORCID, OpenAlex, a library file). */
    ownWorks: JobQueue<'own-works'>;
  };
  mailer: Mailer;
  /** Where mail links point: WEB_BASE_URL, or this server's own address once it listens. */
  webBaseUrl: WebBaseUrl;
  /** LLM and embedding providers, shared by the HTTP routes and the in-process worker. */
  ai: AiServices;
  /** Rate-limit counters in Redis, shared by every instance; in PostgreSQL (`database`) when undefined. */
  rateLimitRedis: Redis | undefined;
  /** Key prefix of those counters in Redis. */
  rateLimitNamespace: string;
  workerInProcess: boolean;
  /** Hears every process's changes to user rows; the auth guard caches rows only while it is live. */
  userChanges: UserChangeListener | undefined;
  /** This process's metrics (HTTP requests, and the in-process worker's jobs and queues), served by main.ts. */
  metrics: AppMetrics;
  /** Content sources and ingestion (ingestSettingsFromConfig), as the in-process worker has them. */
  ingest: IngestSettings;
}

/** What the HTTP app is built with; tests pass other values, production leaves every one out. */
export interface AppOptions {
  /** The built web app; '' serves none. Defaults to web/dist. */
  webDistDir?: string | undefined;
  /** Tests relax or tighten the limits; production uses DEFAULT_AUTH_RATE_LIMITS. */
  authRateLimits?: Partial<AuthRateLimits>;
  /** Waits before a failed login's answer (login-limiter.ts); tests record the delay instead. */
  loginFailureDelay?: (ms: number) => Promise<unknown>;
  /** Waits before a quota refusal answered from memory (user-quotas.ts); tests record it instead. */
  quotaRefusalPause?: (ms: number) => Promise<unknown>;
  /** The clock of expiry rules; tests move it. */
  clock?: () => Date;
  /**
   * Count rate limits in the database in embedded mode too, as instances sharing a PostgreSQL database
   * do: for tests that run two server instances (or a restart) on one embedded database, which only
   * tests do (one process per data directory).
   */
  countersInDatabase?: boolean;
  /** Tests shorten the HTTP timeouts; production uses DEFAULT_HTTP_TIMEOUTS. */
  httpTimeouts?: Partial<HttpTimeouts>;
  /** argon2id cost and how many hashes run at once; production uses ARGON2_PARAMS and one per core. */
  passwordHashing?: { params?: Argon2Params; concurrency?: number };
}
