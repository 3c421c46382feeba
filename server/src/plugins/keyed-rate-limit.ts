import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../errors';
import type { RateLimitStore } from './rate-limit-store';

declare module 'fastify' {
  interface FastifyInstance {
    /** The counters every limiter uses (see rate-limit-store.ts). */
    rateLimitStore: RateLimitStore;
  }
}

export interface RateLimit {
  max: number;
  /** As @fastify/rate-limit writes it: '1 minute', '15 minutes', '1 hour'. */
  timeWindow: string;
}

const UNIT_MS: Record<string, number> = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** '15 minutes' -> 900000. Limits are constants in code, so a typo fails at start-up. */
export function windowMs(timeWindow: string): number {
  const match = /^(\d+)\s*(second|minute|hour|day)s?$/.exec(timeWindow.trim());
  const unit = match?.[2] ? UNIT_MS[match[2]] : undefined;
  if (!match || !unit) throw new Error(`unsupported rate-limit window: ${timeWindow}`);
  return Number(match[1]) * unit;
}

export const secondsLeft = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs / 1000));

/**
 * The client a per-address limit counts: an IPv4 address as it is, an IPv6 address by its /64 (one
 * subscriber is usually given a whole /64, so counting full addresses would let one host rotate through
 * 2^64 keys). The same key @fastify/rate-limit's per-route limits (`config.rateLimit`) use, so every
 * per-address budget of the API counts one client alike.
 */
export const clientAddressKey = (request: FastifyRequest): string => normalizeIP(request.ip);

/**
 * A preHandler that limits requests per key (an account, a user) on top of a route's per-IP limit,
 * counting in the shared store and answering like every other 429 (`remaining_seconds`).
 */
export function keyedRateLimit(
  app: FastifyInstance,
  limit: RateLimit,
  keyGenerator: (request: FastifyRequest) => string,
) {
  const window = windowMs(limit.timeWindow);
  return async (request: FastifyRequest) => {
    const { hits, ttlMs } = await app.rateLimitStore.increment(keyGenerator(request), window);
    if (hits > limit.max) throw errors.rateLimited(secondsLeft(ttlMs));
  };
}

/**
 * The per-user budget of small writes on a paper or news item (favourite, save, share, read, 'not
 * interested'), shared by the features that take them (articles, learning): every route that declares it
 * counts against the same key.
 */
export const ARTICLE_ACTION_LIMIT = { key: 'article-action', max: 300, timeWindow: '1 minute' };

/** ARTICLE_ACTION_LIMIT as a preHandler, for the routes not declared through guardedRouteTable. */
export const articleActionLimit = (app: FastifyInstance) =>
  keyedRateLimit(app, ARTICLE_ACTION_LIMIT, (request) => `${ARTICLE_ACTION_LIMIT.key}:${request.currentUser?.id}`);
