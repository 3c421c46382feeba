import {
  API_PATHS,
  apiErrorSchema,
  ownWorksAuthorIdRequestSchema,
  ownWorksLibraryRequestSchema,
  taskSubmittedResponseSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import type { OwnWorksService } from './own-works.service';

/** A 2 MB file grows a little as a JSON string (escaped quotes, backslashes and line ends). */
const LIBRARY_BODY_LIMIT = 3 * 1024 * 1024;

const responses = {
  202: taskSubmittedResponseSchema,
  400: apiErrorSchema,
  413: apiErrorSchema,
  429: apiErrorSchema,
  503: apiErrorSchema,
};

export const ownWorksRoutes: FastifyPluginAsyncZod<{ ownWorks: OwnWorksService }> = async (app, { ownWorks }) => {
  const guarded = guardedRoutes(app, 'research');
  // Seedings per reader (the `ownWorks` quota, OWN_WORKS_LIMITS.perHour): each may fetch up to 200 works
  // from ORCID or OpenAlex, look up abstracts by DOI and run the research analysis (maybe a paid LLM
  // call). ORCID, OpenAlex and files share the count, one running at a time.
  const quota = { userQuota: 'ownWorks' } as const;

  app.post(
    API_PATHS.researchFromAuthorId,
    guarded(
      {
        summary: "Seed the profile from the reader's works: an ORCID iD, or an OpenAlex author id (with the key)",
        body: ownWorksAuthorIdRequestSchema,
        response: responses,
      },
      { config: quota },
    ),
    async (request, reply) =>
      reply.status(202).send(await ownWorks.submitAuthorId(requireUser(request), request.body.author_id)),
  );

  app.post(
    API_PATHS.researchFromLibrary,
    guarded(
      {
        summary: 'Seed the profile from a library export file (BibTeX, RIS or CSL-JSON text, at most 2 MB)',
        body: ownWorksLibraryRequestSchema,
        response: responses,
      },
      { config: quota, bodyLimit: LIBRARY_BODY_LIMIT },
    ),
    async (request, reply) =>
      reply
        .status(202)
        .send(await ownWorks.submitLibraryFile(requireUser(request), request.body.file_name, request.body.content)),
  );
};
