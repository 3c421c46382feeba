import { defineFeature, route } from '../../feature';
import { newsSearchRoutes } from './news-search.route';
import { NewsSearchService } from './news-search.service';

/** News search, by keyword or meaning. */
export const newsSearchFeature = defineFeature({
  repositories: ['news'],
  services: ({ parts, repositories }) => ({
    newsSearch: new NewsSearchService({
      ai: parts.ai,
      news: repositories.news,
      logger: parts.logger,
      timeZone: parts.config.timeZone,
    }),
  }),
  routes: ({ newsSearch }) => [route(newsSearchRoutes, { newsSearch })],
});
