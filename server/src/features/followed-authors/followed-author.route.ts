import {
  API_PATHS,
  followAuthorRequestSchema,
  followAuthorResponseSchema,
  followedAuthorListResponseSchema,
  followedAuthorParamsSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedRouteTable } from '../../plugins/guarded-route';
import type { FollowedAuthorService } from './followed-author.service';

/** Follows and unfollows per reader and minute: clicks, not a crawler. */
const FOLLOW_CHANGE_LIMIT = { key: 'author-follows', max: 60, timeWindow: '1 minute' };

/** Not in the spec: the authors the reader follows; every answer holds the whole list. */
export const followedAuthorRoutes: FastifyPluginAsyncZod<{ followedAuthors: FollowedAuthorService }> = async (
  app,
  { followedAuthors },
) => {
  const routes = guardedRouteTable(app, 'followed-authors');
  const change = { errors: [400, 404], limit: FOLLOW_CHANGE_LIMIT } as const;

  routes.get(API_PATHS.followedAuthors, {
    summary: 'The authors the reader follows, oldest first',
    answers: { 200: followedAuthorListResponseSchema },
    handle: async ({ user }) => followedAuthors.list(user),
  });
  routes.post(API_PATHS.followedAuthors, {
    ...change,
    summary:
      "Follow author `author_index` of paper `paper_id` (with the ORCID iD, OpenAlex id and affiliation the paper's source gave); 201 new, 200 already followed, 400 past 50",
    body: followAuthorRequestSchema,
    answers: { 200: followAuthorResponseSchema, 201: followAuthorResponseSchema },
    handle: async ({ user, body, reply }) => {
      const { created, body: answer } = await followedAuthors.follow(user, body);
      reply.status(created ? 201 : 200);
      return answer;
    },
  });
  routes.delete(API_PATHS.followedAuthor, {
    ...change,
    summary: 'Unfollow an author',
    params: followedAuthorParamsSchema,
    answers: { 200: followedAuthorListResponseSchema },
    handle: async ({ user, params }) => followedAuthors.unfollow(user, params.id),
  });
};
