import { defineFeature, route } from '../../feature';
import { newsRecommendationRoutes } from './news-recommendation.route';
import { NewsRecommendationService } from './news-recommendation.service';

/** Recommended news (ranked by the shared pipeline). */
export const newsRecommendationsFeature = defineFeature({
  repositories: [],
  services: ({ shared }) => ({ newsRecommendations: new NewsRecommendationService({ pipeline: shared.pipeline }) }),
  routes: ({ newsRecommendations }) => [route(newsRecommendationRoutes, { newsRecommendations })],
});
