import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { AppMetrics } from '@radar/metrics';
import { API_PATHS, type ApiError, DEFAULT_ERROR_MESSAGES, type PublicConfigResponse } from '@radar/shared';
import type { AppConfig } from '@radar/shared/server';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { answerClientError } from './client-errors';
import { errors } from './errors';
import { accountRoutes } from './features/accounts/account.route';
import type { AuthRateLimits } from './features/accounts/account-rate-limits';
import type { AuthService } from './features/accounts/auth.service';
import type { EmailChangeService } from './features/accounts/email-change.service';
import type { AccountSelfService } from './features/accounts/self-service.service';
import { sessionRoutes } from './features/accounts/session.route';
import type { SessionService } from './features/accounts/session.service';
import { userRoutes } from './features/accounts/user.route';
import type { UserService } from './features/accounts/user.service';
import { articleRoutes } from './features/articles/article.route';
import type { ArticleService } from './features/articles/article.service';
import { deliveryRoutes } from './features/delivery/delivery.route';
import type { DeliveryService } from './features/delivery/delivery.service';
import { deliveryPublicRoutes } from './features/delivery/delivery-public.route';
import { contactRoutes } from './features/feedback/contact.route';
import { feedbackRoutes } from './features/feedback/feedback.route';
import type { FeedbackService } from './features/feedback/feedback.service';
import { followedAuthorRoutes } from './features/followed-authors/followed-author.route';
import type { FollowedAuthorService } from './features/followed-authors/followed-author.service';
import { interestRoutes } from './features/interests/interest.route';
import type { InterestService } from './features/interests/interest.service';
import { keywordRoutes } from './features/keywords/keyword.route';
import type { KeywordService } from './features/keywords/keyword.service';
import { keywordUnsubscribeRoutes } from './features/keywords/keyword-unsubscribe.route';
import { learningRoutes } from './features/learning/learning.route';
import type { LearningService } from './features/learning/learning.service';
import { newsRecommendationRoutes } from './features/news-recommendations/news-recommendation.route';
import type { NewsRecommendationService } from './features/news-recommendations/news-recommendation.service';
import { newsSearchRoutes } from './features/news-search/news-search.route';
import type { NewsSearchService } from './features/news-search/news-search.service';
import { paperRecommendationRoutes } from './features/recommendations/paper-recommendation.route';
import type { PaperRecommendationService } from './features/recommendations/paper-recommendation.service';
import { recommendationStatsRoutes } from './features/recommendations/recommendation-stats.route';
import type { RecommendationStatsService } from './features/recommendations/recommendation-stats.service';
import { ownWorksRoutes } from './features/research-profile/own-works.route';
import type { OwnWorksService } from './features/research-profile/own-works.service';
import type { ProfileEmbeddingService } from './features/research-profile/profile-embedding.service';
import { researchProfileRoutes } from './features/research-profile/research-profile.route';
import type { ResearchProfileService } from './features/research-profile/research-profile.service';
import { vectorRoutes } from './features/research-profile/vector.route';
import { healthRoutes } from './features/system/health.route';
import type { HealthService } from './features/system/health.service';
import { publicConfigRoutes } from './features/system/public-config.route';
import { registerCloseAfterAnswer } from './http-shutdown';
import { type HttpTimeouts, httpServerOptions } from './http-timeouts';
import { authPlugin } from './plugins/auth';
import { registerErrorHandler } from './plugins/error-handler';
import type { LoginLimiter } from './plugins/login-limiter';
import { fastifyRateLimitStore, type RateLimitStore } from './plugins/rate-limit-store';
import { registerRequestIdHeader, requestIdOf } from './plugins/request-id';
import { registerRequestMetrics } from './plugins/request-metrics';
import { registerRouteCatalog } from './plugins/route-catalog';
import { registerSecurityHeaders } from './plugins/security-headers';
import type { CachedAccount, UserCache } from './plugins/user-cache';
import { registerUserQuotas } from './plugins/user-quotas';
import { isApiPath, registerWebApp } from './plugins/web-app';
import type { SignedCookies } from './security/signed-cookies';

/** The services the routes call and the state of our plugins, built once by the composition root (runtime.ts). */
export interface AppServices {
  auth: AuthService;
  /** Logins as sessions: recorded, listed on /my, ended. */
  sessions: SessionService;
  users: UserService;
  /** Data download and account deletion by the signed-in user. */
  selfService: AccountSelfService;
  /** Moving the account to another address, confirmed by a code mailed there. */
  emailChange: EmailChangeService;
  research: ResearchProfileService;
  /** Seeding the profile from the reader's own works (ORCID, OpenAlex, a library file). */
  ownWorks: OwnWorksService;
  profileEmbedding: ProfileEmbeddingService;
  recommendationStats: RecommendationStatsService;
  articles: ArticleService;
  feedback: FeedbackService;
  paperRecommendations: PaperRecommendationService;
  newsRecommendations: NewsRecommendationService;
  newsSearch: NewsSearchService;
  keywords: KeywordService;
  /** Digest mail settings, the personal Atom feed, robot webhooks. */
  delivery: DeliveryService;
  learning: LearningService;
  /** Not in the spec: the reader's research interests besides the summary. */
  interests: InterestService;
  /** Not in the spec: the authors the reader follows. */
  followedAuthors: FollowedAuthorService;
  health: HealthService;
  /** GET /api/config/'s answer: the public settings, fixed for the process's life. */
  publicConfig: PublicConfigResponse;
  /** The auth guard loads the signed-in user and their sessions with it. */
  userCache: UserCache<CachedAccount>;
  /** The counters behind every rate limit. */
  rateLimitStore: RateLimitStore;
  /** Waits before a quota refusal answered from memory; a timer when left out. */
  quotaRefusalPause?: ((ms: number) => Promise<unknown>) | undefined;
  loginLimiter: LoginLimiter;
  authRateLimits: AuthRateLimits;
  /** Signs the cookies the server reads back (the login device cookie, a browser's verification codes). */
  cookies: SignedCookies;
}

export interface AppDeps {
  config: Pick<AppConfig, 'jwtExpiresInMs' | 'trustProxy' | 'operatorToken' | 'llm' | 'userQuotas'>;
  version: string;
  logger: Logger;
  jwtSecret: string;
  /** The built web app; not served when undefined, empty or not built. */
  webDistDir: string | undefined;
  /** Tests shorten the HTTP timeouts; production uses DEFAULT_HTTP_TIMEOUTS. */
  httpTimeouts?: Partial<HttpTimeouts> | undefined;
  services: AppServices;
  /** The process's metrics; requests are not recorded when left out. */
  metrics?: AppMetrics | undefined;
}

/**
 * A hop count becomes "trust the n nearest proxies" (Fastify's typings only take it as a function); a
 * list of addresses trusts those. Either way the client is the nearest untrusted address, never the
 * first X-Forwarded-For entry (what a client sends in).
 */
const toFastifyTrustProxy = (value: AppConfig['trustProxy']) =>
  typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;

/** Request bodies are small JSON documents; anything larger is refused before parsing. */
const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Builds the HTTP app from built services: framework plugins, then ours, then the feature routes, then the
 * web app. It constructs no service (runtime.ts does) and never listens (main.ts does), so tests drive it
 * with app.inject() against a real database.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, services } = deps;
  const app = Fastify({
    // As Fastify's own logger type, so plugins typed for the default instance accept this one.
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: requestIdOf,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: toFastifyTrustProxy(config.trustProxy),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // The slowest handler is the synchronous research analysis, bounded by LLM_TIMEOUT_MS.
    ...httpServerOptions(deps.httpTimeouts, config.llm.timeoutMs),
    // 431, 408 and unparsable requests, refused before any route: the API's error shape, then closed.
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();
  // First: the catalog only sees routes added after it, and every error, a plugin's too, gets our shape.
  registerRouteCatalog(app);
  registerRequestIdHeader(app);
  registerCloseAfterAnswer(app);
  if (deps.metrics) registerRequestMetrics(app, deps.metrics);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  // Framework plugins: Helmet (our policy), rate limits (our store), OpenAPI docs.
  await registerSecurityHeaders(app);
  app.decorate('rateLimitStore', services.rateLimitStore);
  await app.register(rateLimit, {
    global: false,
    store: fastifyRateLimitStore(services.rateLimitStore),
    skipOnError: false,
    // Thrown by the plugin, then shaped by our error handler like every other error.
    errorResponseBuilder: (_request, context) => errors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Research Radar API', description: '科研雷达 HTTP API', version: deps.version },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: API_PATHS.apiDocs });

  // Ours: the bearer-token guard (app.authenticate) and session starter (app.signIn).
  await app.register(authPlugin, {
    secret: deps.jwtSecret,
    expiresInMs: config.jwtExpiresInMs,
    users: services.userCache,
    sessions: services.sessions,
  });
  // Before the routes: every authenticated route counts against its user's quotas (plugins/user-quotas.ts).
  registerUserQuotas(app, {
    store: services.rateLimitStore,
    quotas: config.userQuotas,
    pause: services.quotaRefusalPause,
  });

  // Feature routes (src/features/<feature>/*.route.ts).
  await app.register(healthRoutes, { health: services.health, operatorToken: config.operatorToken });
  await app.register(publicConfigRoutes, { publicConfig: services.publicConfig });
  await app.register(accountRoutes, {
    auth: services.auth,
    limits: services.authRateLimits,
    loginLimiter: services.loginLimiter,
    cookies: services.cookies,
  });
  await app.register(userRoutes, {
    userService: services.users,
    selfService: services.selfService,
    emailChange: services.emailChange,
    limits: services.authRateLimits,
  });
  await app.register(sessionRoutes, { sessions: services.sessions, auth: services.auth });
  await app.register(researchProfileRoutes, { research: services.research });
  await app.register(ownWorksRoutes, { ownWorks: services.ownWorks });
  await app.register(vectorRoutes, { profileEmbedding: services.profileEmbedding });
  await app.register(recommendationStatsRoutes, { recommendationStats: services.recommendationStats });
  await app.register(articleRoutes, { articles: services.articles });
  await app.register(feedbackRoutes, { feedback: services.feedback });
  await app.register(contactRoutes, { feedback: services.feedback });
  await app.register(paperRecommendationRoutes, { paperRecommendations: services.paperRecommendations });
  await app.register(newsRecommendationRoutes, { newsRecommendations: services.newsRecommendations });
  await app.register(newsSearchRoutes, { newsSearch: services.newsSearch });
  await app.register(keywordRoutes, { keywords: services.keywords });
  await app.register(learningRoutes, { learning: services.learning });
  await app.register(interestRoutes, { interests: services.interests });
  await app.register(followedAuthorRoutes, { followedAuthors: services.followedAuthors });
  await app.register(keywordUnsubscribeRoutes, { keywords: services.keywords });
  await app.register(deliveryRoutes, { delivery: services.delivery });
  await app.register(deliveryPublicRoutes, { delivery: services.delivery });

  const hasWebApp = deps.webDistDir ? await registerWebApp(app, deps.webDistDir) : false;

  // Unknown API paths (and other methods) get a JSON 404; the web app answers every other GET itself,
  // without a limit (web-app.ts). Rate limited so scanning for paths stays cheap.
  app.setNotFoundHandler({ preHandler: app.rateLimit({ max: 120, timeWindow: '1 minute' }) }, (request, reply) => {
    if (!isApiPath(request.url) && request.method === 'GET' && !hasWebApp) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app has not been built. Run `pnpm start` (it builds it) or `pnpm build`.');
    }
    const body: ApiError = { code: 'NOT_FOUND', message: DEFAULT_ERROR_MESSAGES.NOT_FOUND };
    return reply.status(404).send(body);
  });

  return app;
}
