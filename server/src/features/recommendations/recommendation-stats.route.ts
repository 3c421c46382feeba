import { API_PATHS, apiErrorSchema, recommendationStatsResponseSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import type { RecommendationStatsService } from './recommendation-stats.service';

export const recommendationStatsRoutes: FastifyPluginAsyncZod<{
  recommendationStats: RecommendationStatsService;
}> = async (app, { recommendationStats }) => {
  app.get(
    API_PATHS.recommendationStats,
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['research'],
        summary: 'Whether the user has a profile vector, how many papers can be recommended, and the active models',
        security: [{ bearerAuth: [] }],
        response: { 200: recommendationStatsResponseSchema, 401: apiErrorSchema, 503: apiErrorSchema },
      },
    },
    async (request) => recommendationStats.stats(requireUser(request)),
  );
};
