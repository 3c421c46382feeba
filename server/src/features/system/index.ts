import { defineFeature, route } from '../../feature';
import { healthRoutes } from './health.route';
import { HealthService } from './health.service';
import { publicConfigOf } from './public-config.presenter';
import { publicConfigRoutes } from './public-config.route';

/** The health check and the public settings the web app reads. */
export const systemFeature = defineFeature({
  repositories: ['health'],
  services: ({ parts, repositories }) => ({
    health: new HealthService({
      version: parts.version,
      databaseMode: parts.database.mode,
      health: repositories.health,
      probeQueue: parts.queues.probe,
      queueBackend: parts.queues.backend,
      workerInProcess: parts.workerInProcess,
      mailer: parts.mailer,
    }),
    // GET /api/config/'s answer: fixed for the process's life.
    publicConfig: publicConfigOf(parts.config),
  }),
  routes: ({ health, publicConfig }, { parts }) => [
    route(healthRoutes, { health, operatorToken: parts.config.operatorToken }),
    route(publicConfigRoutes, { publicConfig }),
  ],
});
