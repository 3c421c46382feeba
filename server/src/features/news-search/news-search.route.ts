import { API_PATHS, apiErrorSchema, newsListResponseSchema, newsSearchRequestSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { keyedRateLimit } from '../../plugins/keyed-rate-limit';
import type { NewsSearchService } from './news-search.service';

/** Per user: a semantic search embeds the query, possibly a paid API call. */
const NEWS_SEARCH_LIMIT = { max: 60, timeWindow: '1 minute' };

const guarded = { tags: ['news'], security: [{ bearerAuth: [] }] };

export const newsSearchRoutes: FastifyPluginAsyncZod<{ newsSearch: NewsSearchService }> = async (
  app,
  { newsSearch },
) => {
  // Keyed by user (after authentication): one account cannot multiply its allowance over addresses.
  const searchLimit = keyedRateLimit(
    app,
    NEWS_SEARCH_LIMIT,
    (request) => `news-search:${request.currentUser?.id ?? request.ip}`,
  );

  app.post(
    API_PATHS.newsSearch,
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
    async (request) => newsSearch.search(requireUser(request), request.body),
  );
};
