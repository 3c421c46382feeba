import type { AppMetrics } from '@radar/metrics';
import type { FastifyInstance } from 'fastify';

/** The route label of requests no route matched (unknown paths, the 404 handler). */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * Records every answered request in `http_request_duration_seconds`, labelled with the route's pattern
 * (`/articles/:id/save/`), never the URL: ids and query strings would make a label value per request.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: AppMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeHttpRequest({
      method: request.method,
      route: request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE),
      statusCode: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
  });
}
