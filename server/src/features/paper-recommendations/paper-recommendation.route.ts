import {
  API_PATHS,
  paperRecommendationQuerySchema,
  paperRecommendationResponseSchema,
  similarityQuerySchema,
  similarityResponseSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedRouteTable } from '../../plugins/guarded-route';
import type { PaperRecommendationService } from './paper-recommendation.service';

export const paperRecommendationRoutes: FastifyPluginAsyncZod<{
  paperRecommendations: PaperRecommendationService;
}> = async (app, { paperRecommendations }) => {
  const routes = guardedRouteTable(app, 'recommendations');
  routes.get(API_PATHS.paperRecommendations, {
    summary:
      'Papers most similar to the research profile, filtered by publication window (widest of date_filter), excluded tiers (papers of unknown tier are kept) and a similarity threshold',
    query: paperRecommendationQuerySchema,
    answers: { 200: paperRecommendationResponseSchema },
    errors: [400, 503],
    config: { userQuota: 'recommendations' },
    handle: async ({ user, query }) => paperRecommendations.recommend(user, query),
  });
  routes.get(API_PATHS.paperSimilarity, {
    summary: 'Similarity to the research profile of given papers (ids=1,2,3) or of a text (text=...)',
    query: similarityQuerySchema,
    answers: { 200: similarityResponseSchema },
    errors: [400, 503],
    config: { userQuota: 'similarity' },
    handle: async ({ user, query }) => paperRecommendations.similarity(user, query),
  });
};
