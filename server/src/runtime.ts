import { once } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAiServices } from '@radar/ai';
import { AsyncTaskRepository, type DatabaseHandle, openDatabase } from '@radar/db';
import { ingestSettingsFromConfig } from '@radar/ingest';
import {
  type AppQueue,
  assertRedisReachable,
  createQueue,
  createQueueConnection,
  failInterruptedResearchTasks,
  startWorkerApp,
  type WorkerApp,
} from '@radar/jobs';
import { type EmbeddingsJob, QUEUE_NAMES, type ResearchProfileJob } from '@radar/shared';
import { type AppConfig, isEmbeddedDatabase } from '@radar/shared/server';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type AppDeps, buildApp } from './app';
import { createMailer } from './mail/mailer';
import { resolveJwtSecret } from './security/jwt-secret';
import { HealthService } from './services/health.service';

const SERVER_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_WEB_DIST_DIR = path.resolve(SERVER_ROOT, '../web/dist');

export async function readAppVersion(): Promise<string> {
  const manifest = JSON.parse(await fs.readFile(path.join(SERVER_ROOT, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? '0.0.0';
}

export interface Runtime {
  app: FastifyInstance;
  database: DatabaseHandle;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Use an already opened database (tests); otherwise open the configured one and migrate it. */
  database?: DatabaseHandle;
  webDistDir?: string | undefined;
  /** Queue namespace; tests use a unique one per file on a shared Redis. */
  queuePrefix?: string;
  authRateLimits?: AppDeps['authRateLimits'];
  loginFailureDelay?: AppDeps['loginFailureDelay'];
  clock?: AppDeps['clock'];
  httpTimeouts?: AppDeps['httpTimeouts'];
}

/**
 * Everything one server process runs: database (embedded or external), queue connection, mail,
 * the worker when it runs in-process, and the HTTP app. Closing stops them in reverse order.
 */
export async function startRuntime(config: AppConfig, logger: Logger, options: RuntimeOptions = {}): Promise<Runtime> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) {
      await Promise.resolve(cleanup()).catch((error) => logger.error({ err: error }, 'error while shutting down'));
    }
    cleanups.length = 0;
  };

  try {
    const embedded = isEmbeddedDatabase(config);
    const jwtSecret = await resolveJwtSecret({ configured: config.jwtSecret, embedded, dataDir: config.dataDir });
    // Before the database: a wrong REDIS_URL should not wait for an embedded database to boot.
    if (config.redisUrl) await assertRedisReachable(config.redisUrl);

    const database =
      options.database ??
      (await openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        poolMax: config.databasePoolMax,
        migrate: true,
      }));
    if (!options.database) cleanups.push(() => database.close());

    const queueConnection = createQueueConnection({
      redisUrl: config.redisUrl,
      postgres: database.connectionConfig,
      prefix: options.queuePrefix ?? config.queuePrefix,
    });

    // LLM and embedding providers, shared by the HTTP routes and the in-process worker.
    const ai = createAiServices(config, database, logger.child({ component: 'ai' }));

    let worker: WorkerApp | undefined;
    if (config.runWorker) {
      worker = await startWorkerApp({
        connection: queueConnection,
        database,
        concurrency: config.workerConcurrency,
        logger: logger.child({ component: 'worker' }),
        ai,
        lockDurationMs: config.jobLockMs,
        ingest: ingestSettingsFromConfig(config),
      });
      cleanups.push(() => worker?.close());
    } else if (embedded) {
      logger.warn('RUN_WORKER=false with the embedded database: no other process can run jobs for it');
    }

    const probeQueue: AppQueue<unknown> = createQueue(queueConnection, QUEUE_NAMES.maintenance);
    cleanups.push(() => probeQueue.close());
    const researchQueue = createQueue<ResearchProfileJob>(queueConnection, QUEUE_NAMES.researchProfile);
    cleanups.push(() => researchQueue.close());
    // Synchronous research requests cut by the previous process's end left their tasks 'processing'.
    // Alone on an embedded database nothing else can be running them; otherwise the usual margin applies.
    await failInterruptedResearchTasks({
      tasks: new AsyncTaskRepository(database.db),
      jobs: researchQueue,
      ...(embedded ? { withoutJobAfterMs: 0 } : {}),
    }).then(
      (failed) => failed && logger.warn({ failed }, 'interrupted research tasks marked failed'),
      (error: Error) => logger.warn({ err: error.message }, 'interrupted research tasks not checked'),
    );
    const embeddingsQueue = createQueue<EmbeddingsJob>(queueConnection, QUEUE_NAMES.embeddings);
    cleanups.push(() => embeddingsQueue.close());

    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      tlsRejectUnauthorized: config.smtpTlsRejectUnauthorized,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      logger: logger.child({ component: 'mail' }),
    });
    cleanups.push(() => mailer.close());

    let rateLimitRedis: Redis | undefined;
    if (config.redisUrl) {
      rateLimitRedis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
      rateLimitRedis.on('error', (error) => logger.warn({ err: error.message }, 'rate-limit redis error'));
      const client = rateLimitRedis;
      cleanups.push(() => void client.disconnect());
      // Without an offline queue, a request counted before the connection is up would be refused (503).
      if (client.status !== 'ready') await once(client, 'ready');
    }

    const version = await readAppVersion();
    const health = new HealthService({
      version,
      database,
      probeQueue,
      queueBackend: queueConnection.backend,
      workerInProcess: Boolean(worker),
      mailer,
    });
    const app = await buildApp({
      config,
      version,
      logger,
      database,
      health,
      jwtSecret,
      rateLimitRedis,
      rateLimitNamespace: `${options.queuePrefix ?? config.queuePrefix}:rate-limit:`,
      webDistDir: options.webDistDir === undefined ? DEFAULT_WEB_DIST_DIR : options.webDistDir,
      mailer,
      authRateLimits: options.authRateLimits,
      loginFailureDelay: options.loginFailureDelay,
      clock: options.clock,
      httpTimeouts: options.httpTimeouts,
      research: { ai, researchQueue, embeddingsQueue, syncTimeoutMs: config.llm.timeoutMs },
    });
    // The HTTP server closes first: in-flight requests finish before their dependencies go away.
    cleanups.push(() => app.close());

    return { app, database, close };
  } catch (error) {
    await close();
    throw error;
  }
}
