import {
  apiErrorSchema,
  newsListResponseSchema,
  newsRecommendationQuerySchema,
  newsRecommendationResponseSchema,
  newsSearchRequestSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { keyedRateLimit } from '../../plugins/keyed-rate-limit';
import type { NewsService } from './news.service';

/** Per user: the news page re-fetches on every settings change, so this is generous. */
export const NEWS_RECOMMENDATION_LIMIT = { max: 120, timeWindow: '1 minute' };
/** Per user: a semantic search embeds the query, possibly a paid API call. */
export const NEWS_SEARCH_LIMIT = { max: 60, timeWindow: '1 minute' };

const guarded = { tags: ['news'], security: [{ bearerAuth: [] }] };

export const newsRoutes: FastifyPluginAsyncZod<{ news: NewsService }> = async (app, { news }) => {
  // Keyed by user (after authentication): one account cannot multiply its allowance over addresses.
  const recommendationLimit = keyedRateLimit(
    app,
    NEWS_RECOMMENDATION_LIMIT,
    (request) => `news-recommendations:${request.currentUser?.id ?? request.ip}`,
  );
  const searchLimit = keyedRateLimit(
    app,
    NEWS_SEARCH_LIMIT,
    (request) => `news-search:${request.currentUser?.id ?? request.ip}`,
  );

  app.get(
    '/api/news/recommendations/',
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
    async (request) => news.recommend(requireUser(request), request.query),
  );

  app.post(
    '/api/news/search/',
    {
      onRequest: app.authenticate,
      preHandler: searchLimit,
      schema: {
        ...guarded,
        summary:
          'Search news by keywords (full text, Chinese and English) or by meaning (semantic), filtered by institute and date',
        body: newsSearchRequestSchema,
        response: {
          200: newsListResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          429: apiErrorSchema,
          502: apiErrorSchema,
          503: apiErrorSchema,
          504: apiErrorSchema,
        },
      },
    },
    async (request) => news.search(requireUser(request), request.body),
  );
};
