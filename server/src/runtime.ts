import { once } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLlmReranker } from '@radar/ai';
import {
  ArticleRepository,
  AsyncTaskRepository,
  AuthRecordRepository,
  type DatabaseHandle,
  DeliveryRepository,
  EmailChangeRepository,
  FeedbackRepository,
  FollowedAuthorRepository,
  HealthRepository,
  InterestRepository,
  KeywordRepository,
  LearningRepository,
  NewsSearchRepository,
  PaperRepository,
  RateLimitRepository,
  ReaderFieldsRepository,
  RecommendationDiagnosticsRepository,
  RecommendationRepository,
  SessionRepository,
  SourceStateRepository,
  StoredSecrets,
  UserAdminRepository,
  UserRepository,
} from '@radar/db';
import { type IngestSettings, ingestSettingsFromConfig } from '@radar/ingest';
import {
  createQueue,
  failInterruptedTasks,
  openProcessParts,
  rateLimitNamespace,
  startProcessWorker,
  type WorkerApp,
} from '@radar/jobs';
import { ContentSources, createRecommendationPipelines } from '@radar/recommend';
import { QUEUE_NAMES } from '@radar/shared';
import { type AppConfig, isEmbeddedDatabase } from '@radar/shared/server';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { buildApp } from './app';
import type { ServerRepositories, SharedServices } from './feature';
import { FEATURES } from './feature-list';
import { type AuthRateLimits, DEFAULT_AUTH_RATE_LIMITS } from './features/accounts/account-rate-limits';
import { SessionService } from './features/accounts/session.service';
import { LearningService } from './features/learning/learning.service';
import { ProfileEmbeddingService } from './features/research-profile/profile-embedding.service';
import { closeHttpServer } from './http-shutdown';
import { AfterAnswer } from './mail/after-answer';
import { LoginLimiter } from './plugins/login-limiter';
import { createRateLimitStore } from './plugins/rate-limit-store';
import { createAccountCache, startUserChangeListener } from './plugins/user-cache';
import { profileVectorError, profileVectorOf } from './profile-vector';
import { resolveJwtSecret } from './security/jwt-secret';
import { PasswordHasher } from './security/password-hasher';
import { SignedCookies } from './security/signed-cookies';
import type { AppOptions, ServerParts } from './server-parts';
import { SourceActivationRequests } from './services/source-activation';
import { WebBaseUrl } from './web-base-url';

/*
 * The server's composition root. startRuntime opens what the process connects to (database, queues,
 * mail, AI providers, the rate-limit Redis) and starts the in-process worker; composeApp builds the
 * repositories and the shared services once from those parts, then every feature of FEATURES
 * (feature-list.ts; each feature's index.ts builds its own services), and hands them to buildApp.
 */

const SERVER_ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_WEB_DIST_DIR = path.resolve(SERVER_ROOT, '../web/dist');

async function readAppVersion(): Promise<string> {
  const manifest = JSON.parse(await fs.readFile(path.join(SERVER_ROOT, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? '0.0.0';
}

export interface RuntimeOptions extends AppOptions {
  /** Use an already opened database (tests); otherwise open the configured one and migrate it. */
  database?: DatabaseHandle;
  /** Queue namespace; tests use a unique one per file on a shared Redis. */
  queuePrefix?: string;
  /** The in-process worker's recurring jobs (WorkerAppOptions.recurringJobs); on unless false. */
  recurringJobs?: boolean;
  /**
   * FOR TESTS ONLY: the built-in catalogue fetches from this origin instead of the real hosts
   * (IngestSettings.catalogueOriginForTests); nothing in the environment sets it.
   */
  catalogueOriginForTests?: string;
  /**
   * Leave the in-process worker to `Runtime.startWorker()` (main.ts calls it once the server listens:
   * the worker's start-up, its schedules and source sync, then does not delay the first answer).
   */
  deferWorker?: boolean;
}

export interface Runtime {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** What the app was composed from; tests compose another app with one part replaced. */
  parts: ServerParts;
  /**
   * Stops taking requests and jobs, lets those in flight finish, then closes everything. Once
   * `stopWaiting` aborts, requests still open are cut and jobs still running are left to go back to the queue.
   */
  close(stopWaiting?: AbortSignal): Promise<void>;
  /** Starts the in-process worker when RUN_WORKER is on and it is not started yet (see deferWorker). */
  startWorker(): Promise<void>;
}

/** Every repository the features take, once per app (FeatureDeps hands each feature the ones it declared). */
function createRepositories(database: DatabaseHandle, jwtSecret: string): ServerRepositories {
  const { db } = database;
  return {
    users: new UserRepository(db),
    authRecords: new AuthRecordRepository(db),
    emailChanges: new EmailChangeRepository(db),
    userAdmin: new UserAdminRepository(db),
    tasks: new AsyncTaskRepository(db),
    articles: new ArticleRepository(db),
    feedback: new FeedbackRepository(db),
    keywords: new KeywordRepository(db),
    // Robot webhooks are sealed at rest under a key derived from the server secret (StoredSecrets).
    deliveries: new DeliveryRepository(db, new StoredSecrets(jwtSecret)),
    interests: new InterestRepository(db),
    followedAuthors: new FollowedAuthorRepository(db),
    papers: new PaperRepository(db),
    news: new NewsSearchRepository(db),
    health: new HealthRepository(database.pool),
  };
}

/** The services several features (or the app's plugins) share, once per app, before the features. */
function createSharedServices(
  parts: ServerParts,
  options: AppOptions,
  { users, papers, news }: ServerRepositories,
): SharedServices {
  const { config, logger, database, ai } = parts;
  const sessionRepository = new SessionRepository(database.db);
  const userCache = createAccountCache(users, sessionRepository, parts.userChanges, options.clock);
  const sessions = new SessionService({ sessions: sessionRepository, accounts: userCache, logger, now: options.clock });
  // Every limiter counts in one store that every server instance sees (Redis or PostgreSQL), so limits
  // hold across instances; an unreachable store refuses limited requests (503). An embedded database has
  // one server process (data-dir-lock.ts), so without Redis its counters stay in that process's memory
  // and a request spends no round trip through the serialised PGlite socket on them.
  const rateLimitStore = createRateLimitStore({
    redis: parts.rateLimitRedis,
    namespace: parts.rateLimitNamespace,
    counters: new RateLimitRepository(database.db),
    inProcess: database.mode === 'embedded' && !options.countersInDatabase,
    logger,
  });
  const authRateLimits: AuthRateLimits = { ...DEFAULT_AUTH_RATE_LIMITS, ...options.authRateLimits };
  const cookies = new SignedCookies(parts.jwtSecret);
  const loginLimiter = new LoginLimiter(
    rateLimitStore,
    authRateLimits,
    cookies,
    options.loginFailureDelay,
    options.clock,
  );
  const learning = new LearningService({
    learning: new LearningRepository(database.db),
    queue: parts.queues.profileLearning,
    activeModelId: () =>
      ai.embeddings.activeModel().then(
        (model) => model.id,
        () => undefined,
      ),
    profileVector: (user) => profileVectorOf({ ai, users, logger }, user),
    logger,
  });
  const pipelines = createRecommendationPipelines({
    embeddings: ai.embeddings,
    recommendations: new RecommendationRepository(database.db),
    papers,
    news,
    diagnostics: new RecommendationDiagnosticsRepository(database.db),
    contentSources: new ContentSources({
      settings: parts.ingest,
      readerFields: new ReaderFieldsRepository(database.db),
      states: new SourceStateRepository(database.db),
      now: options.clock,
    }),
    profile: { embeddings: ai.embeddings, users, error: profileVectorError },
    requestRelearn: (userId) => learning.requestRelearnFromRead(userId),
    logger,
    llmRerank: createLlmReranker(config, ai.languageModel, logger),
    now: options.clock,
  });
  return {
    afterAnswer: new AfterAnswer(logger),
    userCache,
    sessions,
    rateLimitStore,
    authRateLimits,
    loginLimiter,
    cookies,
    hasher: new PasswordHasher(options.passwordHashing?.concurrency, options.passwordHashing?.params),
    profileEmbedding: new ProfileEmbeddingService({ ai, users, embeddingsQueue: parts.queues.embeddings, logger }),
    learning,
    sourceRequests: new SourceActivationRequests({ queue: parts.queues.maintenance, logger }),
    pipelines,
    pipeline: pipelines(config.timeZone),
  };
}

/** The HTTP app over the given parts: the shared services, then every feature (FEATURES), then buildApp. */
export async function composeApp(parts: ServerParts, options: AppOptions = {}): Promise<FastifyInstance> {
  const repositories = createRepositories(parts.database, parts.jwtSecret);
  const shared = createSharedServices(parts, options, repositories);
  const features = FEATURES.map((feature) => feature.build({ parts, options, shared, repositories }));
  const app = await buildApp({
    config: parts.config,
    version: parts.version,
    logger: parts.logger,
    jwtSecret: parts.jwtSecret,
    webDistDir: options.webDistDir === undefined ? DEFAULT_WEB_DIST_DIR : options.webDistDir,
    httpTimeouts: options.httpTimeouts,
    services: { ...shared, quotaRefusalPause: options.quotaRefusalPause },
    features,
    metrics: parts.metrics,
  });
  // The limiters' store closes with the app, after its in-flight requests.
  app.addHook('onClose', () => shared.rateLimitStore.close());
  app.addHook('onClose', () => shared.userCache.close());
  // Mails handed over after an answer go out before the mailer and the database close (cleanups below).
  app.addHook('onClose', () => shared.afterAnswer.settle());
  for (const { onListen } of features) if (onListen) app.addHook('onListen', onListen);
  return app;
}

/**
 * Everything one server process runs: database (embedded or external), queue connection, mail, AI
 * providers, the worker when it runs in-process, and the HTTP app. Closing stops them in reverse order.
 */
export async function startRuntime(config: AppConfig, logger: Logger, options: RuntimeOptions = {}): Promise<Runtime> {
  const cleanups: (() => Promise<void> | void)[] = [];
  // The HTTP server and the in-process worker drain side by side, before anything they use closes.
  const drains: ((stopWaiting?: AbortSignal) => Promise<void>)[] = [];
  const close = async (stopWaiting?: AbortSignal) => {
    const report = (error: unknown) => logger.error({ err: error }, 'error while shutting down');
    await Promise.all(drains.splice(0).map((drain) => drain(stopWaiting).catch(report)));
    for (const cleanup of cleanups.reverse()) {
      await Promise.resolve(cleanup()).catch(report);
    }
    cleanups.length = 0;
  };

  // How long each step of start-up took, logged once ready: where an operator's start-up time goes.
  const startedAt = performance.now();
  let stepStartedAt = startedAt;
  const startupSteps: Record<string, number> = {};
  const stepDone = (step: string) => {
    const now = performance.now();
    startupSteps[step] = Math.round(now - stepStartedAt);
    stepStartedAt = now;
  };
  try {
    const embedded = isEmbeddedDatabase(config);
    const jwtSecret = await resolveJwtSecret({ configured: config.jwtSecret, embedded, dataDir: config.dataDir });
    const queuePrefix = options.queuePrefix ?? config.queuePrefix;
    // The start-up path the standalone worker shares: Redis check, database, queue connection, AI
    // providers, mailer (before the worker: its keyword-alert job mails through it) and metrics. They
    // close last: the mailer after the worker, the database (unless a test passed it) after everything.
    const processParts = await openProcessParts({
      config,
      logger,
      poolMax: config.databasePoolMax,
      database: options.database,
      queuePrefix,
    });
    cleanups.push(() => processParts.close());
    stepDone('database_ms');
    const { database, connection: queueConnection, ai, mailer, metrics } = processParts;
    const userChanges = await startUserChangeListener(database, new UserRepository(database.db), logger);
    cleanups.push(() => userChanges?.close());

    const ingest: IngestSettings = {
      ...ingestSettingsFromConfig(config),
      ...(options.catalogueOriginForTests ? { catalogueOriginForTests: options.catalogueOriginForTests } : {}),
    };
    const webBaseUrl = new WebBaseUrl(config);

    // This process is also the composition root of its in-process worker.
    let workerStarting: Promise<WorkerApp> | undefined;
    const startWorker = async (): Promise<void> => {
      if (!config.runWorker) return;
      if (!workerStarting) {
        const starting = startProcessWorker(processParts, {
          logger: logger.child({ component: 'worker' }),
          ingest,
          // Alert mails: unsubscribe links are signed with this process's secret (generated in embedded mode).
          mail: { mailer, webBaseUrl: webBaseUrl.current, linkSecret: jwtSecret },
          serverSecret: jwtSecret,
          recurringJobs: options.recurringJobs,
        });
        workerStarting = starting;
        // A shutdown during the worker's start-up waits for it, then drains it.
        drains.push(async (stopWaiting) => (await starting.catch(() => undefined))?.close(stopWaiting));
      }
      await workerStarting;
    };
    if (!config.runWorker && embedded) {
      logger.warn('RUN_WORKER=false with the embedded database: no other process can run jobs for it');
    }
    if (!options.deferWorker) await startWorker();
    stepDone('worker_ms');

    const maintenanceQueue = createQueue(queueConnection, QUEUE_NAMES.maintenance);
    cleanups.push(() => maintenanceQueue.close());
    const researchQueue = createQueue(queueConnection, QUEUE_NAMES.researchProfile);
    cleanups.push(() => researchQueue.close());
    const ownWorksQueue = createQueue(queueConnection, QUEUE_NAMES.ownWorks);
    cleanups.push(() => ownWorksQueue.close());
    // Synchronous research requests cut by the previous process's end left their tasks 'processing', and
    // tasks whose job the queue gave up on stay so. Alone on an embedded database nothing else can be
    // running them; otherwise each kind's usual margin applies.
    await failInterruptedTasks({
      tasks: new AsyncTaskRepository(database.db),
      jobs: { research: researchQueue, ownWorks: ownWorksQueue },
      ...(embedded ? { withoutJobAfterMs: 0 } : {}),
    }).then(
      (failed) => failed && logger.warn({ failed }, 'interrupted tasks marked failed'),
      (error: Error) => logger.warn({ err: error.message }, 'interrupted tasks not checked'),
    );
    const embeddingsQueue = createQueue(queueConnection, QUEUE_NAMES.embeddings);
    cleanups.push(() => embeddingsQueue.close());
    const profileLearningQueue = createQueue(queueConnection, QUEUE_NAMES.profileLearning);
    cleanups.push(() => profileLearningQueue.close());

    let rateLimitRedis: Redis | undefined;
    if (config.redisUrl) {
      rateLimitRedis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
      rateLimitRedis.on('error', (error) => logger.warn({ err: error.message }, 'rate-limit redis error'));
      const client = rateLimitRedis;
      cleanups.push(() => void client.disconnect());
      // Without an offline queue, a request counted before the connection is up would be refused (503).
      if (client.status !== 'ready') await once(client, 'ready');
    }

    const parts: ServerParts = {
      config,
      logger,
      version: await readAppVersion(),
      jwtSecret,
      database,
      queues: {
        backend: queueConnection.backend,
        probe: maintenanceQueue,
        maintenance: maintenanceQueue,
        research: researchQueue,
        embeddings: embeddingsQueue,
        profileLearning: profileLearningQueue,
        ownWorks: ownWorksQueue,
      },
      mailer,
      webBaseUrl,
      ai,
      rateLimitRedis,
      rateLimitNamespace: rateLimitNamespace(queuePrefix),
      workerInProcess: config.runWorker,
      userChanges,
      metrics,
      ingest,
    };
    stepDone('queues_ms');
    const app = await composeApp(parts, options);
    stepDone('app_ms');
    logger.info({ ...startupSteps, total_ms: Math.round(performance.now() - startedAt) }, 'started');
    // Whoever listens (main.ts, a test on port 0), mail links follow the port the server got.
    app.addHook('onListen', async () => {
      const address = app.server.address();
      if (address && typeof address === 'object') webBaseUrl.listeningOn(address.port);
    });
    drains.push((stopWaiting) => closeHttpServer(app, stopWaiting));

    return { app, database, parts, close, startWorker };
  } catch (error) {
    await close();
    throw error;
  }
}
