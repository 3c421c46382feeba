import {
  API_PATHS,
  apiErrorSchema,
  interestCreateSchema,
  interestListResponseSchema,
  interestParamsSchema,
  interestUpdateSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import { keyedRateLimit } from '../../plugins/keyed-rate-limit';
import type { InterestService } from './interest.service';

/** Changes per reader: a typed interest is embedded inside the request. */
const INTEREST_CHANGE_LIMIT = { max: 60, timeWindow: '1 minute' };

const changeErrors = { 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema };

/** Not in the spec: the reader's research interests (the research summary first), each answered with the whole list. */
export const interestRoutes: FastifyPluginAsyncZod<{ interests: InterestService }> = async (app, { interests }) => {
  const guarded = guardedRoutes(app, 'interests');
  const changeLimit = keyedRateLimit(
    app,
    INTEREST_CHANGE_LIMIT,
    (request) => `interest-changes:${request.currentUser?.id ?? request.ip}`,
  );

  app.get(
    API_PATHS.interests,
    guarded({
      summary: "The reader's research interests, the research summary first, with each one's quota and share",
      response: { 200: interestListResponseSchema },
    }),
    async (request) => interests.list(requireUser(request)),
  );

  app.post(
    API_PATHS.interests,
    guarded(
      {
        summary: 'Add an interest from a description (English or Chinese) or from favourites; 400 past five',
        body: interestCreateSchema,
        response: { 201: interestListResponseSchema, ...changeErrors },
      },
      { preHandler: changeLimit },
    ),
    async (request, reply) => reply.status(201).send(await interests.create(requireUser(request), request.body)),
  );

  app.patch(
    API_PATHS.interest,
    guarded(
      {
        summary: "Rename, edit or set the quota of an interest ('summary': its quota only)",
        params: interestParamsSchema,
        body: interestUpdateSchema,
        response: { 200: interestListResponseSchema, ...changeErrors },
      },
      { preHandler: changeLimit },
    ),
    async (request) => interests.update(requireUser(request), request.params.id, request.body),
  );

  app.delete(
    API_PATHS.interest,
    guarded(
      {
        summary: 'Remove an interest (the research summary stays)',
        params: interestParamsSchema,
        response: { 200: interestListResponseSchema, ...changeErrors },
      },
      { preHandler: changeLimit },
    ),
    async (request) => interests.remove(requireUser(request), request.params.id),
  );
};
