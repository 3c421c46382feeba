import { API_PATHS, type PublicConfigResponse, publicConfigResponseSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Settings change only with a restart: browsers and proxies may reuse an answer for a minute. */
const CACHE_CONTROL = 'public, max-age=60';

export const publicConfigRoutes: FastifyPluginAsyncZod<{ publicConfig: PublicConfigResponse }> = async (
  app,
  { publicConfig },
) => {
  app.get(
    API_PATHS.publicConfig,
    {
      schema: {
        tags: ['system'],
        summary: "The installation's public settings: support address (SUPPORT_EMAIL) and readers' time zone",
        response: { 200: publicConfigResponseSchema },
      },
    },
    async (_request, reply) => reply.header('cache-control', CACHE_CONTROL).send(publicConfig),
  );
};
