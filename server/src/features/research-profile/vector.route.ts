import { API_PATHS, apiErrorSchema, vectorUpdateResponseSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import type { ProfileEmbeddingService } from './profile-embedding.service';

export const vectorRoutes: FastifyPluginAsyncZod<{ profileEmbedding: ProfileEmbeddingService }> = async (
  app,
  { profileEmbedding },
) => {
  app.post(
    API_PATHS.vectorUpdate,
    {
      onRequest: app.authenticate,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['research'],
        summary: "Recompute the user's profile vector with the active embedding model",
        security: [{ bearerAuth: [] }],
        response: { 200: vectorUpdateResponseSchema, 400: apiErrorSchema, 401: apiErrorSchema, 503: apiErrorSchema },
      },
    },
    async (request) => profileEmbedding.update(requireUser(request)),
  );
};
