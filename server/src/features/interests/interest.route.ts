import {
  API_PATHS,
  interestCreateSchema,
  interestListResponseSchema,
  interestParamsSchema,
  interestUpdateSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedRouteTable } from '../../plugins/guarded-route';
import type { InterestService } from './interest.service';

/** Changes per reader: a typed interest is embedded inside the request. */
const INTEREST_CHANGE_LIMIT = { key: 'interest-changes', max: 60, timeWindow: '1 minute' };

/** Not in the spec: the reader's research interests (the research summary first), each answered with the whole list. */
export const interestRoutes: FastifyPluginAsyncZod<{ interests: InterestService }> = async (app, { interests }) => {
  const routes = guardedRouteTable(app, 'interests');
  const list = { 200: interestListResponseSchema };
  const change = { errors: [400, 404], limit: INTEREST_CHANGE_LIMIT } as const;

  routes.get(API_PATHS.interests, {
    summary: "The reader's research interests, the research summary first, with each one's quota and share",
    answers: list,
    handle: async ({ user }) => interests.list(user),
  });
  routes.post(API_PATHS.interests, {
    ...change,
    summary: 'Add an interest from a description (English or Chinese) or from favourites; 400 past five',
    body: interestCreateSchema,
    answers: { 201: interestListResponseSchema },
    handle: async ({ user, body }) => interests.create(user, body),
  });
  routes.patch(API_PATHS.interest, {
    ...change,
    summary: "Rename, edit or set the quota of an interest ('summary': its quota only)",
    params: interestParamsSchema,
    body: interestUpdateSchema,
    answers: list,
    handle: async ({ user, params, body }) => interests.update(user, params.id, body),
  });
  routes.delete(API_PATHS.interest, {
    ...change,
    summary: 'Remove an interest (the research summary stays)',
    params: interestParamsSchema,
    answers: list,
    handle: async ({ user, params }) => interests.remove(user, params.id),
  });
};
