import type { Server } from 'node:http';
import type {
  ArticleRepository,
  AsyncTaskRepository,
  AuthRecordRepository,
  DeliveryRepository,
  EmailChangeRepository,
  FeedbackRepository,
  FollowedAuthorRepository,
  HealthRepository,
  InterestRepository,
  KeywordRepository,
  NewsSearchRepository,
  PaperRepository,
  UserAdminRepository,
  UserRepository,
} from '@radar/db';
import type { RecommendationPipeline } from '@radar/recommend';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyPluginOptions,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
} from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthRateLimits } from './features/accounts/account-rate-limits';
import type { SessionService } from './features/accounts/session.service';
import type { LearningService } from './features/learning/learning.service';
import type { ProfileEmbeddingService } from './features/research-profile/profile-embedding.service';
import type { AfterAnswer } from './mail/after-answer';
import type { LoginLimiter } from './plugins/login-limiter';
import type { RateLimitStore } from './plugins/rate-limit-store';
import type { CachedAccount, UserCache } from './plugins/user-cache';
import type { PasswordHasher } from './security/password-hasher';
import type { SignedCookies } from './security/signed-cookies';
import type { AppOptions, ServerParts } from './server-parts';
import type { SourceActivationRequests } from './services/source-activation';

/*
 * How a feature (src/features/<name>/index.ts) declares its wiring: the repositories it needs, its
 * services built from them, and its route plugins. The composition root (runtime.ts) builds the shared
 * parts once, then every feature in FEATURES (feature-list.ts); buildApp registers their routes. A feature
 * never builds a repository (the root does, once per app) and never imports another feature: what two
 * features use is a shared service here.
 */

/** Every repository the features use, built once per app by the composition root (runtime.ts). */
export interface ServerRepositories {
  users: UserRepository;
  authRecords: AuthRecordRepository;
  emailChanges: EmailChangeRepository;
  userAdmin: UserAdminRepository;
  tasks: AsyncTaskRepository;
  articles: ArticleRepository;
  feedback: FeedbackRepository;
  keywords: KeywordRepository;
  deliveries: DeliveryRepository;
  interests: InterestRepository;
  followedAuthors: FollowedAuthorRepository;
  papers: PaperRepository;
  news: NewsSearchRepository;
  health: HealthRepository;
}

/**
 * Services more than one feature (or the app's own plugins) use, built once per app before the features:
 * the account cache and sessions behind the auth guard, the rate-limit counters, the ranking pipeline.
 */
export interface SharedServices {
  /** The auth guard loads the signed-in user and their sessions with it. */
  userCache: UserCache<CachedAccount>;
  /** Logins as sessions: recorded by app.signIn, listed on /my, ended. */
  sessions: SessionService;
  /** The counters behind every rate limit. */
  rateLimitStore: RateLimitStore;
  authRateLimits: AuthRateLimits;
  loginLimiter: LoginLimiter;
  /** Signs the cookies the server reads back (the login device cookie, a browser's verification codes). */
  cookies: SignedCookies;
  hasher: PasswordHasher;
  /** The profile vector: the accounts feature re-embeds on a profile change, research-profile on confirm. */
  profileEmbedding: ProfileEmbeddingService;
  /** The learned profile: articles, interests and the ranking ask it to relearn. */
  learning: LearningService;
  /** A saved profile naming fields asks the worker for the sources sync. */
  sourceRequests: SourceActivationRequests;
  /** The ranking pipeline per readers' time zone, built once (createRecommendationPipelines). */
  pipelines: (timeZone: string) => RecommendationPipeline;
  /** The pipeline of the server's TIME_ZONE. */
  pipeline: RecommendationPipeline;
  /** Mail sent after the answer (accounts, feedback); the app waits for it when it closes. */
  afterAnswer: AfterAnswer;
}

/** What a feature's services are built from; `repositories` holds only the ones it declared. */
export interface FeatureDeps<R extends keyof ServerRepositories> {
  parts: ServerParts;
  options: AppOptions;
  shared: SharedServices;
  repositories: Pick<ServerRepositories, R>;
}

/** The app buildApp registers feature routes on (zod schemas). */
export type FeatureApp = FastifyInstance<
  Server,
  RawRequestDefaultExpression<Server>,
  RawReplyDefaultExpression<Server>,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** One route plugin with its options, registered by buildApp. */
export type FeatureRoute = (app: FeatureApp) => Promise<unknown>;

/** A route plugin and its options, type-checked together. */
export function route<O extends FastifyPluginOptions>(plugin: FastifyPluginAsyncZod<O>, options: O): FeatureRoute {
  return async (app) => app.register(plugin, options);
}

interface FeatureDefinition<S, R extends keyof ServerRepositories> {
  /** The repositories its services take (built by the root; the feature gets only these). */
  repositories: readonly R[];
  services: (deps: FeatureDeps<R>) => S;
  /** Its route plugins, in the order they are registered. */
  routes: (services: S, deps: FeatureDeps<R>) => FeatureRoute[];
  /** Work once the server listens (never delays the first answer); failures are the feature's to log. */
  onListen?: (services: S, deps: FeatureDeps<R>) => Promise<void>;
}

/** A feature once its services are built: what buildApp registers. */
export interface BuiltFeature {
  routes: FeatureRoute[];
  onListen?: (() => Promise<void>) | undefined;
}

export interface Feature {
  build(deps: FeatureDeps<keyof ServerRepositories>): BuiltFeature;
}

/** A feature module's one export: `export const xFeature = defineFeature({ repositories, services, routes })`. */
export function defineFeature<S, R extends keyof ServerRepositories = never>(
  definition: FeatureDefinition<S, R>,
): Feature {
  return {
    build(deps) {
      const repositories = Object.fromEntries(definition.repositories.map((name) => [name, deps.repositories[name]]));
      const scoped: FeatureDeps<R> = { ...deps, repositories: repositories as Pick<ServerRepositories, R> };
      const services = definition.services(scoped);
      const { onListen } = definition;
      return {
        routes: definition.routes(services, scoped),
        onListen: onListen && (() => onListen(services, scoped)),
      };
    },
  };
}
