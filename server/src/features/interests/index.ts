import { defineFeature, route } from '../../feature';
import { interestRoutes } from './interest.route';
import { InterestService } from './interest.service';

/** The reader's research interests besides the summary. */
export const interestsFeature = defineFeature({
  repositories: ['interests'],
  services: ({ parts, shared, repositories }) => ({
    interests: new InterestService({
      interests: repositories.interests,
      ai: parts.ai,
      logger: parts.logger,
      requestRelearn: (userId) => shared.learning.requestRelearn(userId),
    }),
  }),
  routes: ({ interests }) => [route(interestRoutes, { interests })],
});
