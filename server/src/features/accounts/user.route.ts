import { apiErrorSchema, userResponseSchema, userUpdateSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { presentUser } from './user.presenter';
import type { UserService } from './user.service';

/** Authentication runs onRequest, before the body is read and validated: anonymous callers learn nothing from a 400. */
export const userRoutes: FastifyPluginAsyncZod<{ userService: UserService }> = async (app, { userService }) => {
  app.get(
    '/api/auth/user/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user with their research profile',
        security: [{ bearerAuth: [] }],
        response: { 200: userResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request) => presentUser(requireUser(request)),
  );

  app.patch(
    '/api/auth/user/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Update profile fields; unknown fields are ignored',
        security: [{ bearerAuth: [] }],
        body: userUpdateSchema,
        response: { 200: userResponseSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => presentUser(await userService.updateProfile(requireUser(request), request.body)),
  );
};
