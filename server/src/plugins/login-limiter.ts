import { setTimeout as sleep } from 'node:timers/promises';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors } from '../errors';
import { emailFingerprint } from '../security/secret-codes';
import { type RateLimit, secondsLeft, windowMs } from './keyed-rate-limit';
import type { RateLimitStore } from './rate-limit-store';

export interface LoginLimits {
  /**
   * Attempts on one account from one client address since its last successful login there; beyond
   * `max` that client (only) gets 429 until the window ends.
   */
  loginPerAccountAndClient: RateLimit;
  /**
   * Failed logins on one account from every address in `timeWindow`: after `freeFailures`, each failed
   * answer waits `firstDelayMs`, doubling up to `maxDelayMs`. Slowed, never refused, so nobody can
   * lock the owner out.
   */
  loginFailureDelay: { freeFailures: number; firstDelayMs: number; maxDelayMs: number; timeWindow: string };
}

/** How long the answer to the account's `failures`-th failure in the window waits. */
export function loginFailureDelayMs(limits: LoginLimits['loginFailureDelay'], failures: number): number {
  const over = failures - limits.freeFailures;
  if (over <= 0) return 0;
  return Math.min(limits.maxDelayMs, limits.firstDelayMs * 2 ** Math.min(over - 1, 30));
}

const emailOf = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email : '';
};

const clientPrefix = (email: string) => `login-client:${emailFingerprint(email)}:`;
const accountKey = (email: string) => `login-account:${emailFingerprint(email)}`;
// IPv6 clients are counted per /64, as the per-IP limits do: one host usually holds a whole /64.
const clientKey = (request: FastifyRequest) => `${clientPrefix(emailOf(request))}${normalizeIP(request.ip)}`;

/**
 * Password-guessing limits of POST /api/auth/login/ that an attacker cannot turn against the owner:
 * a client is refused only for its own attempts on an account, and failures from everywhere only slow
 * the failed answers. A successful password reset forgets the account's counts.
 */
export class LoginLimiter {
  private readonly clientWindowMs: number;
  private readonly failureWindowMs: number;

  constructor(
    private readonly store: RateLimitStore,
    private readonly limits: LoginLimits,
    /** Waits before a failed answer; tests record the delay instead of waiting. */
    private readonly delay: (ms: number) => Promise<unknown> = sleep,
  ) {
    this.clientWindowMs = windowMs(limits.loginPerAccountAndClient.timeWindow);
    this.failureWindowMs = windowMs(limits.loginFailureDelay.timeWindow);
  }

  /** preHandler: counts the attempt before the password is checked, so parallel attempts all count. */
  readonly checkClient = async (request: FastifyRequest): Promise<void> => {
    const { hits, ttlMs } = await this.store.increment(clientKey(request), this.clientWindowMs);
    if (hits > this.limits.loginPerAccountAndClient.max) throw errors.rateLimited(secondsLeft(ttlMs));
  };

  /** onError: a wrong password counts against the account from every address and is answered late. */
  readonly slowFailure = async (request: FastifyRequest, _reply: FastifyReply, error: Error): Promise<void> => {
    if (!(error instanceof AppError) || error.code !== 'INVALID_CREDENTIALS') return;
    const { hits } = await this.store.increment(accountKey(emailOf(request)), this.failureWindowMs);
    const ms = loginFailureDelayMs(this.limits.loginFailureDelay, hits);
    if (ms > 0) await this.delay(ms);
  };

  /** onSend: a successful login starts this client's count afresh. */
  readonly clearClientOnSuccess = async <T>(request: FastifyRequest, reply: FastifyReply, payload: T): Promise<T> => {
    if (reply.statusCode === 200) await this.store.delete(clientKey(request));
    return payload;
  };

  /** After a password reset: the owner chose a new password, so earlier guesses count for nothing. */
  async clearAccount(email: string): Promise<void> {
    await this.store.delete(accountKey(email));
    await this.store.deleteByPrefix(clientPrefix(email));
  }
}
