import {
  API_PATHS,
  apiErrorSchema,
  newsRecommendationQuerySchema,
  newsRecommendationResponseSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { keyedRateLimit } from '../../plugins/keyed-rate-limit';
import type { NewsRecommendationService } from './news-recommendation.service';

/** Per user: the news page re-fetches on every settings change, so this is generous. */
const NEWS_RECOMMENDATION_LIMIT = { max: 120, timeWindow: '1 minute' };

const guarded = { tags: ['news'], security: [{ bearerAuth: [] }] };

export const newsRecommendationRoutes: FastifyPluginAsyncZod<{
  newsRecommendations: NewsRecommendationService;
}> = async (app, { newsRecommendations }) => {
  // Keyed by user (after authentication): one account cannot multiply its allowance over addresses.
  const recommendationLimit = keyedRateLimit(
    app,
    NEWS_RECOMMENDATION_LIMIT,
    (request) => `news-recommendations:${request.currentUser?.id ?? request.ip}`,
  );

  app.get(
    API_PATHS.newsRecommendations,
    {
      onRequest: app.authenticate,
      preHandler: recommendationLimit,
      schema: {
        ...guarded,
        summary:
          'News most similar to the research profile within the date window (widest of date_filter), at or above the threshold, one page of the top_k',
        querystring: newsRecommendationQuerySchema,
        response: {
          200: newsRecommendationResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          429: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request) => newsRecommendations.recommend(requireUser(request), request.query),
  );
};
