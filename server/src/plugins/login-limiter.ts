import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { API_PATHS } from '@radar/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors } from '../errors';
import { emailFingerprint } from '../security/secret-codes';
import type { SignedCookies } from '../security/signed-cookies';
import { clientAddressKey, type RateLimit, secondsLeft, windowMs } from './keyed-rate-limit';
import type { RateLimitStore } from './rate-limit-store';

export interface LoginLimits {
  /**
   * Failed attempts on one account from one client since its last successful login there (a browser
   * with the account's device cookie, else an address); beyond `max` that client (only) gets 429
   * until the window ends.
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
function loginFailureDelayMs(limits: LoginLimits['loginFailureDelay'], failures: number): number {
  const over = failures - limits.freeFailures;
  if (over <= 0) return 0;
  return Math.min(limits.maxDelayMs, limits.firstDelayMs * 2 ** Math.min(over - 1, 30));
}

const emailOf = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email : '';
};

/** The browser's login cookie (OWASP "device cookies"): sent only to the login call. */
const DEVICE_COOKIE = 'radar_device';
const DEVICE_COOKIE_PATH = API_PATHS.login;
/** A browser stays known this long after its last successful login. */
const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 60 * 60;

// Every count of one account starts with this prefix, so a password reset forgets them all at once.
const clientPrefix = (email: string) => `login-client:${emailFingerprint(email)}:`;
const accountKey = (email: string) => `login-account:${emailFingerprint(email)}`;

/**
 * Password-guessing limits of POST /api/auth/login/ that an attacker cannot turn against the owner:
 * a client is refused only for its own failed attempts on an account, and failures from everywhere
 * only slow the failed answers. A browser that logged in to the account before carries a signed
 * device cookie (`<account fingerprint>:<device id>:<issued, s>`): its attempts are counted per
 * device instead of per address and skip the login route's per-address limit, so a guesser sharing the
 * owner's address (a campus NAT) cannot lock the owner out. A successful password reset forgets the
 * account's counts.
 */
export class LoginLimiter {
  private readonly clientWindowMs: number;
  private readonly failureWindowMs: number;

  constructor(
    private readonly store: RateLimitStore,
    private readonly limits: LoginLimits,
    private readonly cookies: SignedCookies,
    /** Waits before a failed answer; tests record the delay instead of waiting. */
    private readonly delay: (ms: number) => Promise<unknown> = sleep,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.clientWindowMs = windowMs(limits.loginPerAccountAndClient.timeWindow);
    this.failureWindowMs = windowMs(limits.loginFailureDelay.timeWindow);
  }

  /**
   * The device id of a valid device cookie issued to this browser for the account the request names;
   * undefined for any other browser (no cookie, another account's, forged, or expired).
   */
  trustedDevice(request: FastifyRequest): string | undefined {
    const value = this.cookies.read(request, DEVICE_COOKIE);
    const [account, device, issued] = value?.split(':') ?? [];
    if (!account || !device || !issued || account !== emailFingerprint(emailOf(request))) return undefined;
    const ageS = this.now().getTime() / 1000 - Number(issued);
    return ageS >= 0 && ageS < DEVICE_COOKIE_MAX_AGE_S ? device : undefined;
  }

  /** For the route's per-address limit (@fastify/rate-limit `allowList`): a known browser is not counted there. */
  readonly isTrustedDevice = (request: FastifyRequest): boolean => this.trustedDevice(request) !== undefined;

  /**
   * preHandler: counts the attempt before the password is checked, so parallel attempts all count; a
   * success takes it back (clearClientOnSuccess), so only failures add up. A known browser is counted
   * per device, any other per address (IPv6 per /64, as the per-IP limits do).
   */
  readonly checkClient = async (request: FastifyRequest): Promise<void> => {
    const { hits, ttlMs } = await this.store.increment(this.clientKey(request), this.clientWindowMs);
    if (hits > this.limits.loginPerAccountAndClient.max) throw errors.rateLimited(secondsLeft(ttlMs));
  };

  /** onError: a wrong password counts against the account from every address and is answered late. */
  readonly slowFailure = async (request: FastifyRequest, _reply: FastifyReply, error: Error): Promise<void> => {
    if (!(error instanceof AppError) || error.code !== 'INVALID_CREDENTIALS') return;
    const { hits } = await this.store.increment(accountKey(emailOf(request)), this.failureWindowMs);
    const ms = loginFailureDelayMs(this.limits.loginFailureDelay, hits);
    if (ms > 0) await this.delay(ms);
  };

  /**
   * onSend: a successful login starts this client's count afresh and (re)issues the browser's device
   * cookie for the account, with a new device id and issue time.
   */
  readonly clearClientOnSuccess = async <T>(request: FastifyRequest, reply: FastifyReply, payload: T): Promise<T> => {
    if (reply.statusCode !== 200) return payload;
    await this.store.delete(this.clientKey(request));
    const email = emailOf(request);
    if (email) {
      const issued = Math.floor(this.now().getTime() / 1000);
      const value = `${emailFingerprint(email)}:${randomBytes(12).toString('base64url')}:${issued}`;
      this.cookies.write(request, reply, DEVICE_COOKIE, value, {
        path: DEVICE_COOKIE_PATH,
        maxAgeSeconds: DEVICE_COOKIE_MAX_AGE_S,
      });
    }
    return payload;
  };

  /** After a password reset: the owner chose a new password, so earlier guesses count for nothing. */
  async clearAccount(email: string): Promise<void> {
    await this.store.delete(accountKey(email));
    await this.store.deleteByPrefix(clientPrefix(email));
  }

  private clientKey(request: FastifyRequest): string {
    const device = this.trustedDevice(request);
    const prefix = clientPrefix(emailOf(request));
    return device ? `${prefix}device:${device}` : `${prefix}${clientAddressKey(request)}`;
  }
}
