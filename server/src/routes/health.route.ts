import { healthResponseSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { HealthService } from '../services/health.service';

export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthService }> = async (app, { health }) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Database, queue and mail status; 200 when usable, 503 when not',
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (_request, reply) => {
      const report = await health.check();
      return reply.status(report.status === 'unavailable' ? 503 : 200).send(report);
    },
  );
};
