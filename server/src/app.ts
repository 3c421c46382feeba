import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { AppMetrics } from '@radar/metrics';
import { API_PATHS, type ApiError, DEFAULT_ERROR_MESSAGES } from '@radar/shared';
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
import type { BuiltFeature, SharedServices } from './feature';
import { registerCloseAfterAnswer } from './http-shutdown';
import { type HttpTimeouts, httpServerOptions } from './http-timeouts';
import { authPlugin } from './plugins/auth';
import { registerErrorHandler } from './plugins/error-handler';
import { fastifyRateLimitStore } from './plugins/rate-limit-store';
import { registerRequestIdHeader, requestIdOf } from './plugins/request-id';
import { registerRequestMetrics } from './plugins/request-metrics';
import { registerRouteCatalog } from './plugins/route-catalog';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerUserQuotas } from './plugins/user-quotas';
import { isApiPath, registerWebApp } from './plugins/web-app';

/** What the app's own plugins use (the auth guard, rate limits, quotas), built by the composition root (runtime.ts). */
export type AppPluginServices = Pick<SharedServices, 'userCache' | 'sessions' | 'rateLimitStore'> & {
  /** Waits before a quota refusal answered from memory; a timer when left out. */
  quotaRefusalPause?: ((ms: number) => Promise<unknown>) | undefined;
};

export interface AppDeps {
  config: Pick<AppConfig, 'jwtExpiresInMs' | 'trustProxy' | 'operatorToken' | 'llm' | 'userQuotas'>;
  version: string;
  logger: Logger;
  jwtSecret: string;
  /** The built web app; not served when undefined, empty or not built. */
  webDistDir: string | undefined;
  /** Tests shorten the HTTP timeouts; production uses DEFAULT_HTTP_TIMEOUTS. */
  httpTimeouts?: Partial<HttpTimeouts> | undefined;
  services: AppPluginServices;
  /** The features (FEATURES, built by runtime.ts): their routes are registered in this order. */
  features: readonly BuiltFeature[];
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
 * Builds the HTTP app from built services: framework plugins, then ours, then the features' routes, then the
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

  // Feature routes (src/features/<feature>/index.ts lists each feature's route plugins).
  for (const feature of deps.features) {
    for (const registerRoute of feature.routes) await registerRoute(app);
  }

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
