import { API_PATHS, newsRecommendationQuerySchema, newsRecommendationResponseSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedRouteTable } from '../../plugins/guarded-route';
import type { NewsRecommendationService } from './news-recommendation.service';

/** Per user: the news page re-fetches on every settings change, so this is generous. */
const NEWS_RECOMMENDATION_LIMIT = { key: 'news-recommendations', max: 120, timeWindow: '1 minute' };

export const newsRecommendationRoutes: FastifyPluginAsyncZod<{
  newsRecommendations: NewsRecommendationService;
}> = async (app, { newsRecommendations }) => {
  // Keyed by user (after authentication): one account cannot multiply its allowance over addresses.
  guardedRouteTable(app, 'news').get(API_PATHS.newsRecommendations, {
    summary:
      'News most similar to the research profile within the date window (widest of date_filter), at or above the threshold, one page of the top_k',
    query: newsRecommendationQuerySchema,
    answers: { 200: newsRecommendationResponseSchema },
    errors: [400, 503],
    limit: NEWS_RECOMMENDATION_LIMIT,
    handle: async ({ user, query }) => newsRecommendations.recommend(user, query),
  });
};
