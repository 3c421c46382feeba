import type { UserRow } from '@radar/db';
import {
  API_PATHS,
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
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { keyedRateLimit } from '../../plugins/keyed-rate-limit';
import type { LoginLimiter } from '../../plugins/login-limiter';
import { presentUser } from '../../presenters/user.presenter';
import { emailFingerprint } from '../../security/secret-codes';
import type { SignedCookies } from '../../security/signed-cookies';
import type { AuthRateLimits } from './account-rate-limits';
import type { AuthService } from './auth.service';
import { BrowserCodeState, VERIFY_COOKIE, VERIFY_COOKIE_MAX_AGE_S, VERIFY_COOKIE_PATH } from './browser-code-state';

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
  cookies: SignedCookies;
}> = async (app, { auth, limits, loginLimiter, cookies }) => {
  // Sessions and their tokens are started by the JWT plugin (plugins/auth.ts), which is the HTTP layer's;
  // the service decides who signs in.
  const signedIn = async (user: UserRow, request: FastifyRequest) => ({
    token: await app.signIn(user, request.headers['user-agent'] ?? ''),
    user: presentUser(user),
  });

  /**
   * Runs `work` with this browser's codes for `email` (its signed cookie; browser-code-state.ts) and
   * writes them back when they changed, on a refusal too (a wrong code counts).
   */
  const withBrowserCodes = async <T>(
    request: FastifyRequest,
    reply: FastifyReply,
    email: string,
    work: (browser: BrowserCodeState) => Promise<T> | T,
  ): Promise<T> => {
    const browser = BrowserCodeState.decode(cookies.read(request, VERIFY_COOKIE), email);
    try {
      return await work(browser);
    } finally {
      if (browser.changed) {
        cookies.write(request, reply, VERIFY_COOKIE, browser.encode(email), {
          path: VERIFY_COOKIE_PATH,
          maxAgeSeconds: VERIFY_COOKIE_MAX_AGE_S,
        });
      }
    }
  };

  app.post(
    API_PATHS.register,
    {
      config: { rateLimit: limits.register },
      schema: {
        tags: ['auth'],
        summary: 'Create an account and mail a verification code (re-sends for an unverified address)',
        body: registerRequestSchema,
        response: { 201: registerResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await withBrowserCodes(request, reply, request.body.email, (browser) => auth.register(request.body, browser)),
        ),
  );

  app.post(
    API_PATHS.verifyEmail,
    {
      config: { rateLimit: limits.verify },
      schema: {
        tags: ['auth'],
        summary: 'Check the 6-digit code; on success the account is verified and signed in',
        body: verifyEmailRequestSchema,
        response: { 200: verifyEmailResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { user, ...verified } = await withBrowserCodes(request, reply, request.body.email, (browser) =>
        auth.verifyEmail(request.body, browser),
      );
      // The code is used: this browser has nothing left to count for the address.
      cookies.clear(request, reply, VERIFY_COOKIE, VERIFY_COOKIE_PATH);
      return { ...verified, ...(await signedIn(user, request)) };
    },
  );

  app.post(
    API_PATHS.resendVerificationCode,
    {
      config: { rateLimit: limits.resend },
      schema: {
        tags: ['auth'],
        summary:
          'Mail a new code to a registration waiting for verification (60 s cooldown, at most 5 an hour and 20 a day per address)',
        description:
          'Every address gets the same conditional answer (如果该邮箱已注册且尚未验证，验证码已发送，请查收邮件): an unknown or verified address is mailed nothing, and the answer must not say which. `resend_available_in` is the cooldown before this browser may ask again.',
        body: emailOnlyRequestSchema,
        response: { 200: resendCodeResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      withBrowserCodes(request, reply, request.body.email, (browser) =>
        auth.resendVerificationCode(request.body.email, browser),
      ),
  );

  app.get(
    API_PATHS.verificationStatus,
    {
      config: { rateLimit: limits.verify },
      schema: {
        tags: ['auth'],
        summary: 'Time left on the current code, attempts left, and when a new code may be sent',
        querystring: verificationStatusQuerySchema,
        response: { 200: verificationStatusResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      withBrowserCodes(request, reply, request.query.email, (browser) => auth.verificationStatus(browser)),
  );

  app.post(
    API_PATHS.login,
    {
      // The per-address limit runs once the body is read, so a browser known to the account it names
      // (its device cookie) is let through while others share its address (login-limiter.ts).
      config: { rateLimit: { ...limits.login, hook: 'preHandler', allowList: loginLimiter.isTrustedDevice } },
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
    async (request) => signedIn(await auth.login(request.body), request),
  );

  app.post(
    API_PATHS.forgotPassword,
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
    API_PATHS.resetPassword,
    {
      config: { rateLimit: limits.forgot },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset token; ends every session and mails the owner',
        body: resetPasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => auth.resetPassword(request.body, request.headers['user-agent'] ?? ''),
  );
};
