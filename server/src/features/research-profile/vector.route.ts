import { API_PATHS, vectorUpdateResponseSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedRouteTable } from '../../plugins/guarded-route';
import type { ProfileEmbeddingService } from './profile-embedding.service';

export const vectorRoutes: FastifyPluginAsyncZod<{ profileEmbedding: ProfileEmbeddingService }> = async (
  app,
  { profileEmbedding },
) => {
  guardedRouteTable(app, 'research').post(API_PATHS.vectorUpdate, {
    summary: "Recompute the user's profile vector with the active embedding model",
    answers: { 200: vectorUpdateResponseSchema },
    errors: [400, 503],
    config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    handle: async ({ user }) => profileEmbedding.update(user),
  });
};
