import { exitWithStartupError, onShutdownSignals, openProcessParts, startProcessWorker } from '@radar/jobs';
import { type MetricsServer, startMetricsServer } from '@radar/metrics';
import { ConfigError, isEmbeddedDatabase, loadConfig } from '@radar/shared/server';
import pino from 'pino';

/**
 * After SIGTERM, jobs in flight get this long to finish; compose gives the worker 60 s (stop_grace_period)
 * before SIGKILL, and the rest is for closing the connections. A job still running then goes back to the
 * queue when its lock lapses.
 */
const DRAIN_MS = 50_000;

/**
 * A worker as its own process (`pnpm worker`, the compose `worker` service), and its composition root:
 * config, database, queue connection and AI providers are opened here, once (openProcessParts, the
 * server's start-up path too), and handed to the worker app. With the embedded database the server runs the worker itself (server/src/runtime.ts), so this
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
  // Config, Redis check, database, queue connection, AI providers, mailer and metrics, as the server
  // opens them (@radar/jobs process-startup).
  const parts = await openProcessParts({ config, logger, poolMax: config.workerConcurrency + 2 });
  // Keyword-alert mails' unsubscribe links are signed with JWT_SECRET, which the server checks: without it
  // this worker sends no alerts (the server refuses to start on DATABASE_URL without one, so a worker of
  // a working installation has it).
  if (!config.jwtSecret) logger.warn('JWT_SECRET is not set: this worker sends no keyword alert mails');
  // GET /metrics and /health (the container's health check) on a port compose does not publish, which
  // keeps them internal. Bound before any job starts, so a taken port stops start-up with nothing in flight.
  const metricsServer: MetricsServer | undefined = config.metricsPort
    ? await startMetricsServer({ metrics: parts.metrics, port: config.metricsPort, host: config.metricsHost, logger })
    : undefined;
  // Workers take jobs as soon as they are created, before start-up has finished (schedulers), so the
  // signal handlers are in place first: a SIGTERM during start-up must not kill a job in flight.
  const starting = startProcessWorker(parts, {
    logger,
    mail: config.jwtSecret
      ? { mailer: parts.mailer, webBaseUrl: () => config.webBaseUrl, linkSecret: config.jwtSecret }
      : undefined,
    serverSecret: config.jwtSecret,
  });
  onShutdownSignals({
    logger,
    drainMs: DRAIN_MS,
    stopping: 'worker shutting down: letting in-flight jobs finish',
    // A second Ctrl-C cuts the wait short, but the connections are still closed properly.
    secondSignal: 'second signal: cutting the wait for jobs short',
    stop: async (stopWaiting) => {
      metricsServer?.markShuttingDown();
      const worker = await starting.catch(() => undefined);
      await worker?.close(stopWaiting);
      await parts.close();
      await metricsServer?.close();
    },
  });
  await starting;
}

main().catch((error: unknown) => exitWithStartupError('Research Radar worker', error));
