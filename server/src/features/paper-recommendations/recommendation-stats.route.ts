import { API_PATHS, apiErrorSchema, recommendationStatsResponseSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import type { RecommendationStatsService } from './recommendation-stats.service';

export const recommendationStatsRoutes: FastifyPluginAsyncZod<{
  recommendationStats: RecommendationStatsService;
}> = async (app, { recommendationStats }) => {
  const guarded = guardedRoutes(app, 'research');
  app.get(
    API_PATHS.recommendationStats,
    guarded({
      summary: 'Whether the user has a profile vector, how many papers can be recommended, and the active models',
      response: { 200: recommendationStatsResponseSchema, 503: apiErrorSchema },
    }),
    async (request) => recommendationStats.stats(requireUser(request)),
  );
};
