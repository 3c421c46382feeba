import { once } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AiServices, createLlmReranker } from '@radar/ai';
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
  type UserChangeListener,
  UserRepository,
} from '@radar/db';
import { type IngestSettings, ingestSettingsFromConfig } from '@radar/ingest';
import {
  type AppQueue,
  createQueue,
  failInterruptedTasks,
  forgetUserInQueues,
  type JobQueue,
  openProcessParts,
  type QueueConnection,
  rateLimitNamespace,
  startProcessWorker,
  type WorkerApp,
} from '@radar/jobs';
import { type Mailer, MailLinkTokens } from '@radar/mail';
import type { AppMetrics } from '@radar/metrics';
import { ContentSources, createRecommendationPipelines } from '@radar/recommend';
import { QUEUE_NAMES } from '@radar/shared';
import { type AppConfig, isEmbeddedDatabase } from '@radar/shared/server';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type AppServices, buildApp } from './app';
import { type AuthRateLimits, DEFAULT_AUTH_RATE_LIMITS } from './features/accounts/account-rate-limits';
import { AuthService } from './features/accounts/auth.service';
import { EmailChangeService } from './features/accounts/email-change.service';
import { AccountSelfService } from './features/accounts/self-service.service';
import { SessionService } from './features/accounts/session.service';
import { UserService } from './features/accounts/user.service';
import { ArticleService } from './features/articles/article.service';
import { DeliveryService } from './features/delivery/delivery.service';
import { FeedbackService } from './features/feedback/feedback.service';
import { FollowedAuthorService } from './features/followed-authors/followed-author.service';
import { InterestService } from './features/interests/interest.service';
import { KeywordService } from './features/keywords/keyword.service';
import { LearningService } from './features/learning/learning.service';
import { NewsRecommendationService } from './features/news-recommendations/news-recommendation.service';
import { NewsSearchService } from './features/news-search/news-search.service';
import { PaperRecommendationService } from './features/recommendations/paper-recommendation.service';
import { RecommendationStatsService } from './features/recommendations/recommendation-stats.service';
import { OwnWorksService } from './features/research-profile/own-works.service';
import { ProfileEmbeddingService } from './features/research-profile/profile-embedding.service';
import { ResearchProfileService } from './features/research-profile/research-profile.service';
import { HealthService } from './features/system/health.service';
import { publicConfigOf } from './features/system/public-config.presenter';
import { closeHttpServer } from './http-shutdown';
import type { HttpTimeouts } from './http-timeouts';
import { LoginLimiter } from './plugins/login-limiter';
import { createRateLimitStore } from './plugins/rate-limit-store';
import { createAccountCache, startUserChangeListener } from './plugins/user-cache';
import { profileVectorError, profileVectorOf } from './profile-vector';
import { resolveJwtSecret } from './security/jwt-secret';
import { type Argon2Params, PasswordHasher } from './security/password-hasher';
import { SecretCodes } from './security/secret-codes';
import { SignedCookies } from './security/signed-cookies';
import { SourceActivationRequests } from './services/source-activation';
import { WebBaseUrl } from './web-base-url';

/*
 * The server's composition root. startRuntime opens what the process connects to (database, queues,
 * mail, AI providers, the rate-limit Redis) and starts the in-process worker; composeApp builds every
 * service once from those parts and hands them to buildApp. Nothing else constructs a service.
 */

const SERVER_ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_WEB_DIST_DIR = path.resolve(SERVER_ROOT, '../web/dist');

async function readAppVersion(): Promise<string> {
  const manifest = JSON.parse(await fs.readFile(path.join(SERVER_ROOT, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? '0.0.0';
}

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

/** Every service, once, from the process's parts. */
function createServices(parts: ServerParts, options: AppOptions): AppServices {
  const { config, logger, database, ai } = parts;
  const userRepository = new UserRepository(database.db);
  const sessionRepository = new SessionRepository(database.db);
  const userCache = createAccountCache(userRepository, sessionRepository, parts.userChanges, options.clock);
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
  const profileEmbedding = new ProfileEmbeddingService({
    ai,
    users: userRepository,
    embeddingsQueue: parts.queues.embeddings,
    logger,
  });
  const learningRepository = new LearningRepository(database.db);
  const learning = new LearningService({
    learning: learningRepository,
    queue: parts.queues.profileLearning,
    activeModelId: () =>
      ai.embeddings.activeModel().then(
        (model) => model.id,
        () => undefined,
      ),
    profileVector: (user) => profileVectorOf({ ai, users: userRepository, logger }, user),
    logger,
  });
  const keywordRepository = new KeywordRepository(database.db);
  const diagnostics = new RecommendationDiagnosticsRepository(database.db);
  const sourceRequests = new SourceActivationRequests({ queue: parts.queues.maintenance, logger });
  const contentSources = new ContentSources({
    settings: parts.ingest,
    readerFields: new ReaderFieldsRepository(database.db),
    states: new SourceStateRepository(database.db),
    now: options.clock,
  });
  const hasher = new PasswordHasher(options.passwordHashing?.concurrency, options.passwordHashing?.params);
  const selfService = new AccountSelfService({
    admin: new UserAdminRepository(database.db),
    hasher,
    userCache,
    forgetTraces: async (userId) => {
      await rateLimitStore.deleteMentioningOutsideDatabase(userId);
      await forgetUserInQueues(parts.queues.backend, parts.queues, userId);
    },
    logger,
    now: options.clock,
    timeZone: config.timeZone,
  });
  const paperRepository = new PaperRepository(database.db);
  const followedAuthorRepository = new FollowedAuthorRepository(database.db);
  const newsSearchRepository = new NewsSearchRepository(database.db);
  const recommendationRepository = new RecommendationRepository(database.db);
  const pipelines = createRecommendationPipelines({
    embeddings: ai.embeddings,
    recommendations: recommendationRepository,
    papers: paperRepository,
    news: newsSearchRepository,
    diagnostics,
    contentSources,
    profile: { embeddings: ai.embeddings, users: userRepository, error: profileVectorError },
    requestRelearn: (userId) => learning.requestRelearnFromRead(userId),
    logger,
    llmRerank: createLlmReranker(config, ai.languageModel, logger),
    now: options.clock,
  });
  const pipeline = pipelines(config.timeZone);
  return {
    auth: new AuthService({
      users: userRepository,
      authRecords: new AuthRecordRepository(database.db),
      hasher,
      codes: new SecretCodes(parts.jwtSecret),
      mailer: parts.mailer,
      webBaseUrl: parts.webBaseUrl.current,
      logger,
      now: options.clock,
      loginLimiter,
      userCache,
      sessions,
      timeZone: config.timeZone,
    }),
    sessions,
    users: new UserService(userRepository, sourceRequests, profileEmbedding),
    selfService,
    emailChange: new EmailChangeService({
      changes: new EmailChangeRepository(database.db),
      users: userRepository,
      selfService,
      codes: new SecretCodes(parts.jwtSecret),
      mailer: parts.mailer,
      userCache,
      webBaseUrl: parts.webBaseUrl.current,
      logger,
      timeZone: config.timeZone,
      now: options.clock,
    }),
    research: new ResearchProfileService({
      tasks: new AsyncTaskRepository(database.db),
      users: userRepository,
      ai,
      researchQueue: parts.queues.research,
      profileEmbedding,
      sources: sourceRequests,
      syncTimeoutMs: config.llm.timeoutMs,
      logger,
    }),
    ownWorks: new OwnWorksService({
      tasks: new AsyncTaskRepository(database.db),
      queue: parts.queues.ownWorks,
      hasOpenAlexKey: Boolean(config.ingest.openAlexApiKey),
      logger,
    }),
    profileEmbedding,
    recommendationStats: new RecommendationStatsService({ ai, logger }),
    articles: new ArticleService(new ArticleRepository(database.db), (userId) => learning.requestRelearn(userId), {
      now: options.clock,
      timeZone: config.timeZone,
    }),
    feedback: new FeedbackService({
      feedback: new FeedbackRepository(database.db),
      mailer: parts.mailer,
      feedbackTo: config.feedbackTo,
      supportEmail: config.supportEmail,
      logger,
      now: options.clock,
    }),
    paperRecommendations: new PaperRecommendationService({
      ai,
      papers: paperRepository,
      users: userRepository,
      pipeline,
      logger,
    }),
    newsRecommendations: new NewsRecommendationService({ pipeline }),
    newsSearch: new NewsSearchService({ ai, news: newsSearchRepository, logger, timeZone: config.timeZone }),
    keywords: new KeywordService({
      keywords: keywordRepository,
      linkTokens: new MailLinkTokens(parts.jwtSecret),
      logger,
    }),
    delivery: new DeliveryService({
      // Robot webhooks are sealed at rest under a key derived from the server secret (StoredSecrets).
      deliveries: new DeliveryRepository(database.db, new StoredSecrets(parts.jwtSecret)),
      users: userRepository,
      pipelineFor: pipelines,
      linkTokens: new MailLinkTokens(parts.jwtSecret),
      webBaseUrl: parts.webBaseUrl.current,
      webhookTestOrigin: config.webhookTestOrigin,
      logger,
      now: options.clock,
    }),
    learning,
    interests: new InterestService({
      interests: new InterestRepository(database.db),
      ai,
      logger,
      requestRelearn: (userId) => learning.requestRelearn(userId),
    }),
    followedAuthors: new FollowedAuthorService({ followedAuthors: followedAuthorRepository }),
    health: new HealthService({
      version: parts.version,
      databaseMode: database.mode,
      health: new HealthRepository(database.pool),
      probeQueue: parts.queues.probe,
      queueBackend: parts.queues.backend,
      workerInProcess: parts.workerInProcess,
      mailer: parts.mailer,
    }),
    publicConfig: publicConfigOf(config),
    userCache,
    rateLimitStore,
    quotaRefusalPause: options.quotaRefusalPause,
    loginLimiter,
    cookies,
    authRateLimits,
  };
}

/** The HTTP app over the given parts: its services, built here, then buildApp. */
export async function composeApp(parts: ServerParts, options: AppOptions = {}): Promise<FastifyInstance> {
  const services = createServices(parts, options);
  const app = await buildApp({
    config: parts.config,
    version: parts.version,
    logger: parts.logger,
    jwtSecret: parts.jwtSecret,
    webDistDir: options.webDistDir === undefined ? DEFAULT_WEB_DIST_DIR : options.webDistDir,
    httpTimeouts: options.httpTimeouts,
    services,
    metrics: parts.metrics,
  });
  // The limiters' store closes with the app, after its in-flight requests.
  app.addHook('onClose', () => services.rateLimitStore.close());
  app.addHook('onClose', () => services.userCache.close());
  // Chinese keywords followed before keywords were glossed get their English once, after the server
  // listens (alerts and reasons match it from then on); a failure is retried at the next start.
  app.addHook('onListen', async () => {
    void services.keywords.glossFollowedKeywords().then(
      (glossed) => glossed > 0 && parts.logger.info({ glossed }, 'glossed Chinese keywords followed before glossing'),
      (error: Error) =>
        parts.logger.warn({ err: error.message }, 'Chinese keywords not glossed; retried at the next start'),
    );
  });
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
