import {
  API_PATHS,
  apiErrorSchema,
  followAuthorRequestSchema,
  followAuthorResponseSchema,
  followedAuthorListResponseSchema,
  followedAuthorParamsSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import { keyedRateLimit } from '../../plugins/keyed-rate-limit';
import type { FollowedAuthorService } from './followed-author.service';

/** Follows and unfollows per reader and minute: clicks, not a crawler. */
const FOLLOW_CHANGE_LIMIT = { max: 60, timeWindow: '1 minute' };

const changeErrors = { 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema };

/** Not in the spec: the authors the reader follows; every answer holds the whole list. */
export const followedAuthorRoutes: FastifyPluginAsyncZod<{ followedAuthors: FollowedAuthorService }> = async (
  app,
  { followedAuthors },
) => {
  const guarded = guardedRoutes(app, 'followed-authors');
  const changeLimit = keyedRateLimit(
    app,
    FOLLOW_CHANGE_LIMIT,
    (request) => `author-follows:${request.currentUser?.id ?? request.ip}`,
  );

  app.get(
    API_PATHS.followedAuthors,
    guarded({
      summary: 'The authors the reader follows, oldest first',
      response: { 200: followedAuthorListResponseSchema },
    }),
    async (request) => followedAuthors.list(requireUser(request)),
  );

  app.post(
    API_PATHS.followedAuthors,
    guarded(
      {
        summary:
          "Follow author `author_index` of paper `paper_id` (with the ORCID iD, OpenAlex id and affiliation the paper's source gave); 201 new, 200 already followed, 400 past 50",
        body: followAuthorRequestSchema,
        response: { 200: followAuthorResponseSchema, 201: followAuthorResponseSchema, ...changeErrors },
      },
      { preHandler: changeLimit },
    ),
    async (request, reply) => {
      const { created, body } = await followedAuthors.follow(requireUser(request), request.body);
      return reply.status(created ? 201 : 200).send(body);
    },
  );

  app.delete(
    API_PATHS.followedAuthor,
    guarded(
      {
        summary: 'Unfollow an author',
        params: followedAuthorParamsSchema,
        response: { 200: followedAuthorListResponseSchema, ...changeErrors },
      },
      { preHandler: changeLimit },
    ),
    async (request) => followedAuthors.unfollow(requireUser(request), request.params.id),
  );
};
