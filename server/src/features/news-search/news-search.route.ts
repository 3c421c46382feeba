import { API_PATHS, newsListResponseSchema, newsSearchRequestSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedRouteTable } from '../../plugins/guarded-route';
import type { NewsSearchService } from './news-search.service';

export const newsSearchRoutes: FastifyPluginAsyncZod<{ newsSearch: NewsSearchService }> = async (
  app,
  { newsSearch },
) => {
  guardedRouteTable(app, 'news').post(API_PATHS.newsSearch, {
    summary:
      'Search news by keywords (full text, Chinese and English) or by meaning (semantic), filtered by institute and date',
    body: newsSearchRequestSchema,
    answers: { 200: newsListResponseSchema },
    errors: [400, 502, 503, 504],
    // Per reader (a semantic search embeds the query, maybe a paid call): docs/decisions.md, "Per-user quotas".
    config: { userQuota: 'newsSearch' },
    handle: async ({ user, body }) => newsSearch.search(user, body),
  });
};
