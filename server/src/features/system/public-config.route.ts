import { type PublicConfigResponse, publicConfigResponseSchema } from '@radar/shared';
import type { AppConfig } from '@radar/shared/server';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The settings the web app reads at run time; only what every visitor may see. */
export function publicConfigOf(config: Pick<AppConfig, 'supportEmail' | 'timeZone'>): PublicConfigResponse {
  return { support_email: config.supportEmail ?? null, time_zone: config.timeZone };
}

/** Settings change only with a restart: browsers and proxies may reuse an answer for a minute. */
const CACHE_CONTROL = 'public, max-age=60';

export const publicConfigRoutes: FastifyPluginAsyncZod<{ publicConfig: PublicConfigResponse }> = async (
  app,
  { publicConfig },
) => {
  app.get(
    '/api/config/',
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
