import { apiErrorSchema } from '@radar/shared';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';

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
