import { setTimeout as sleep } from 'node:timers/promises';
import type { UserQuotaName, UserQuotas } from '@radar/shared/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../errors';
import { secondsLeft } from './keyed-rate-limit';
import type { CounterHit, RateLimitStore } from './rate-limit-store';

type CountedQuota = 'requests' | UserQuotaName;

declare module 'fastify' {
  interface FastifyRequest {
    /** The in-flight slot this request holds on a costly route, released when it ends. */
    userQuotaSlot: string | undefined;
    /**
     * Whose budget a public costly route counts against, set by the route's onRequest hook (the Atom
     * feed: the reader its token names); signed-in requests count against their user.
     */
    quotaReader: string | undefined;
  }
  interface FastifyContextConfig {
    /** A costly route's own per-user budget, counted on top of the budget of every authenticated request. */
    userQuota?: UserQuotaName;
  }
}

/** Keys of the quota counters; per user id, so a user's budget follows the account over addresses. */
const quotaKey = (userId: string, quota: CountedQuota) => `quota:${quota}:${userId}`;

/**
 * How long a refusal from memory waits before it answers (at most the wait left). A client that honours
 * Retry-After never notices; a loop of clients hammering past its quota is slowed to a few requests a
 * second each, instead of costing the server thousands of cheap answers a minute. A waiting refusal holds
 * a socket and a timer, nothing else.
 */
const QUOTA_REFUSAL_PAUSE_MS = 500;

/** Refusals remembered in one process at most; beyond it the oldest are forgotten (they are only a shortcut). */
const MAX_REMEMBERED_REFUSALS = 10_000;

/**
 * Per-user quotas on every authenticated route: each signed-in request counts against the user's
 * overall budget (`requests`) and, on a costly route (`config: { userQuota }`), against that route's
 * budget too, both in one round trip to the shared store (Redis, or PostgreSQL without it), so every
 * server instance counts alike. Over either budget the answer is 429 with `Retry-After` and
 * `remaining_seconds` until the window that ran out ends.
 *
 * A budget found spent is remembered in this process until its window ends, and the user's further
 * requests against it are refused without a round trip: a client hammering past its quota then costs
 * the token check and nothing in the store every other request needs (the windows are fixed, so the
 * hits not counted meanwhile change nothing). Other instances learn it from their own first refusal.
 *
 * On a costly route a user also has at most `concurrentPerUser` requests running in this process at once;
 * another is refused at once (429, a 1 s wait). Without it, 20 parallel clients of one account spend
 * its minute's budget as one burst that queues every other user's queries behind 20 of its own.
 *
 * A route whose one call holds a core for a while (an export, the feed's build) has a lower cap of its
 * own (`UserQuota.concurrent`).
 *
 * A public route with a budget (the Atom feed, whose token is its credential) counts against the reader
 * its onRequest hook found (`request.quotaReader`), not against an address: rotating addresses gives no
 * second budget. It does not count against the overall `requests` budget, which is the signed-in user's.
 *
 * Counted in preValidation: after the route's onRequest guard has loaded the user, before the body or
 * query is validated, so invalid requests count too and a refused request costs no validation or work.
 */
export function registerUserQuotas(
  app: FastifyInstance,
  options: {
    store: RateLimitStore;
    quotas: UserQuotas;
    now?: () => number;
    /** Waits before a refusal from memory; tests record it instead. */
    pause?: ((ms: number) => Promise<unknown>) | undefined;
  },
) {
  const { store, quotas } = options;
  const pause = options.pause ?? sleep;
  const now = options.now ?? Date.now;
  /** `<user>:<route quota>` -> requests of that user running on such routes in this process. */
  const inFlight = new Map<string, number>();
  const release = (request: FastifyRequest) => {
    const slot = request.userQuotaSlot;
    if (!slot) return;
    request.userQuotaSlot = undefined;
    const left = (inFlight.get(slot) ?? 1) - 1;
    if (left > 0) inFlight.set(slot, left);
    else inFlight.delete(slot);
  };
  app.decorateRequest('userQuotaSlot', undefined);
  app.decorateRequest('quotaReader', undefined);
  app.addHook('onResponse', async (request) => release(request));
  app.addHook('onRequestAbort', async (request) => release(request));

  /** `quotaKey` -> when its spent window ends (ms since the epoch). */
  const spentUntil = new Map<string, number>();

  const remember = (key: string, untilMs: number) => {
    if (spentUntil.size >= MAX_REMEMBERED_REFUSALS) {
      for (const [oldKey, until] of spentUntil) if (until <= now()) spentUntil.delete(oldKey);
      if (spentUntil.size >= MAX_REMEMBERED_REFUSALS) spentUntil.clear();
    }
    spentUntil.set(key, untilMs);
  };

  app.addHook('preValidation', async (request: FastifyRequest) => {
    const routeQuota = request.routeOptions.config.userQuota;
    const signedIn = request.currentUser?.id;
    const readerId = signedIn ?? (routeQuota ? request.quotaReader : undefined);
    if (!readerId) return;
    const names: CountedQuota[] = [];
    if (signedIn && quotas.requests.max > 0) names.push('requests');
    if (routeQuota && quotas[routeQuota].max > 0) names.push(routeQuota);
    const keys = names.map((name) => quotaKey(readerId, name));

    let knownWaitMs = 0;
    for (const key of keys) {
      const until = spentUntil.get(key);
      if (until === undefined) continue;
      if (until > now()) knownWaitMs = Math.max(knownWaitMs, until - now());
      else spentUntil.delete(key);
    }
    if (knownWaitMs > 0) {
      await pause(Math.min(knownWaitMs, QUOTA_REFUSAL_PAUSE_MS));
      throw errors.rateLimited(secondsLeft(knownWaitMs - Math.min(knownWaitMs, QUOTA_REFUSAL_PAUSE_MS)));
    }

    const hits: CounterHit[] = names.map((name, i) => ({ key: keys[i] as string, windowMs: quotas[name].windowMs }));
    const counts = hits.length > 0 ? await store.incrementMany(hits) : [];
    // The longest wait among the budgets that ran out: before it ends, a retry would be refused again.
    let waitMs = 0;
    names.forEach((name, i) => {
      const count = counts[i];
      if (!count || count.hits <= quotas[name].max) return;
      waitMs = Math.max(waitMs, count.ttlMs);
      remember(keys[i] as string, now() + count.ttlMs);
    });
    if (waitMs > 0) throw errors.rateLimited(secondsLeft(waitMs));

    const cap = routeQuota ? concurrencyCap(quotas, routeQuota) : 0;
    if (routeQuota && cap > 0) {
      const slot = `${readerId}:${routeQuota}`;
      const running = inFlight.get(slot) ?? 0;
      if (running >= cap) throw errors.rateLimited(1);
      inFlight.set(slot, running + 1);
      request.userQuotaSlot = slot;
    }
  });
}

/** How many requests of one reader may run at once on the route in a process; 0 = no cap. */
function concurrencyCap(quotas: UserQuotas, name: UserQuotaName): number {
  const own = quotas[name].concurrent;
  if (quotas.concurrentPerUser <= 0) return 0;
  return own === undefined ? quotas.concurrentPerUser : Math.min(own, quotas.concurrentPerUser);
}
