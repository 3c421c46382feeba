import {
  API_PATHS,
  researchConfirmRequestSchema,
  researchConfirmResponseSchema,
  researchDescriptionRequestSchema,
  researchProcessResponseSchema,
  taskIdParamsSchema,
  taskStatusResponseSchema,
  taskSubmittedResponseSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedRouteTable } from '../../plugins/guarded-route';
import type { ResearchProfileService } from './research-profile.service';

/** Analyses per user: each may call an LLM, which costs money and time. */
const RESEARCH_ANALYSIS_LIMIT = { key: 'research-analysis', max: 20, timeWindow: '1 hour' };
/** Profile saves per user: each writes the profile and computes its embedding (possibly a paid API call). */
export const RESEARCH_CONFIRM_LIMIT = { key: 'research-confirm', max: 30, timeWindow: '1 hour' };

export const researchProfileRoutes: FastifyPluginAsyncZod<{ research: ResearchProfileService }> = async (
  app,
  { research },
) => {
  const routes = guardedRouteTable(app, 'research');
  // Keyed by user (after authentication), so one account cannot run up the LLM bill from many addresses;
  // the queued and the synchronous analysis spend the same budget.
  const analysis = { body: researchDescriptionRequestSchema, limit: RESEARCH_ANALYSIS_LIMIT } as const;

  routes.post(API_PATHS.researchAnalysisAsync, {
    ...analysis,
    summary: 'Queue an analysis of pasted homepage text; poll the task for the result',
    answers: { 202: taskSubmittedResponseSchema },
    errors: [400],
    handle: async ({ user, body }) => research.submit(user, body.research_description),
  });
  routes.post(API_PATHS.researchAnalysis, {
    ...analysis,
    summary: 'Analyse pasted homepage text within this request (with a deadline)',
    answers: { 200: researchProcessResponseSchema },
    errors: [400, 502, 504],
    handle: async ({ user, body }) => research.processNow(user, body.research_description),
  });
  routes.get(API_PATHS.taskStatus, {
    summary: "A task's status, progress, error message and result; visible to its owner only",
    params: taskIdParamsSchema,
    answers: { 200: taskStatusResponseSchema },
    errors: [404],
    handle: async ({ user, params }) => research.status(user, params.id),
  });
  routes.post(API_PATHS.researchConfirm, {
    summary: 'Save the research profile fields and recompute the profile vector',
    body: researchConfirmRequestSchema,
    answers: { 200: researchConfirmResponseSchema },
    errors: [400],
    limit: RESEARCH_CONFIRM_LIMIT,
    handle: async ({ user, body }) => research.confirm(user, body),
  });
};
