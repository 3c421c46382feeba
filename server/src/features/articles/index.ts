import { defineFeature, route } from '../../feature';
import { articleRoutes } from './article.route';
import { ArticleService } from './article.service';

/** Search, the library, favourite/save/share/read, citation files. */
export const articlesFeature = defineFeature({
  repositories: ['articles'],
  services: ({ parts, options, shared, repositories }) => ({
    articles: new ArticleService(repositories.articles, (userId) => shared.learning.requestRelearn(userId), {
      now: options.clock,
      timeZone: parts.config.timeZone,
    }),
  }),
  routes: ({ articles }) => [route(articleRoutes, { articles })],
});
