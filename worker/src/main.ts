import path from 'node:path';
import { createAiServices } from '@radar/ai';
import { openDatabase } from '@radar/db';
import { ingestSettingsFromConfig } from '@radar/ingest';
import { assertRedisReachable, createQueueConnection, startWorkerApp } from '@radar/jobs';
import { createMailer } from '@radar/mail';
import { AppMetrics, type MetricsServer, startMetricsServer } from '@radar/metrics';
import { ConfigError, describeStartupFailure, isEmbeddedDatabase, loadConfig } from '@radar/shared/server';
import pino from 'pino';

/**
 * After SIGTERM, jobs in flight get this long to finish; compose gives the worker 60 s (stop_grace_period)
 * before SIGKILL, and the rest is for closing the connections. A job still running then goes back to the
 * queue when its lock lapses.
 */
const DRAIN_MS = 50_000;

/**
 * A worker as its own process (`pnpm worker`, the compose `worker` service), and its composition root:
 * config, database, queue connection and AI providers are built here, once, and handed to the worker
 * app. With the embedded database the server runs the worker itself (server/src/runtime.ts), so this
 * entry point is for DATABASE_URL deployments.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  if (isEmbeddedDatabase(config)) {
    throw new ConfigError(
      'the standalone worker needs DATABASE_URL; with the embedded database the server runs the worker in-process',
    );
  }
  if (config.redisUrl) await assertRedisReachable(config.redisUrl);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: config.workerConcurrency + 2,
    migrate: true,
  });
  const connection = createQueueConnection({
    redisUrl: config.redisUrl,
    postgres: database.connectionConfig,
    prefix: config.queuePrefix,
  });
  const ai = createAiServices(config, database, logger.child({ component: 'ai' }));
  // Keyword-alert mails. Without SMTP_URL they go to DATA_DIR/outbox. Their unsubscribe links are signed
  // with JWT_SECRET, which the server checks: without it this worker sends no alerts (the server refuses
  // to start on DATABASE_URL without one, so a worker of a working installation has it).
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    tlsRejectUnauthorized: config.smtpTlsRejectUnauthorized,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    logger: logger.child({ component: 'mail' }),
  });
  if (!config.jwtSecret) logger.warn('JWT_SECRET is not set: this worker sends no keyword alert mails');
  const metrics = new AppMetrics();
  // GET /metrics and /health (the container's health check) on a port compose does not publish, which
  // keeps them internal. Bound before any job starts, so a taken port stops start-up with nothing in flight.
  const metricsServer: MetricsServer | undefined = config.metricsPort
    ? await startMetricsServer({ metrics, port: config.metricsPort, host: config.host, logger })
    : undefined;
  // Workers take jobs as soon as they are created, before start-up has finished (schedulers), so the
  // signal handlers are in place first: a SIGTERM during start-up must not kill a job in flight.
  const starting = startWorkerApp({
    connection,
    database,
    concurrency: config.workerConcurrency,
    logger,
    ingest: ingestSettingsFromConfig(config),
    ai,
    lockDurationMs: config.jobLockMs,
    mail: config.jwtSecret ? { mailer, webBaseUrl: () => config.webBaseUrl, linkSecret: config.jwtSecret } : undefined,
    metrics,
  });
  let stopping = false;
  const stopWaiting = new AbortController();
  const shutdown = async (signal: string) => {
    if (stopping) {
      // A second Ctrl-C cuts the wait short, but the connections are still closed properly.
      logger.warn({ signal }, 'second signal: cutting the wait for jobs short');
      stopWaiting.abort();
      return;
    }
    stopping = true;
    logger.info({ signal }, 'worker shutting down: letting in-flight jobs finish');
    metricsServer?.markShuttingDown();
    setTimeout(() => stopWaiting.abort(), DRAIN_MS).unref();
    const worker = await starting.catch(() => undefined);
    await worker?.close(stopWaiting.signal);
    mailer.close();
    await database.close();
    await metricsServer?.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await starting;
}

main().catch((error: unknown) => {
  process.stderr.write(`Research Radar worker could not start: ${describeStartupFailure(error)}\n`);
  process.exit(1);
});
