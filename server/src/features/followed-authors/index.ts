import { defineFeature, route } from '../../feature';
import { followedAuthorRoutes } from './followed-author.route';
import { FollowedAuthorService } from './followed-author.service';

/** The authors the reader follows. */
export const followedAuthorsFeature = defineFeature({
  repositories: ['followedAuthors'],
  services: ({ repositories }) => ({
    followedAuthors: new FollowedAuthorService({ followedAuthors: repositories.followedAuthors }),
  }),
  routes: ({ followedAuthors }) => [route(followedAuthorRoutes, { followedAuthors })],
});
