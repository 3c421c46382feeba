import {
  API_PATHS,
  apiErrorSchema,
  deleteAccountRequestSchema,
  emailChangeConfirmSchema,
  emailChangeRequestSchema,
  emailChangeStartedResponseSchema,
  messageResponseSchema,
  userResponseSchema,
  userUpdateSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import { keyedRateLimit } from '../../plugins/keyed-rate-limit';
import { presentUser } from '../../presenters/user.presenter';
import type { AuthRateLimits } from './account-rate-limits';
import type { EmailChangeService } from './email-change.service';
import type { AccountSelfService } from './self-service.service';
import type { UserService } from './user.service';

/** Authentication runs onRequest, before the body is read and validated: anonymous callers learn nothing from a 400. */
export const userRoutes: FastifyPluginAsyncZod<{
  userService: UserService;
  selfService: AccountSelfService;
  emailChange: EmailChangeService;
  limits: AuthRateLimits;
}> = async (app, { userService, selfService, emailChange, limits }) => {
  const guarded = guardedRoutes(app, 'auth');
  // Password guesses through a stolen token are limited per account like login guesses from one client.
  const passwordChecks = keyedRateLimit(app, limits.loginPerAccountAndClient, (request) => {
    return `password-check:${requireUser(request).id}`;
  });
  const emailChangeCodes = keyedRateLimit(app, limits.emailChangeCodes, (request) => {
    return `email-change:${requireUser(request).id}`;
  });

  app.get(
    API_PATHS.user,
    guarded({
      summary: 'The signed-in user with their research profile',
      response: { 200: userResponseSchema },
    }),
    async (request) => presentUser(requireUser(request)),
  );

  app.patch(
    API_PATHS.user,
    guarded(
      {
        summary: 'Update profile fields; unknown fields are ignored',
        body: userUpdateSchema,
        response: { 200: userResponseSchema, 400: apiErrorSchema, 429: apiErrorSchema },
      },
      { config: { userQuota: 'profileUpdates' } },
    ),
    async (request) => presentUser(await userService.updateProfile(requireUser(request), request.body)),
  );

  app.post(
    API_PATHS.deleteUser,
    guarded(
      {
        summary: 'Delete the signed-in account and all of its data, after the current password is typed again',
        body: deleteAccountRequestSchema,
        response: { 200: messageResponseSchema, 400: apiErrorSchema, 429: apiErrorSchema },
      },
      { preHandler: passwordChecks },
    ),
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return selfService.deleteAccount(requireUser(request), request.body.password);
    },
  );

  app.post(
    API_PATHS.changeEmail,
    guarded(
      {
        summary:
          'Start moving the account to another address: checks the current password and mails a 6-digit code to the new address',
        body: emailChangeRequestSchema,
        response: {
          200: emailChangeStartedResponseSchema,
          400: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
      { preHandler: [passwordChecks, emailChangeCodes] },
    ),
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return emailChange.start(requireUser(request), request.body.new_email, request.body.password);
    },
  );

  app.post(
    API_PATHS.confirmEmailChange,
    guarded(
      {
        summary: 'Confirm the email change with the code mailed to the new address; answers the updated user',
        body: emailChangeConfirmSchema,
        response: {
          200: userResponseSchema,
          400: apiErrorSchema,
          409: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
      { config: { userQuota: 'profileUpdates' } },
    ),
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return presentUser(await emailChange.confirm(requireUser(request), request.body.code));
    },
  );

  app.get(
    API_PATHS.exportUserData,
    {
      onRequest: app.authenticate,
      // Per address, and per reader (their whole account as one file): docs/decisions.md, "Per-user quotas".
      config: { rateLimit: limits.exportData, userQuota: 'dataExports' },
      schema: {
        tags: ['auth'],
        summary:
          "Download the signed-in user's data as a JSON file (profile, keywords, paper and news states with ratings, feedback, interests, delivery settings without secrets)",
        // No response schema: the 200 is a file, sent as pretty-printed JSON text.
        security: [{ bearerAuth: [] }],
      },
    },
    async (request, reply) => {
      const data = await selfService.exportData(requireUser(request));
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${selfService.exportFileName(data.exported_at)}"`)
        .send(JSON.stringify(data, null, 2));
    },
  );
};
