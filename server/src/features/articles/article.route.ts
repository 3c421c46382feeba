import {
  API_PATHS,
  apiErrorSchema,
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
import { requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import { articleActionLimit, keyedRateLimit } from '../../plugins/keyed-rate-limit';
import type { ArticleService, NamedCitationFile } from './article.service';

/** Library listings and single-paper exports per user (search and the library export have their own quotas). */
const ARTICLE_LIBRARY_LIMIT = { max: 120, timeWindow: '1 minute' };

/** A citation file as a download: its media type and name, never cached (it is the caller's own list). */
const sendFile = (reply: FastifyReply, file: NamedCitationFile) =>
  reply
    .header('cache-control', 'no-store')
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .send(file.body);
const actionErrors = { 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema };

/** Article search, the library and the per-paper actions (favourite, share, read), outside /api/ where the web app requests them. */
export const articleRoutes: FastifyPluginAsyncZod<{ articles: ArticleService }> = async (app, { articles }) => {
  const guarded = guardedRoutes(app, 'articles');
  // Keyed by user (after authentication): the limits follow the account, not the address.
  const libraryLimit = keyedRateLimit(
    app,
    ARTICLE_LIBRARY_LIMIT,
    (request) => `article-search:${request.currentUser?.id}`,
  );
  const actionLimit = articleActionLimit(app);

  app.get(
    API_PATHS.articleSearch,
    guarded(
      {
        summary: 'Full-text search over papers: every keyword must match (AND), most relevant first, then newest',
        querystring: articleSearchQuerySchema,
        response: { 200: articleSearchResponseSchema, 400: apiErrorSchema, 429: apiErrorSchema },
      },
      {
        // Its budget and concurrency cap per reader: docs/decisions.md, "Per-user quotas".
        config: { userQuota: 'articleSearch' },
      },
    ),
    async (request) => articles.search(requireUser(request), request.query),
  );

  app.get(
    API_PATHS.articleLibrary,
    guarded(
      {
        summary: "The caller's favourited and saved papers (list=all|favorited|saved), most recently marked first",
        querystring: articleLibraryQuerySchema,
        response: { 200: articleLibraryResponseSchema, 400: apiErrorSchema, 429: apiErrorSchema },
      },
      { preHandler: libraryLimit },
    ),
    async (request) => articles.library(requireUser(request), request.query),
  );

  // Exports: the answer is the file's text (BibTeX, RIS or CSL-JSON) under its own media type.
  app.get(
    API_PATHS.articleLibraryExport,
    guarded(
      {
        summary:
          "The caller's favourites, saved papers or both (list=all|favorited|saved) as a citation file: format=bibtex|ris|csljson (a .bib, .ris or CSL-JSON .json attachment; empty list, empty file)",
        querystring: articleLibraryExportQuerySchema,
        response: { 200: citationFileSchema, 400: apiErrorSchema, 429: apiErrorSchema },
      },
      { config: { userQuota: 'libraryExports' } },
    ),
    async (request, reply) => sendFile(reply, await articles.exportLibrary(requireUser(request), request.query)),
  );

  app.get(
    API_PATHS.articleExport,
    guarded(
      {
        summary: 'One paper as a citation file: format=bibtex|ris|csljson (a .bib, .ris or CSL-JSON .json attachment)',
        params: articleIdParamsSchema,
        querystring: articleExportQuerySchema,
        response: {
          200: citationFileSchema,
          400: apiErrorSchema,
          404: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
      { preHandler: libraryLimit },
    ),
    async (request, reply) =>
      sendFile(reply, await articles.exportPaper(requireUser(request), request.params.id, request.query)),
  );

  // The three toggles and share: the same guard, limit and errors, one service call on the paper id.
  const actions = [
    {
      path: API_PATHS.articleFavorite,
      summary: "Toggle the paper in the user's favourites; returns the new state",
      response: articleFavoriteResponseSchema,
      run: articles.toggleFavorite.bind(articles),
    },
    {
      path: API_PATHS.articleSave,
      summary: "Toggle the paper in the user's saved papers; returns the new state",
      response: articleSaveResponseSchema,
      run: articles.toggleSaved.bind(articles),
    },
    {
      path: API_PATHS.articleShare,
      summary: 'A link that opens the paper (its page, else its DOI link); counts the share',
      response: articleShareResponseSchema,
      run: articles.share.bind(articles),
    },
  ] as const;
  for (const action of actions) {
    app.post(
      action.path,
      guarded(
        {
          summary: action.summary,
          params: articleIdParamsSchema,
          response: { 200: action.response, ...actionErrors },
        },
        { preHandler: actionLimit },
      ),
      async (request) => action.run(requireUser(request), request.params.id),
    );
  }

  app.post(
    API_PATHS.articleRead,
    guarded(
      {
        summary: 'Record reading progress (0-100); the furthest progress is kept and returned',
        params: articleIdParamsSchema,
        body: articleReadRequestSchema,
        response: { 200: articleReadResponseSchema, ...actionErrors },
      },
      { preHandler: actionLimit },
    ),
    async (request) => articles.recordRead(requireUser(request), request.params.id, request.body.progress),
  );
};
