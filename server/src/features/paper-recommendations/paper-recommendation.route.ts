import {
  API_PATHS,
  apiErrorSchema,
  paperRecommendationQuerySchema,
  paperRecommendationResponseSchema,
  similarityQuerySchema,
  similarityResponseSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import type { PaperRecommendationService } from './paper-recommendation.service';

const ERRORS = { 400: apiErrorSchema, 429: apiErrorSchema, 503: apiErrorSchema };

export const paperRecommendationRoutes: FastifyPluginAsyncZod<{
  paperRecommendations: PaperRecommendationService;
}> = async (app, { paperRecommendations }) => {
  const guarded = guardedRoutes(app, 'recommendations');
  app.get(
    API_PATHS.paperRecommendations,
    guarded(
      {
        summary:
          'Papers most similar to the research profile, filtered by publication window (widest of date_filter), excluded tiers (papers of unknown tier are kept) and a similarity threshold',
        querystring: paperRecommendationQuerySchema,
        response: { 200: paperRecommendationResponseSchema, ...ERRORS },
      },
      { config: { userQuota: 'recommendations' } },
    ),
    async (request) => paperRecommendations.recommend(requireUser(request), request.query),
  );

  app.get(
    API_PATHS.paperSimilarity,
    guarded(
      {
        summary: 'Similarity to the research profile of given papers (ids=1,2,3) or of a text (text=...)',
        querystring: similarityQuerySchema,
        response: { 200: similarityResponseSchema, ...ERRORS },
      },
      { config: { userQuota: 'similarity' } },
    ),
    async (request) => paperRecommendations.similarity(requireUser(request), request.query),
  );
};
