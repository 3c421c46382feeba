import {
  API_PATHS,
  changePasswordRequestSchema,
  endSessionsResponseSchema,
  messageResponseSchema,
  sessionIdParamsSchema,
  sessionListResponseSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireSessionId } from '../../plugins/auth';
import { guardedRouteTable } from '../../plugins/guarded-route';
import type { AuthService } from './auth.service';
import type { SessionService } from './session.service';

/** Guesses at the current password with a stolen token: a few per account, as login allows per client. */
const PASSWORD_CHANGE_LIMIT = { key: 'password-change', max: 5, timeWindow: '15 minutes' };

/** Logout, the session list of /my, ending sessions, and the password change that ends the others. */
export const sessionRoutes: FastifyPluginAsyncZod<{ sessions: SessionService; auth: AuthService }> = async (
  app,
  { sessions, auth },
) => {
  const routes = guardedRouteTable(app, 'auth');
  const ended = { 200: endSessionsResponseSchema };

  routes.post(API_PATHS.logout, {
    summary: "Log out: ends this token's session on the server (the token is refused from then on)",
    answers: { 200: messageResponseSchema },
    handle: async ({ user, request }) => sessions.logout(user, requireSessionId(request)),
  });
  routes.get(API_PATHS.sessions, {
    summary: 'The active sessions (logins) of the signed-in user, this one first',
    answers: { 200: sessionListResponseSchema },
    handle: async ({ user, request }) => sessions.list(user, requireSessionId(request)),
  });
  routes.delete(API_PATHS.session, {
    summary: "End one of the user's sessions (another user's id: 404)",
    params: sessionIdParamsSchema,
    answers: ended,
    errors: [400, 404],
    handle: async ({ user, params }) => sessions.end(user, params.id),
  });
  routes.post(API_PATHS.logoutOtherSessions, {
    summary: 'Log out other devices: ends every session of the user except this one',
    answers: ended,
    handle: async ({ user, request }) => sessions.endOthers(user, requireSessionId(request)),
  });
  routes.post(API_PATHS.changePassword, {
    summary: 'Change the password with the current one; ends every other session and mails the owner',
    body: changePasswordRequestSchema,
    answers: ended,
    errors: [400],
    limit: PASSWORD_CHANGE_LIMIT,
    handle: async ({ user, body, request }) =>
      auth.changePassword(user, requireSessionId(request), body, request.headers['user-agent'] ?? ''),
  });
};
