import { apiErrorSchema, recommendationStatsResponseSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import type { ProfileEmbeddingService } from '../../services/profile-embedding.service';

export const recommendationStatsRoutes: FastifyPluginAsyncZod<{ profileEmbedding: ProfileEmbeddingService }> = async (
  app,
  { profileEmbedding },
) => {
  app.get(
    '/api/auth/recommendations/stats/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['research'],
        summary: 'Whether the user has a profile vector, how many papers can be recommended, and the active models',
        security: [{ bearerAuth: [] }],
        response: { 200: recommendationStatsResponseSchema, 401: apiErrorSchema, 503: apiErrorSchema },
      },
    },
    async (request) => profileEmbedding.stats(requireUser(request)),
  );
};
