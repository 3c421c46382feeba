import { describeStartupFailure, isEmbeddedDatabase, loadConfig } from '@radar/shared/server';
import { createLogger } from './logger';
import { startRuntime } from './runtime';

/** Expected start-up failures print one line saying what to fix; anything else is a bug and shows its stack. */
function exitWithStartupError(error: unknown): never {
  process.stderr.write(`Research Radar could not start: ${describeStartupFailure(error)}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    exitWithStartupError(error);
  }
  const logger = createLogger(config.logLevel);
  // The in-process worker can take jobs while start-up is still running, so the signal handlers go in
  // first: a SIGTERM at any point waits for start-up, then lets in-flight requests and jobs finish.
  const starting = startRuntime(config, logger);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    const forceExit = setTimeout(() => {
      logger.error('shutdown took longer than 30 s; exiting');
      process.exit(1);
    }, 30_000);
    forceExit.unref();
    const runtime = await starting.catch(() => undefined);
    await runtime?.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const runtime = await starting.catch(exitWithStartupError);
  if (stopping) return;
  await runtime.app.listen({ port: config.port, host: config.host }).catch(async (error) => {
    await runtime.close();
    exitWithStartupError(error);
  });

  const embedded = isEmbeddedDatabase(config);
  logger.info(
    {
      mode: embedded ? 'embedded' : 'external',
      database: embedded ? `PGlite in ${config.dataDir}` : 'DATABASE_URL',
      queue: config.redisUrl ? 'redis (REDIS_URL)' : 'postgres (BullMQ PostgreSQL backend)',
      worker: config.runWorker ? 'in-process' : 'separate process',
      mail: config.smtpUrl ? 'smtp (SMTP_URL)' : `outbox (${config.dataDir}/outbox)`,
    },
    `Research Radar listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port} (${embedded ? 'embedded' : 'external'} mode)`,
  );
}

void main();
