import { exitWithStartupError as exitWith, onShutdownSignals } from '@radar/jobs';
import { type MetricsServer, startMetricsServer } from '@radar/metrics';
import { isEmbeddedDatabase, loadConfig, webBaseUrlFor } from '@radar/shared/server';
import { createLogger } from './logger';
import { startRuntime } from './runtime';

/**
 * After SIGTERM, requests and jobs in flight get this long to finish. Compose gives the server 30 s
 * (stop_grace_period) before SIGKILL; the rest is for closing the queues, the pool and the embedded
 * database. A synchronous research analysis still waiting for the model then is cut (its task is marked
 * failed at the next start) and a job still running goes back to the queue.
 */
const DRAIN_MS = 20_000;
/** Past this a close hangs: exit 1 with a line saying so rather than be killed without one. */
const FORCE_EXIT_MS = 28_000;

/** Expected start-up failures print one line saying what to fix; anything else is a bug and shows its stack. */
function exitWithStartupError(error: unknown): never {
  exitWith('Research Radar', error);
}

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    exitWithStartupError(error);
  }
  const logger = createLogger(config.logLevel);
  for (const warning of config.warnings) logger.warn(warning);
  // The in-process worker can take jobs while start-up is still running, so the signal handlers go in
  // first: a SIGTERM at any point waits for start-up, then lets in-flight requests and jobs finish.
  // The in-process worker starts once the server listens: its start-up does not delay the first answer.
  const starting = startRuntime(config, logger, { deferWorker: true });
  let metricsServer: MetricsServer | undefined;
  const signals = onShutdownSignals({
    logger,
    drainMs: DRAIN_MS,
    forceExitMs: FORCE_EXIT_MS,
    stopping: 'shutting down: finishing in-flight requests and jobs',
    // A second Ctrl-C cuts the wait short, but the database is still closed properly.
    secondSignal: 'second signal: cutting the wait for requests and jobs short',
    stop: async (stopWaiting) => {
      metricsServer?.markShuttingDown();
      const runtime = await starting.catch(() => undefined);
      await runtime?.close(stopWaiting);
      await metricsServer?.close();
    },
  });

  const runtime = await starting.catch(exitWithStartupError);
  if (signals.isStopping) return;
  await runtime.app.listen({ port: config.port, host: config.host }).catch(async (error) => {
    await runtime.close();
    exitWithStartupError(error);
  });
  // GET /metrics and /health on their own port, on loopback unless METRICS_HOST says otherwise (compose
  // sets it inside its network and does not publish the port): the listener has no authentication.
  if (config.metricsPort) {
    metricsServer = await startMetricsServer({
      metrics: runtime.parts.metrics,
      port: config.metricsPort,
      host: config.metricsHost,
      logger,
    }).catch(async (error) => {
      await runtime.close();
      exitWithStartupError(error);
    });
  }

  const embedded = isEmbeddedDatabase(config);
  // PORT=0 listens on a port the system picks: name the real one.
  const address = runtime.app.server.address();
  const listeningPort = address && typeof address === 'object' ? address.port : config.port;
  logger.info(
    {
      mode: embedded ? 'embedded' : 'external',
      database: embedded ? `PGlite in ${config.dataDir}` : 'DATABASE_URL',
      queue: config.redisUrl ? 'redis (REDIS_URL)' : 'postgres (BullMQ PostgreSQL backend)',
      worker: config.runWorker ? 'in-process' : 'separate process',
      mail: config.smtpUrl ? 'smtp (SMTP_URL)' : `outbox (${config.dataDir}/outbox)`,
    },
    `Research Radar listening on ${webBaseUrlFor(config.host, listeningPort)} (${embedded ? 'embedded' : 'external'} mode)`,
  );

  await runtime.startWorker().catch(async (error) => {
    // A shutdown that began meanwhile closes the worker's parts: that is no start-up error.
    if (signals.isStopping) return;
    await runtime.close();
    exitWithStartupError(error);
  });
}

void main();
