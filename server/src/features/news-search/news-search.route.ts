import { API_PATHS, apiErrorSchema, newsListResponseSchema, newsSearchRequestSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import type { NewsSearchService } from './news-search.service';

export const newsSearchRoutes: FastifyPluginAsyncZod<{ newsSearch: NewsSearchService }> = async (
  app,
  { newsSearch },
) => {
  const guarded = guardedRoutes(app, 'news');
  app.post(
    API_PATHS.newsSearch,
    guarded(
      {
        summary:
          'Search news by keywords (full text, Chinese and English) or by meaning (semantic), filtered by institute and date',
        body: newsSearchRequestSchema,
        response: {
          200: newsListResponseSchema,
          400: apiErrorSchema,
          429: apiErrorSchema,
          502: apiErrorSchema,
          503: apiErrorSchema,
          504: apiErrorSchema,
        },
      },
      {
        // Per reader (a semantic search embeds the query, maybe a paid call): docs/decisions.md, "Per-user quotas".
        config: { userQuota: 'newsSearch' },
      },
    ),
    async (request) => newsSearch.search(requireUser(request), request.body),
  );
};
