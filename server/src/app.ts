import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { AuthRecordRepository, type DatabaseHandle, UserRepository } from '@radar/db';
import { type ApiError, DEFAULT_ERROR_MESSAGES } from '@radar/shared';
import type { AppConfig } from '@radar/shared/server';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { errors } from './errors';
import { type HttpTimeouts, httpServerOptions } from './http-timeouts';
import type { Mailer } from './mail/mailer';
import { authPlugin } from './plugins/auth';
import { registerErrorHandler } from './plugins/error-handler';
import { LoginLimiter } from './plugins/login-limiter';
import { createRateLimitStore, fastifyRateLimitStore } from './plugins/rate-limit-store';
import { registerRouteCatalog } from './plugins/route-catalog';
import { registerSecurityHeaders } from './plugins/security-headers';
import { isApiPath, registerWebApp } from './plugins/web-app';
import { type AuthRateLimits, accountRoutes, DEFAULT_AUTH_RATE_LIMITS } from './routes/auth/account.route';
import { type ResearchDeps, registerResearchRoutes } from './routes/auth/research-direction.plugin';
import { userRoutes } from './routes/auth/user.route';
import { healthRoutes } from './routes/health.route';
import { PasswordHasher } from './security/password-hasher';
import { SecretCodes } from './security/secret-codes';
import { AuthService } from './services/auth.service';
import type { HealthService } from './services/health.service';
import { UserService } from './services/user.service';

export interface AppDeps {
  config: Pick<AppConfig, 'jwtExpiresIn' | 'trustProxy' | 'webBaseUrl'> & Partial<Pick<AppConfig, 'operatorToken'>>;
  version: string;
  logger: Logger;
  database: DatabaseHandle;
  health: HealthService;
  jwtSecret: string;
  /** Rate-limit counters in Redis, shared by every instance; in PostgreSQL (`database`) when undefined. */
  rateLimitRedis: Redis | undefined;
  /** Key prefix of the counters in Redis. */
  rateLimitNamespace?: string;
  /** The built web app; not served when undefined or not built. */
  webDistDir: string | undefined;
  mailer: Mailer;
  /** Tests relax or tighten the limits; production uses the defaults. */
  authRateLimits?: Partial<AuthRateLimits>;
  /** Waits before a failed login's answer (login-limiter.ts); tests record the delay instead. */
  loginFailureDelay?: (ms: number) => Promise<unknown>;
  /** Tests shorten the HTTP timeouts; production uses DEFAULT_HTTP_TIMEOUTS. */
  httpTimeouts?: Partial<HttpTimeouts>;
  /** The clock of expiry rules; tests move it. */
  clock?: () => Date;
  /** AI providers and producers for the research-profile endpoints; those routes are absent without them. */
  research?: ResearchDeps;
}

/** A hop count becomes "trust the n nearest proxies" (Fastify's typings only take it as a function). */
const toFastifyTrustProxy = (value: AppConfig['trustProxy']) =>
  typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;

/** Request bodies are small JSON documents; anything larger is refused before parsing. */
const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Builds the HTTP app: framework plugins, then ours, then routes. Listening is main.ts's job, so tests
 * drive this with app.inject() against a real database.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // As Fastify's own logger type, so plugins typed for the default instance accept this one.
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: toFastifyTrustProxy(deps.config.trustProxy),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    ...httpServerOptions(deps.httpTimeouts, deps.research?.syncTimeoutMs ?? 0),
  }).withTypeProvider<ZodTypeProvider>();
  registerRouteCatalog(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  await registerSecurityHeaders(app);

  // Every limiter counts in one store outside the process (Redis or PostgreSQL), so limits survive
  // restarts and hold across instances; an unreachable store refuses limited requests (503).
  const rateLimitStore = createRateLimitStore({
    redis: deps.rateLimitRedis,
    namespace: deps.rateLimitNamespace ?? 'radar:rate-limit:',
    database: deps.database,
    logger: deps.logger,
  });
  app.decorate('rateLimitStore', rateLimitStore);
  app.addHook('onClose', () => rateLimitStore.close());
  await app.register(rateLimit, {
    global: false,
    store: fastifyRateLimitStore(rateLimitStore),
    skipOnError: false,
    // Thrown by the plugin, then shaped by our error handler like every other error.
    errorResponseBuilder: (_request, context) => errors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  const authRateLimits: AuthRateLimits = { ...DEFAULT_AUTH_RATE_LIMITS, ...deps.authRateLimits };
  const loginLimiter = new LoginLimiter(rateLimitStore, authRateLimits, deps.loginFailureDelay);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Research Radar API', description: '科研雷达 HTTP API', version: deps.version },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  const users = new UserRepository(deps.database.db);
  await app.register(authPlugin, { secret: deps.jwtSecret, expiresIn: deps.config.jwtExpiresIn, users });

  const authService = new AuthService({
    users,
    authRecords: new AuthRecordRepository(deps.database.db),
    hasher: new PasswordHasher(),
    codes: new SecretCodes(deps.jwtSecret),
    mailer: deps.mailer,
    signToken: (user) => app.jwt.sign({ sub: user.id, ver: user.tokenVersion }),
    webBaseUrl: deps.config.webBaseUrl,
    logger: deps.logger,
    now: deps.clock,
    loginLimiter,
  });

  await app.register(healthRoutes, { health: deps.health, operatorToken: deps.config.operatorToken });
  await app.register(accountRoutes, { auth: authService, limits: authRateLimits, loginLimiter });
  await app.register(userRoutes, { userService: new UserService(users) });
  if (deps.research)
    await registerResearchRoutes(app, { ...deps.research, database: deps.database, logger: deps.logger });

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
