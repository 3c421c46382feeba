import { defineFeature, route } from '../../feature';
import { paperRecommendationRoutes } from './paper-recommendation.route';
import { PaperRecommendationService } from './paper-recommendation.service';
import { recommendationStatsRoutes } from './recommendation-stats.route';
import { RecommendationStatsService } from './recommendation-stats.service';

/** Paper recommendations, similar papers and the recommendation stats (the ranking is @radar/recommend). */
export const paperRecommendationsFeature = defineFeature({
  repositories: ['papers', 'users'],
  services: ({ parts, shared, repositories }) => ({
    recommendationStats: new RecommendationStatsService({ ai: parts.ai, logger: parts.logger }),
    paperRecommendations: new PaperRecommendationService({
      ai: parts.ai,
      papers: repositories.papers,
      users: repositories.users,
      pipeline: shared.pipeline,
      logger: parts.logger,
    }),
  }),
  routes: ({ recommendationStats, paperRecommendations }) => [
    route(recommendationStatsRoutes, { recommendationStats }),
    route(paperRecommendationRoutes, { paperRecommendations }),
  ],
});
