import {
  API_PATHS,
  apiErrorSchema,
  newsRecommendationQuerySchema,
  newsRecommendationResponseSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import { keyedRateLimit } from '../../plugins/keyed-rate-limit';
import type { NewsRecommendationService } from './news-recommendation.service';

/** Per user: the news page re-fetches on every settings change, so this is generous. */
const NEWS_RECOMMENDATION_LIMIT = { max: 120, timeWindow: '1 minute' };

export const newsRecommendationRoutes: FastifyPluginAsyncZod<{
  newsRecommendations: NewsRecommendationService;
}> = async (app, { newsRecommendations }) => {
  const guarded = guardedRoutes(app, 'news');
  // Keyed by user (after authentication): one account cannot multiply its allowance over addresses.
  const recommendationLimit = keyedRateLimit(
    app,
    NEWS_RECOMMENDATION_LIMIT,
    (request) => `news-recommendations:${request.currentUser?.id ?? request.ip}`,
  );

  app.get(
    API_PATHS.newsRecommendations,
    guarded(
      {
        summary:
          'News most similar to the research profile within the date window (widest of date_filter), at or above the threshold, one page of the top_k',
        querystring: newsRecommendationQuerySchema,
        response: {
          200: newsRecommendationResponseSchema,
          400: apiErrorSchema,
          429: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
      { preHandler: recommendationLimit },
    ),
    async (request) => newsRecommendations.recommend(requireUser(request), request.query),
  );
};
