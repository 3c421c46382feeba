import { API_PATHS, healthResponseSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hasOperatorToken } from '../../security/operator-token';
import type { HealthService } from './health.service';

export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthService; operatorToken: string | undefined }> = async (
  app,
  { health, operatorToken },
) => {
  app.get(
    API_PATHS.health,
    {
      schema: {
        tags: ['system'],
        summary:
          'Database, queue and mail status; 200 when usable, 503 when not. Versions only with the operator token',
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (request, reply) => {
      const report = await health.check({
        includeVersions: hasOperatorToken(request.headers.authorization, operatorToken),
      });
      return reply.status(report.status === 'unavailable' ? 503 : 200).send(report);
    },
  );
};
