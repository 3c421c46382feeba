import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ActionableError } from '@radar/shared/server';
import type { Logger } from 'pino';
import type { AppMetrics } from './app-metrics';

export interface MetricsServer {
  /** The port it listens on (the configured one, or the one the system picked for 0). */
  port: number;
  /** From now on GET /health answers 503, so orchestrators stop sending work while the process drains. */
  markShuttingDown(): void;
  close(): Promise<void>;
}

/**
 * The internal listener of a process (METRICS_PORT): `GET /metrics` in Prometheus' text format and
 * `GET /health` (200 `{"status":"ok"}`, 503 once shutting down; the worker's container health check).
 * It has no authentication: it is internal because it is a separate port the deployment does not
 * publish (compose publishes only the server's PORT), never because of anything checked here.
 * `port: 0` picks a free port (tests); callers leave the listener out when METRICS_PORT is 0.
 */
export async function startMetricsServer(options: {
  metrics: AppMetrics;
  port: number;
  host: string;
  logger: Logger;
}): Promise<MetricsServer> {
  const { metrics, logger } = options;
  let isShuttingDown = false;
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
    } else if (path === '/health') {
      response
        .writeHead(isShuttingDown ? 503 : 200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: isShuttingDown ? 'shutting_down' : 'ok' }));
    } else if (path === '/metrics') {
      metrics.render().then(
        ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
        (error: Error) => {
          logger.error({ err: error.message }, 'metrics could not be rendered');
          response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
        },
      );
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    }
  });
  // Scrapers and health checks keep connections open; they must not hold up a shutdown.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    const refuse = (error: NodeJS.ErrnoException) =>
      reject(
        new ActionableError(
          `cannot listen on METRICS_PORT ${options.port} (${error.code ?? error.message}). Stop the other process, set another METRICS_PORT, or 0 to turn metrics off.`,
        ),
      );
    server.once('error', refuse);
    server.listen(options.port, options.host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
  server.on('error', (error) => logger.error({ err: error.message }, 'metrics listener error'));
  return {
    port: (server.address() as AddressInfo).port,
    markShuttingDown() {
      isShuttingDown = true;
    },
    async close() {
      isShuttingDown = true;
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
