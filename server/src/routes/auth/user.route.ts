import { apiErrorSchema, userResponseSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { presentUser } from '../../services/user.presenter';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/auth/user/',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user with their research profile',
        security: [{ bearerAuth: [] }],
        response: { 200: userResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request) => presentUser(requireUser(request)),
  );
};
