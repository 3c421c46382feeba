import {
  API_PATHS,
  apiErrorSchema,
  articleIdParamsSchema,
  dismissResponseSchema,
  learningStatusResponseSchema,
  ratingRequestSchema,
  ratingResponseSchema,
  ratingThresholdResponseSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import { articleActionLimit } from '../../plugins/keyed-rate-limit';
import type { DismissTarget, LearningService } from './learning.service';

const actionErrors = { 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema };

/** 'Not interested' on papers and news (with undo), and the learning status and reset of /my. */
export const learningRoutes: FastifyPluginAsyncZod<{ learning: LearningService }> = async (app, { learning }) => {
  // The same budget as favourite and save: one small write each, counted per account.
  const actionLimit = articleActionLimit(app);
  const guarded = guardedRoutes(app, 'recommendations');

  const targets: { target: DismissTarget; path: string; tag: string; what: string }[] = [
    { target: 'paper', path: API_PATHS.paperDismiss, tag: 'articles', what: 'paper' },
    { target: 'news', path: API_PATHS.newsDismiss, tag: 'news', what: 'news item' },
  ];
  for (const { target, path, tag, what } of targets) {
    for (const [method, dismissed] of [
      ['POST', true],
      ['DELETE', false],
    ] as const) {
      app.route({
        method,
        url: path,
        ...guardedRoutes(app, tag)(
          {
            summary: dismissed
              ? `Mark the ${what} 'not interested': it is never recommended again and the ranking learns from it`
              : `Undo 'not interested' on the ${what}`,
            params: articleIdParamsSchema,
            response: { 200: dismissResponseSchema, ...actionErrors },
          },
          { preHandler: actionLimit },
        ),
        handler: async (request) => learning.setDismissed(requireUser(request), target, request.params.id, dismissed),
      });
    }
  }

  const ratingTargets: { target: DismissTarget; path: string; tag: string; what: string }[] = [
    { target: 'paper', path: API_PATHS.paperRating, tag: 'articles', what: 'paper' },
    { target: 'news', path: API_PATHS.newsRating, tag: 'news', what: 'news item' },
  ];
  for (const { target, path, tag, what } of ratingTargets) {
    app.post(
      path,
      guardedRoutes(app, tag)(
        {
          summary: `Rate the ${what}: 1 (more like this), -1 (less like this), 0 removes the rating; the ranking learns from it`,
          params: articleIdParamsSchema,
          body: ratingRequestSchema,
          response: { 200: ratingResponseSchema, ...actionErrors },
        },
        { preHandler: actionLimit },
      ),
      async (request) => learning.setRating(requireUser(request), target, request.params.id, request.body.value),
    );
  }

  app.get(
    API_PATHS.ratingThreshold,
    guarded(
      {
        summary:
          "How the reader's rated papers spread over the similarity to the profile, and the highest threshold keeping 90% of the 👍",
        response: {
          200: ratingThresholdResponseSchema,
          400: apiErrorSchema,
          404: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
      {
        // Every rated paper's similarity to the profile, per call: docs/decisions.md, "Per-user quotas".
        config: { userQuota: 'ratingThreshold' },
      },
    ),
    async (request) => learning.ratingThreshold(requireUser(request)),
  );

  app.get(
    API_PATHS.learningStatus,
    guarded({
      summary:
        "How the ranking uses the reader's favourites, saves, reading (>= 50%) and 'not interested' marks since the last reset",
      response: { 200: learningStatusResponseSchema, 404: apiErrorSchema },
    }),
    async (request) => learning.status(requireUser(request)),
  );

  app.post(
    API_PATHS.learningReset,
    guarded(
      {
        summary:
          "Back to the research summary alone: signals so far stop counting; items marked 'not interested' stay hidden",
        response: { 200: learningStatusResponseSchema, 404: apiErrorSchema, 429: apiErrorSchema },
      },
      {
        preHandler: actionLimit,
      },
    ),
    async (request) => learning.reset(requireUser(request)),
  );
};
