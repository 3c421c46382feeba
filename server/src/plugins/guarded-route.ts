import { apiErrorSchema } from '@radar/shared';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  HTTPMethods,
  RouteOptions,
} from 'fastify';
import type { z } from 'zod';
import { requireUser } from './auth';
import { keyedRateLimit, type RateLimit } from './keyed-rate-limit';

type PreHandler = (request: FastifyRequest) => Promise<void>;

/** What a guarded route adds to the token check: a per-reader limit, a quota or rate limit, a larger body. */
interface GuardedOptions {
  preHandler?: PreHandler | PreHandler[];
  config?: FastifyContextConfig;
  bodyLimit?: number;
}

/**
 * The route options of a feature's signed-in calls. The token is checked in onRequest, before the
 * body is read and validated, so a caller without a valid token learns nothing about the body; the
 * OpenAPI document gets the feature's tag, the bearer scheme and the 401 every such call can answer.
 */
export function guardedRoutes(app: FastifyInstance, tag: string) {
  return <S extends FastifySchema & { response: object }>(schema: S, options: GuardedOptions = {}) => ({
    ...options,
    onRequest: app.authenticate,
    schema: {
      ...schema,
      tags: [tag],
      security: [{ bearerAuth: [] }],
      response: { ...schema.response, 401: apiErrorSchema },
    },
  });
}

/** A per-reader budget: `key` names the counter, so the calls naming the same key spend one budget. */
export interface ReaderLimit extends RateLimit {
  key: string;
}

/** The failures a guarded call declares besides 401; each answers the API's one error shape. */
type ErrorStatus = 400 | 403 | 404 | 409 | 413 | 502 | 503 | 504;

type Schema = z.ZodType | undefined;
type Parsed<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;
type Answers = Partial<Record<200 | 201 | 202, z.ZodType>>;

/** What a guarded call's handler is given: the signed-in reader and the validated input. */
export interface GuardedCall<B extends Schema, P extends Schema, Q extends Schema> {
  user: ReturnType<typeof requireUser>;
  body: Parsed<B>;
  params: Parsed<P>;
  query: Parsed<Q>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * One signed-in call as data. `answers` are its success statuses and their schemas: with one status the
 * call answers it; with more the handler sets the status on `reply`. `errors` are the failures it
 * declares; a route with a `limit` or a per-user quota (`config.userQuota`) also declares 429.
 */
export interface GuardedRouteSpec<B extends Schema, P extends Schema, Q extends Schema, A extends Answers> {
  summary: string;
  body?: B;
  params?: P;
  query?: Q;
  answers: A;
  errors?: readonly ErrorStatus[];
  /** Counted per reader before the handler runs, on top of the route's per-address limit. */
  limit?: ReaderLimit;
  config?: FastifyContextConfig;
  bodyLimit?: number;
  /** The one service call; a handler that sends the reply itself (a file) returns the reply. */
  handle: (call: GuardedCall<B, P, Q>) => Promise<z.input<NonNullable<A[keyof A]>> | FastifyReply>;
}

/** Leaves out the keys a spec did not set, so the route options say only what the route has. */
const definedOnly = <T extends object>(values: T): Partial<T> =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;

type Register = <
  A extends Answers,
  B extends Schema = undefined,
  P extends Schema = undefined,
  Q extends Schema = undefined,
>(
  url: string,
  spec: GuardedRouteSpec<B, P, Q, A>,
) => void;

/**
 * A feature's signed-in calls declared as data, one entry a route (`routes.get(url, spec)`): the guard,
 * the tag, the error statuses, the reader's limit, the success status and the reader's lookup are this
 * helper's once, so a route file holds only what differs: path, summary, schemas and the service call.
 */
export function guardedRouteTable(
  app: FastifyInstance,
  tag: string,
): Record<'get' | 'post' | 'put' | 'patch' | 'delete', Register> {
  const guarded = guardedRoutes(app, tag);
  const register =
    (method: HTTPMethods): Register =>
    (url, spec) => {
      const errors: number[] = [...(spec.errors ?? [])];
      if (spec.limit || spec.config?.userQuota) errors.push(429);
      const response = { ...spec.answers, ...Object.fromEntries(errors.map((status) => [status, apiErrorSchema])) };
      const { limit } = spec;
      const options: GuardedOptions = definedOnly({
        preHandler:
          limit && keyedRateLimit(app, limit, (request) => `${limit.key}:${request.currentUser?.id ?? request.ip}`),
        config: spec.config,
        bodyLimit: spec.bodyLimit,
      });
      const schema = definedOnly({ body: spec.body, params: spec.params, querystring: spec.query });
      const statuses = Object.keys(spec.answers);
      const status = statuses.length === 1 ? Number(statuses[0]) : undefined;
      app.route({
        method,
        url,
        ...guarded({ summary: spec.summary, ...schema, response }, options),
        // The spec typed the input and the answer; the route itself sees them as the framework's unknowns.
        handler: async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
          const answer = await spec.handle({
            user: requireUser(request),
            body: request.body as never,
            params: request.params as never,
            query: request.query as never,
            request,
            reply,
          });
          if (status !== undefined && !reply.sent) reply.status(status);
          return answer;
        },
      } as RouteOptions);
    };
  return {
    get: register('GET'),
    post: register('POST'),
    put: register('PUT'),
    patch: register('PATCH'),
    delete: register('DELETE'),
  };
}
