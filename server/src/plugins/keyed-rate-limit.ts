import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../errors';

/**
 * A preHandler that limits requests per key (an account, an address) on top of a route's per-IP limit.
 * @fastify/rate-limit runs only one of its own hooks per request, so this checks through
 * createRateLimit and answers like every other 429 (`remaining_seconds`).
 */
export function keyedRateLimit(
  app: FastifyInstance,
  limit: { max: number; timeWindow: string },
  keyGenerator: (request: FastifyRequest) => string,
) {
  const check = app.createRateLimit({ ...limit, keyGenerator });
  return async (request: FastifyRequest) => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) throw errors.rateLimited(Math.max(1, result.ttlInSeconds));
  };
}
