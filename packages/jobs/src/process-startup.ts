import path from 'node:path';
import { type AiServices, createAiServices } from '@radar/ai';
import { createAiRepositories, type DatabaseHandle, openDatabase } from '@radar/db';
import { type IngestSettings, ingestSettingsFromConfig } from '@radar/ingest';
import { createMailer, type Mailer } from '@radar/mail';
import { AppMetrics } from '@radar/metrics';
import { type AppConfig, describeStartupFailure } from '@radar/shared/server';
import type { Logger } from 'pino';
import type { KeywordAlertMailSettings } from './jobs/keyword-alerts.job';
import { assertRedisReachable, createQueueConnection, type QueueConnection } from './queue-connection';
import { startWorkerApp, type WorkerApp } from './worker-app';

/*
 * The start-up path the server (server/src/main.ts, runtime.ts) and the standalone worker
 * (worker/src/main.ts) share: what a process opens from its configuration, in one order, the worker
 * started from it, and the signal handling that stops it all. Each entry point keeps only what is its
 * own (the HTTP app, the JWT secret, the metrics port's timing, its messages).
 */

/** What one process opens from its configuration, once, and hands to everything it runs. */
export interface ProcessParts {
  config: AppConfig;
  database: DatabaseHandle;
  /** Where the queues are (Redis or BullMQ's PostgreSQL backend in `database`). */
  connection: QueueConnection;
  ai: AiServices;
  mailer: Mailer;
  metrics: AppMetrics;
  /** Closes the mailer, then the database when this call opened it. */
  close(): Promise<void>;
}

export interface OpenProcessPartsOptions {
  config: AppConfig;
  logger: Logger;
  /** Connections the process's pool may hold (the server's DATABASE_POOL_MAX, a worker's concurrency + 2). */
  poolMax: number;
  /** An already opened database (tests); it stays open when the parts close. */
  database?: DatabaseHandle | undefined;
  /** Queue namespace; QUEUE_PREFIX unless given (tests use one per file on a shared Redis). */
  queuePrefix?: string | undefined;
}

/**
 * Opens, in order: the Redis check (before the database, so a wrong REDIS_URL does not wait for an
 * embedded database to boot), the database (migrated), the queue connection, the AI providers, the
 * mailer (without SMTP_URL mails go to DATA_DIR/outbox) and the metrics registry. What was opened is
 * closed again when a later step fails.
 */
export async function openProcessParts(options: OpenProcessPartsOptions): Promise<ProcessParts> {
  const { config, logger } = options;
  if (config.redisUrl) await assertRedisReachable(config.redisUrl);
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolMax: options.poolMax,
      migrate: true,
    }));
  const closeDatabase = () => (options.database ? Promise.resolve() : database.close());
  try {
    const connection = createQueueConnection({
      redisUrl: config.redisUrl,
      postgres: database.connectionConfig,
      prefix: options.queuePrefix ?? config.queuePrefix,
    });
    // The AI providers' repositories, built here once per process (this is the composition path the
    // server's and the worker's roots share).
    const ai = createAiServices(config, createAiRepositories(database.db), logger.child({ component: 'ai' }));
    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      tlsRejectUnauthorized: config.smtpTlsRejectUnauthorized,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      logger: logger.child({ component: 'mail' }),
    });
    return {
      config,
      database,
      connection,
      ai,
      mailer,
      metrics: new AppMetrics(),
      async close() {
        mailer.close();
        await closeDatabase();
      },
    };
  } catch (error) {
    await closeDatabase().catch(() => {});
    throw error;
  }
}

/**
 * The worker app over a process's parts, with the configured concurrency, job lock, ingestion and
 * metrics. Keyword-alert mails only with `mail` (their links need the secret the server checks).
 */
export function startProcessWorker(
  parts: ProcessParts,
  options: {
    logger: Logger;
    mail: KeywordAlertMailSettings | undefined;
    /** WorkerAppOptions.serverSecret: JWT_SECRET, or the one generated in embedded mode. */
    serverSecret?: string | undefined;
    /** ingestSettingsFromConfig unless given (the server's tests point the catalogue elsewhere). */
    ingest?: IngestSettings | undefined;
    /** WorkerAppOptions.recurringJobs; on unless false. */
    recurringJobs?: boolean | undefined;
  },
): Promise<WorkerApp> {
  return startWorkerApp({
    connection: parts.connection,
    database: parts.database,
    concurrency: parts.config.workerConcurrency,
    logger: options.logger,
    ai: parts.ai,
    lockDurationMs: parts.config.jobLockMs,
    ingest: options.ingest ?? ingestSettingsFromConfig(parts.config),
    mail: options.mail,
    serverSecret: options.serverSecret,
    metrics: parts.metrics,
    recurringJobs: options.recurringJobs,
  });
}

/**
 * SIGTERM and SIGINT: the first calls `stop` (once), which lets work in flight finish until
 * `stopWaiting` aborts after `drainMs`, then the process exits 0. A second signal aborts `stopWaiting`
 * at once; `stop` still closes the connections properly. With `forceExitMs` a stop that hangs past it
 * exits 1 with a line saying so, rather than be killed without one. Install it before anything can
 * take work (a worker takes jobs as soon as it exists), so a signal during start-up waits for it.
 */
export function onShutdownSignals(options: {
  logger: Logger;
  drainMs: number;
  forceExitMs?: number;
  /** Logged at the first signal. */
  stopping: string;
  /** Logged at the second. */
  secondSignal: string;
  stop: (stopWaiting: AbortSignal) => Promise<void>;
}): { readonly isStopping: boolean } {
  const { logger } = options;
  let isStopping = false;
  const stopWaiting = new AbortController();
  const shutdown = async (signal: string) => {
    if (isStopping) {
      logger.warn({ signal }, options.secondSignal);
      stopWaiting.abort();
      return;
    }
    isStopping = true;
    logger.info({ signal }, options.stopping);
    setTimeout(() => stopWaiting.abort(), options.drainMs).unref();
    if (options.forceExitMs !== undefined) {
      const forceExitMs = options.forceExitMs;
      setTimeout(() => {
        logger.error(`shutdown took longer than ${forceExitMs / 1000} s; exiting`);
        process.exit(1);
      }, forceExitMs).unref();
    }
    await options.stop(stopWaiting.signal);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  return {
    get isStopping() {
      return isStopping;
    },
  };
}

/** Expected start-up failures print one line saying what to fix; anything else is a bug and shows its stack. */
export function exitWithStartupError(what: string, error: unknown): never {
  process.stderr.write(`${what} could not start: ${describeStartupFailure(error)}\n`);
  process.exit(1);
}
