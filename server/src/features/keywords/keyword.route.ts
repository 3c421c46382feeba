import {
  API_PATHS,
  apiErrorSchema,
  keywordAddRequestSchema,
  keywordIdParamsSchema,
  keywordListResponseSchema,
  keywordRemoveResponseSchema,
  keywordResponseSchema,
  keywordSuggestionsResponseSchema,
  keywordUpdateSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import { keyedRateLimit } from '../../plugins/keyed-rate-limit';
import type { KeywordService } from './keyword.service';

/** Suggestions per user: each runs a nearest-neighbour search and a corpus lookup per candidate term. */
const KEYWORD_SUGGESTION_LIMIT = { max: 30, timeWindow: '1 minute' };

/** The keyword calls of the API (no /api prefix, as the spec writes them). */
export const keywordRoutes: FastifyPluginAsyncZod<{ keywords: KeywordService }> = async (app, { keywords }) => {
  const guarded = guardedRoutes(app, 'keywords');
  const suggestionLimit = keyedRateLimit(
    app,
    KEYWORD_SUGGESTION_LIMIT,
    (request) => `keyword-suggestions:${request.currentUser?.id ?? request.ip}`,
  );

  app.get(
    API_PATHS.keywords,
    guarded({
      summary: "The caller's keywords with their alert settings, newest first",
      response: { 200: keywordListResponseSchema },
    }),
    async (request) => keywords.list(requireUser(request)),
  );

  app.post(
    API_PATHS.addKeyword,
    guarded({
      summary: 'Follow a keyword (`{ keyword }` or `{ name }`); 409 when already followed, 400 past 50',
      body: keywordAddRequestSchema,
      response: { 201: keywordResponseSchema, 400: apiErrorSchema, 409: apiErrorSchema },
    }),
    async (request, reply) => reply.status(201).send(await keywords.add(requireUser(request), request.body)),
  );

  app.post(
    API_PATHS.removeKeyword,
    guarded({
      summary: 'Stop following a keyword; 404 for an id that is not one of your keywords',
      params: keywordIdParamsSchema,
      response: { 200: keywordRemoveResponseSchema, 404: apiErrorSchema },
    }),
    async (request) => keywords.remove(requireUser(request), request.params.id),
  );

  app.patch(
    API_PATHS.updateKeyword,
    guarded({
      summary: "A keyword's alert settings: alert_enabled, alert_frequency (daily, weekly), negative_terms",
      params: keywordIdParamsSchema,
      body: keywordUpdateSchema,
      response: { 200: keywordResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema },
    }),
    async (request) => keywords.update(requireUser(request), request.params.id, request.body),
  );

  app.get(
    API_PATHS.keywordSuggestions,
    guarded(
      {
        summary: 'Keywords suggested from your profile and the papers nearest to it; empty without a profile',
        response: { 200: keywordSuggestionsResponseSchema, 429: apiErrorSchema },
      },
      { preHandler: suggestionLimit },
    ),
    async (request) => keywords.suggest(requireUser(request)),
  );
};
