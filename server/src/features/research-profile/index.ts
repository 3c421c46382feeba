import { defineFeature, route } from '../../feature';
import { ownWorksRoutes } from './own-works.route';
import { OwnWorksService } from './own-works.service';
import { researchProfileRoutes } from './research-profile.route';
import { ResearchProfileService } from './research-profile.service';
import { vectorRoutes } from './vector.route';

/** The research profile: its analysis (queued and synchronous), its vector, and seeding it from own works. */
export const researchProfileFeature = defineFeature({
  repositories: ['tasks', 'users'],
  services: ({ parts, shared, repositories }) => ({
    research: new ResearchProfileService({
      tasks: repositories.tasks,
      users: repositories.users,
      ai: parts.ai,
      researchQueue: parts.queues.research,
      profileEmbedding: shared.profileEmbedding,
      sources: shared.sourceRequests,
      syncTimeoutMs: parts.config.llm.timeoutMs,
      logger: parts.logger,
    }),
    ownWorks: new OwnWorksService({
      tasks: repositories.tasks,
      queue: parts.queues.ownWorks,
      hasOpenAlexKey: Boolean(parts.config.ingest.openAlexApiKey),
      logger: parts.logger,
    }),
  }),
  routes: ({ research, ownWorks }, { shared }) => [
    route(researchProfileRoutes, { research }),
    route(ownWorksRoutes, { ownWorks }),
    route(vectorRoutes, { profileEmbedding: shared.profileEmbedding }),
  ],
});
