import type { AiServices } from '@radar/ai';
import { AsyncTaskRepository, type DatabaseHandle, UserRepository } from '@radar/db';
import type { AppQueue } from '@radar/jobs';
import type { EmbeddingsJob, ResearchProfileJob } from '@radar/shared';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ProfileEmbeddingService } from '../../services/profile-embedding.service';
import { ResearchDirectionService } from '../../services/research-direction.service';
import { recommendationStatsRoutes } from './recommendation-stats.route';
import { researchDirectionRoutes } from './research-direction.route';
import { vectorRoutes } from './vector.route';

/** What the research-profile endpoints need from the runtime: AI providers and queue producers. */
export interface ResearchDeps {
  ai: AiServices;
  researchQueue: AppQueue<ResearchProfileJob>;
  embeddingsQueue: AppQueue<EmbeddingsJob>;
  /** Deadline of POST /api/auth/research-direction/process/. */
  syncTimeoutMs: number;
}

/** Builds the research services and registers their routes (analysis, tasks, confirm, vector, stats). */
export async function registerResearchRoutes(
  app: FastifyInstance,
  deps: ResearchDeps & { database: DatabaseHandle; logger: Logger },
): Promise<void> {
  const users = new UserRepository(deps.database.db);
  const profileEmbedding = new ProfileEmbeddingService({
    ai: deps.ai,
    users,
    embeddingsQueue: deps.embeddingsQueue,
    logger: deps.logger,
  });
  const research = new ResearchDirectionService({
    tasks: new AsyncTaskRepository(deps.database.db),
    users,
    ai: deps.ai,
    researchQueue: deps.researchQueue,
    profileEmbedding,
    syncTimeoutMs: deps.syncTimeoutMs,
    logger: deps.logger,
  });
  await app.register(researchDirectionRoutes, { research });
  await app.register(vectorRoutes, { profileEmbedding });
  await app.register(recommendationStatsRoutes, { profileEmbedding });
}
