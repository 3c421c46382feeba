import { defineFeature, route } from '../../feature';
import { learningRoutes } from './learning.route';

/**
 * 不感兴趣 (dismiss), ratings and the learned profile. Its service is shared (SharedServices.learning):
 * articles, interests and the ranking ask it to relearn.
 */
export const learningFeature = defineFeature({
  repositories: [],
  services: ({ shared }) => ({ learning: shared.learning }),
  routes: ({ learning }) => [route(learningRoutes, { learning })],
});
