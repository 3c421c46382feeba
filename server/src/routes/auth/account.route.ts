import {
  apiErrorSchema,
  authSuccessResponseSchema,
  emailOnlyRequestSchema,
  loginRequestSchema,
  messageResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
  resendCodeResponseSchema,
  resetPasswordRequestSchema,
  verificationStatusQuerySchema,
  verificationStatusResponseSchema,
  verifyEmailRequestSchema,
  verifyEmailResponseSchema,
} from '@radar/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { keyedRateLimit, type RateLimit } from '../../plugins/keyed-rate-limit';
import type { LoginLimiter, LoginLimits } from '../../plugins/login-limiter';
import { emailFingerprint } from '../../security/secret-codes';
import type { AuthService } from '../../services/auth.service';

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
};

const errorResponses = {
  400: apiErrorSchema,
  403: apiErrorSchema,
  409: apiErrorSchema,
  429: apiErrorSchema,
  503: apiErrorSchema,
};

/** Keyed by the (hashed) target address, so rotating IPs cannot hammer one account. */
const addressKey = (bucket: string) => (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return `${bucket}:${typeof email === 'string' ? emailFingerprint(email) : 'none'}`;
};

export const accountRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  limits: AuthRateLimits;
  loginLimiter: LoginLimiter;
}> = async (app, { auth, limits, loginLimiter }) => {
  app.post(
    '/api/auth/register/',
    {
      config: { rateLimit: limits.register },
      schema: {
        tags: ['auth'],
        summary: 'Create an account and mail a verification code (re-sends for an unverified address)',
        body: registerRequestSchema,
        response: { 201: registerResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await auth.register(request.body)),
  );

  app.post(
    '/api/auth/verify-email/',
    {
      config: { rateLimit: limits.verify },
      schema: {
        tags: ['auth'],
        summary: 'Check the 6-digit code; on success the account is verified and signed in',
        body: verifyEmailRequestSchema,
        response: { 200: verifyEmailResponseSchema, ...errorResponses },
      },
    },
    async (request) => auth.verifyEmail(request.body),
  );

  app.post(
    '/api/auth/resend-verification-code/',
    {
      config: { rateLimit: limits.resend },
      schema: {
        tags: ['auth'],
        summary: 'Mail a new code (60 s cooldown, at most 5 an hour and 20 a day per address)',
        body: emailOnlyRequestSchema,
        response: { 200: resendCodeResponseSchema, ...errorResponses },
      },
    },
    async (request) => auth.resendVerificationCode(request.body.email),
  );

  app.get(
    '/api/auth/verification-status/',
    {
      config: { rateLimit: limits.verify },
      schema: {
        tags: ['auth'],
        summary: 'Time left on the current code, attempts left, and when a new code may be sent',
        querystring: verificationStatusQuerySchema,
        response: { 200: verificationStatusResponseSchema, ...errorResponses },
      },
    },
    async (request) => auth.verificationStatus(request.query.email),
  );

  app.post(
    '/api/auth/login/',
    {
      config: { rateLimit: limits.login },
      preHandler: loginLimiter.checkClient,
      onError: loginLimiter.slowFailure,
      onSend: loginLimiter.clearClientOnSuccess,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password; returns a bearer token',
        body: loginRequestSchema,
        response: { 200: authSuccessResponseSchema, ...errorResponses },
      },
    },
    async (request) => auth.login(request.body),
  );

  app.post(
    '/api/auth/forgot-password/',
    {
      config: { rateLimit: limits.forgot },
      preHandler: keyedRateLimit(app, limits.forgotPerAddress, addressKey('forgot')),
      schema: {
        tags: ['auth'],
        summary: 'Mail a reset link; the answer is the same whether or not the address has an account',
        body: emailOnlyRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => auth.forgotPassword(request.body.email),
  );

  app.post(
    '/api/auth/reset-password/',
    {
      config: { rateLimit: limits.forgot },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset token; ends every earlier session',
        body: resetPasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => auth.resetPassword(request.body),
  );
};
