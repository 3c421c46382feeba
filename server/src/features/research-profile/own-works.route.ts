import {
  API_PATHS,
  ownWorksAuthorIdRequestSchema,
  ownWorksLibraryRequestSchema,
  taskSubmittedResponseSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedRouteTable } from '../../plugins/guarded-route';
import type { OwnWorksService } from './own-works.service';

/** A 2 MB file grows a little as a JSON string (escaped quotes, backslashes and line ends). */
const LIBRARY_BODY_LIMIT = 3 * 1024 * 1024;

export const ownWorksRoutes: FastifyPluginAsyncZod<{ ownWorks: OwnWorksService }> = async (app, { ownWorks }) => {
  const routes = guardedRouteTable(app, 'research');
  // Seedings per reader (the `ownWorks` quota, OWN_WORKS_LIMITS.perHour): each may fetch up to 200 works
  // from ORCID or OpenAlex, look up abstracts by DOI and run the research analysis (maybe a paid LLM
  // call). ORCID, OpenAlex and files share the count, one running at a time.
  const seeding = {
    answers: { 202: taskSubmittedResponseSchema },
    errors: [400, 413, 503],
    config: { userQuota: 'ownWorks' },
  } as const;

  routes.post(API_PATHS.researchFromAuthorId, {
    ...seeding,
    summary: "Seed the profile from the reader's works: an ORCID iD, or an OpenAlex author id (with the key)",
    body: ownWorksAuthorIdRequestSchema,
    handle: async ({ user, body }) => ownWorks.submitAuthorId(user, body.author_id),
  });
  routes.post(API_PATHS.researchFromLibrary, {
    ...seeding,
    summary: 'Seed the profile from a library export file (BibTeX, RIS or CSL-JSON text, at most 2 MB)',
    body: ownWorksLibraryRequestSchema,
    bodyLimit: LIBRARY_BODY_LIMIT,
    handle: async ({ user, body }) => ownWorks.submitLibraryFile(user, body.file_name, body.content),
  });
};
