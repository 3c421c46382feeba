import {
  API_PATHS,
  keywordAddRequestSchema,
  keywordIdParamsSchema,
  keywordListResponseSchema,
  keywordRemoveResponseSchema,
  keywordResponseSchema,
  keywordSuggestionsResponseSchema,
  keywordUpdateSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedRouteTable } from '../../plugins/guarded-route';
import type { KeywordService } from './keyword.service';

/** Suggestions per user: each runs a nearest-neighbour search and a corpus lookup per candidate term. */
const KEYWORD_SUGGESTION_LIMIT = { key: 'keyword-suggestions', max: 30, timeWindow: '1 minute' };

/** The keyword calls of the API (no /api prefix, as the spec writes them). */
export const keywordRoutes: FastifyPluginAsyncZod<{ keywords: KeywordService }> = async (app, { keywords }) => {
  const routes = guardedRouteTable(app, 'keywords');

  routes.get(API_PATHS.keywords, {
    summary: "The caller's keywords with their alert settings, newest first",
    answers: { 200: keywordListResponseSchema },
    handle: async ({ user }) => keywords.list(user),
  });
  routes.post(API_PATHS.addKeyword, {
    summary: 'Follow a keyword (`{ keyword }` or `{ name }`); 409 when already followed, 400 past 50',
    body: keywordAddRequestSchema,
    answers: { 201: keywordResponseSchema },
    errors: [400, 409],
    handle: async ({ user, body }) => keywords.add(user, body),
  });
  routes.post(API_PATHS.removeKeyword, {
    summary: 'Stop following a keyword; 404 for an id that is not one of your keywords',
    params: keywordIdParamsSchema,
    answers: { 200: keywordRemoveResponseSchema },
    errors: [404],
    handle: async ({ user, params }) => keywords.remove(user, params.id),
  });
  routes.patch(API_PATHS.updateKeyword, {
    summary: "A keyword's alert settings: alert_enabled, alert_frequency (daily, weekly), negative_terms",
    params: keywordIdParamsSchema,
    body: keywordUpdateSchema,
    answers: { 200: keywordResponseSchema },
    errors: [400, 404],
    handle: async ({ user, params, body }) => keywords.update(user, params.id, body),
  });
  routes.get(API_PATHS.keywordSuggestions, {
    summary: 'Keywords suggested from your profile and the papers nearest to it; empty without a profile',
    answers: { 200: keywordSuggestionsResponseSchema },
    limit: KEYWORD_SUGGESTION_LIMIT,
    handle: async ({ user }) => keywords.suggest(user),
  });
};
