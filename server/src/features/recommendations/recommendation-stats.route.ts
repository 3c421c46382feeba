import { apiErrorSchema, recommendationStatsResponseSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import type { RecommendationService } from './recommendation.service';

export const recommendationStatsRoutes: FastifyPluginAsyncZod<{ recommendations: RecommendationService }> = async (
  app,
  { recommendations },
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
    async (request) => recommendations.stats(requireUser(request)),
  );
};
