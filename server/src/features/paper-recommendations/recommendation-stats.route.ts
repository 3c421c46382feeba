import { API_PATHS, recommendationStatsResponseSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedRouteTable } from '../../plugins/guarded-route';
import type { RecommendationStatsService } from './recommendation-stats.service';

export const recommendationStatsRoutes: FastifyPluginAsyncZod<{
  recommendationStats: RecommendationStatsService;
}> = async (app, { recommendationStats }) => {
  guardedRouteTable(app, 'research').get(API_PATHS.recommendationStats, {
    summary: 'Whether the user has a profile vector, how many papers can be recommended, and the active models',
    answers: { 200: recommendationStatsResponseSchema },
    errors: [503],
    handle: async ({ user }) => recommendationStats.stats(user),
  });
};
