import {
  API_PATHS,
  apiErrorSchema,
  researchConfirmRequestSchema,
  researchConfirmResponseSchema,
  researchDescriptionRequestSchema,
  researchProcessResponseSchema,
  taskIdParamsSchema,
  taskStatusResponseSchema,
  taskSubmittedResponseSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import { keyedRateLimit } from '../../plugins/keyed-rate-limit';
import type { ResearchProfileService } from './research-profile.service';

/** Analyses per user: each may call an LLM, which costs money and time. */
const RESEARCH_ANALYSIS_LIMIT = { max: 20, timeWindow: '1 hour' };
/** Profile saves per user: each writes the profile and computes its embedding (possibly a paid API call). */
export const RESEARCH_CONFIRM_LIMIT = { max: 30, timeWindow: '1 hour' };

export const researchProfileRoutes: FastifyPluginAsyncZod<{ research: ResearchProfileService }> = async (
  app,
  { research },
) => {
  const guarded = guardedRoutes(app, 'research');
  // Keyed by user (after authentication), so one account cannot run up the LLM bill from many addresses.
  const analysisLimit = keyedRateLimit(
    app,
    RESEARCH_ANALYSIS_LIMIT,
    (request) => `research-analysis:${request.currentUser?.id ?? request.ip}`,
  );
  const confirmLimit = keyedRateLimit(
    app,
    RESEARCH_CONFIRM_LIMIT,
    (request) => `research-confirm:${request.currentUser?.id ?? request.ip}`,
  );

  app.post(
    API_PATHS.researchAnalysisAsync,
    guarded(
      {
        summary: 'Queue an analysis of pasted homepage text; poll the task for the result',
        body: researchDescriptionRequestSchema,
        response: { 202: taskSubmittedResponseSchema, 400: apiErrorSchema, 429: apiErrorSchema },
      },
      { preHandler: analysisLimit },
    ),
    async (request, reply) =>
      reply.status(202).send(await research.submit(requireUser(request), request.body.research_description)),
  );

  app.post(
    API_PATHS.researchAnalysis,
    guarded(
      {
        summary: 'Analyse pasted homepage text within this request (with a deadline)',
        body: researchDescriptionRequestSchema,
        response: {
          200: researchProcessResponseSchema,
          400: apiErrorSchema,
          429: apiErrorSchema,
          502: apiErrorSchema,
          504: apiErrorSchema,
        },
      },
      { preHandler: analysisLimit },
    ),
    async (request) => research.processNow(requireUser(request), request.body.research_description),
  );

  app.get(
    API_PATHS.taskStatus,
    guarded({
      summary: "A task's status, progress, error message and result; visible to its owner only",
      params: taskIdParamsSchema,
      response: { 200: taskStatusResponseSchema, 404: apiErrorSchema },
    }),
    async (request) => research.status(requireUser(request), request.params.id),
  );

  app.post(
    API_PATHS.researchConfirm,
    guarded(
      {
        summary: 'Save the research profile fields and recompute the profile vector',
        body: researchConfirmRequestSchema,
        response: { 200: researchConfirmResponseSchema, 400: apiErrorSchema, 429: apiErrorSchema },
      },
      { preHandler: confirmLimit },
    ),
    async (request) => research.confirm(requireUser(request), request.body),
  );
};
