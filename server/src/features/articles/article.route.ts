import {
  API_PATHS,
  articleExportQuerySchema,
  articleFavoriteResponseSchema,
  articleIdParamsSchema,
  articleLibraryExportQuerySchema,
  articleLibraryQuerySchema,
  articleLibraryResponseSchema,
  articleReadRequestSchema,
  articleReadResponseSchema,
  articleSaveResponseSchema,
  articleSearchQuerySchema,
  articleSearchResponseSchema,
  articleShareResponseSchema,
  citationFileSchema,
} from '@radar/shared';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedRouteTable } from '../../plugins/guarded-route';
import { ARTICLE_ACTION_LIMIT } from '../../plugins/keyed-rate-limit';
import type { ArticleService, NamedCitationFile } from './article.service';

/** Library listings and single-paper exports per user (search and the library export have their own quotas). */
const ARTICLE_LIBRARY_LIMIT = { key: 'article-search', max: 120, timeWindow: '1 minute' };

/** A citation file as a download: its media type and name, never cached (it is the caller's own list). */
const sendFile = (reply: FastifyReply, file: NamedCitationFile) =>
  reply
    .header('cache-control', 'no-store')
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .send(file.body);

/** Article search, the library and the per-paper actions (favourite, share, read), outside /api/ where the web app requests them. */
export const articleRoutes: FastifyPluginAsyncZod<{ articles: ArticleService }> = async (app, { articles }) => {
  const routes = guardedRouteTable(app, 'articles');

  routes.get(API_PATHS.articleSearch, {
    summary: 'Full-text search over papers: every keyword must match (AND), most relevant first, then newest',
    query: articleSearchQuerySchema,
    answers: { 200: articleSearchResponseSchema },
    errors: [400],
    // Its budget and concurrency cap per reader: docs/decisions.md, "Per-user quotas".
    config: { userQuota: 'articleSearch' },
    handle: async ({ user, query }) => articles.search(user, query),
  });
  // Keyed by user (after authentication): the limits follow the account, not the address.
  routes.get(API_PATHS.articleLibrary, {
    summary: "The caller's favourited and saved papers (list=all|favorited|saved), most recently marked first",
    query: articleLibraryQuerySchema,
    answers: { 200: articleLibraryResponseSchema },
    errors: [400],
    limit: ARTICLE_LIBRARY_LIMIT,
    handle: async ({ user, query }) => articles.library(user, query),
  });

  // Exports: the answer is the file's text (BibTeX, RIS or CSL-JSON) under its own media type.
  routes.get(API_PATHS.articleLibraryExport, {
    summary:
      "The caller's favourites, saved papers or both (list=all|favorited|saved) as a citation file: format=bibtex|ris|csljson (a .bib, .ris or CSL-JSON .json attachment; empty list, empty file)",
    query: articleLibraryExportQuerySchema,
    answers: { 200: citationFileSchema },
    errors: [400],
    config: { userQuota: 'libraryExports' },
    handle: async ({ user, query, reply }) => sendFile(reply, await articles.exportLibrary(user, query)),
  });
  routes.get(API_PATHS.articleExport, {
    summary: 'One paper as a citation file: format=bibtex|ris|csljson (a .bib, .ris or CSL-JSON .json attachment)',
    params: articleIdParamsSchema,
    query: articleExportQuerySchema,
    answers: { 200: citationFileSchema },
    errors: [400, 404],
    limit: ARTICLE_LIBRARY_LIMIT,
    handle: async ({ user, params, query, reply }) =>
      sendFile(reply, await articles.exportPaper(user, params.id, query)),
  });

  // The three toggles, share and read: the same guard, budget and errors, one service call on the paper id.
  const action = { params: articleIdParamsSchema, errors: [400, 404], limit: ARTICLE_ACTION_LIMIT } as const;
  routes.post(API_PATHS.articleFavorite, {
    ...action,
    summary: "Toggle the paper in the user's favourites; returns the new state",
    answers: { 200: articleFavoriteResponseSchema },
    handle: async ({ user, params }) => articles.toggleFavorite(user, params.id),
  });
  routes.post(API_PATHS.articleSave, {
    ...action,
    summary: "Toggle the paper in the user's saved papers; returns the new state",
    answers: { 200: articleSaveResponseSchema },
    handle: async ({ user, params }) => articles.toggleSaved(user, params.id),
  });
  routes.post(API_PATHS.articleShare, {
    ...action,
    summary: 'A link that opens the paper (its page, else its DOI link); counts the share',
    answers: { 200: articleShareResponseSchema },
    handle: async ({ user, params }) => articles.share(user, params.id),
  });
  routes.post(API_PATHS.articleRead, {
    ...action,
    summary: 'Record reading progress (0-100); the furthest progress is kept and returned',
    body: articleReadRequestSchema,
    answers: { 200: articleReadResponseSchema },
    handle: async ({ user, params, body }) => articles.recordRead(user, params.id, body.progress),
  });
};
