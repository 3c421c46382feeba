import {
  API_PATHS,
  apiErrorSchema,
  changePasswordRequestSchema,
  endSessionsResponseSchema,
  messageResponseSchema,
  sessionIdParamsSchema,
  sessionListResponseSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireSessionId, requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import { keyedRateLimit } from '../../plugins/keyed-rate-limit';
import type { AuthService } from './auth.service';
import type { SessionService } from './session.service';

/** Guesses at the current password with a stolen token: a few per account, as login allows per client. */
const PASSWORD_CHANGE_LIMIT = { max: 5, timeWindow: '15 minutes' };

/** Logout, the session list of /my, ending sessions, and the password change that ends the others. */
export const sessionRoutes: FastifyPluginAsyncZod<{ sessions: SessionService; auth: AuthService }> = async (
  app,
  { sessions, auth },
) => {
  const guarded = guardedRoutes(app, 'auth');
  const passwordChangeLimit = keyedRateLimit(
    app,
    PASSWORD_CHANGE_LIMIT,
    (request) => `password-change:${request.currentUser?.id}`,
  );

  app.post(
    API_PATHS.logout,
    guarded({
      summary: "Log out: ends this token's session on the server (the token is refused from then on)",
      response: { 200: messageResponseSchema },
    }),
    async (request) => sessions.logout(requireUser(request), requireSessionId(request)),
  );

  app.get(
    API_PATHS.sessions,
    guarded({
      summary: 'The active sessions (logins) of the signed-in user, this one first',
      response: { 200: sessionListResponseSchema },
    }),
    async (request) => sessions.list(requireUser(request), requireSessionId(request)),
  );

  app.delete(
    API_PATHS.session,
    guarded({
      summary: "End one of the user's sessions (another user's id: 404)",
      params: sessionIdParamsSchema,
      response: { 200: endSessionsResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema },
    }),
    async (request) => sessions.end(requireUser(request), request.params.id),
  );

  app.post(
    API_PATHS.logoutOtherSessions,
    guarded({
      summary: 'Log out other devices: ends every session of the user except this one',
      response: { 200: endSessionsResponseSchema },
    }),
    async (request) => sessions.endOthers(requireUser(request), requireSessionId(request)),
  );

  app.post(
    API_PATHS.changePassword,
    guarded(
      {
        summary: 'Change the password with the current one; ends every other session and mails the owner',
        body: changePasswordRequestSchema,
        response: { 200: endSessionsResponseSchema, 400: apiErrorSchema, 429: apiErrorSchema },
      },
      { preHandler: passwordChangeLimit },
    ),
    async (request) =>
      auth.changePassword(
        requireUser(request),
        requireSessionId(request),
        request.body,
        request.headers['user-agent'] ?? '',
      ),
  );
};
