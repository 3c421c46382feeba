import type { UserRow } from '@radar/db';
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
import { keyedRateLimit } from '../../plugins/keyed-rate-limit';
import type { LoginLimiter } from '../../plugins/login-limiter';
import { emailFingerprint } from '../../security/secret-codes';
import type { AuthRateLimits } from './account-rate-limits';
import type { AuthService } from './auth.service';
import { presentUser } from './user.presenter';

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
  // Tokens are signed by the JWT plugin (plugins/auth.ts), which is the HTTP layer's; the service decides who signs in.
  const signedIn = (user: UserRow) => ({ token: app.signToken(user), user: presentUser(user) });

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
    async (request) => {
      const { user, ...verified } = await auth.verifyEmail(request.body);
      return { ...verified, ...signedIn(user) };
    },
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
    async (request) => signedIn(await auth.login(request.body)),
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
