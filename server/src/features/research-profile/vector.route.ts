import { API_PATHS, apiErrorSchema, vectorUpdateResponseSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import type { ProfileEmbeddingService } from './profile-embedding.service';

export const vectorRoutes: FastifyPluginAsyncZod<{ profileEmbedding: ProfileEmbeddingService }> = async (
  app,
  { profileEmbedding },
) => {
  const guarded = guardedRoutes(app, 'research');
  app.post(
    API_PATHS.vectorUpdate,
    guarded(
      {
        summary: "Recompute the user's profile vector with the active embedding model",
        response: { 200: vectorUpdateResponseSchema, 400: apiErrorSchema, 503: apiErrorSchema },
      },
      { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
    ),
    async (request) => profileEmbedding.update(requireUser(request)),
  );
};
