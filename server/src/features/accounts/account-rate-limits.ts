import type { RateLimit } from '../../plugins/keyed-rate-limit';
import type { LoginLimits } from '../../plugins/login-limiter';

/**
 * Requests allowed per window. Per IP on every route; per address where one address is the target; login
 * per account and client, plus a delay on failures (login-limiter.ts).
 */
export interface AuthRateLimits extends LoginLimits {
  register: RateLimit;
  login: RateLimit;
  verify: RateLimit;
  resend: RateLimit;
  forgot: RateLimit;
  forgotPerAddress: RateLimit;
  /** Data downloads per IP: each reads every row of the account. */
  exportData: RateLimit;
  /** Email-change codes per account: each allows 5 guesses, so this caps guesses at 25 an hour. */
  emailChangeCodes: RateLimit;
}

export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = {
  register: { max: 10, timeWindow: '1 hour' },
  login: { max: 20, timeWindow: '1 minute' },
  loginPerAccountAndClient: { max: 10, timeWindow: '15 minutes' },
  // 1, 2, 4, 8 s, then 10 s per failed answer after 5 failures on an account within the hour.
  loginFailureDelay: { freeFailures: 5, firstDelayMs: 1000, maxDelayMs: 10_000, timeWindow: '1 hour' },
  verify: { max: 20, timeWindow: '1 minute' },
  resend: { max: 10, timeWindow: '10 minutes' },
  forgot: { max: 10, timeWindow: '1 hour' },
  forgotPerAddress: { max: 3, timeWindow: '1 hour' },
  exportData: { max: 10, timeWindow: '1 minute' },
  emailChangeCodes: { max: 5, timeWindow: '1 hour' },
};
