import { IngestPaperRepository, PaperRepository, UserRepository } from '@radar/db';
import { articleLibraryResponseSchema, articleSearchResponseSchema } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * The same paper stored twice (an arXiv preprint and its journal version, two identifiers that cannot
 * share a row) over HTTP: once linked, search shows one card, the journal record, and the favourite
 * given to the preprint shows on it, in search and in the library.
 */

let runtime: TestRuntime;
let headers: Record<string, string>;
let preprintId: string;
let journalId: string;
const KEY = 'diffusion models for weather nowcasting|wang';

beforeAll(async () => {
  // No in-process worker: nothing here runs a job, and its start is most of a runtime's boot.
  runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
  const base = {
    title: 'Diffusion Models for Weather Nowcasting',
    authors: ['Wang Fang', 'Peter Müller'],
    abstract: 'Nowcasting radar echoes with diffusion models.',
    titleAuthorKey: KEY,
    source: 'test',
  };
  const [preprint, journal] = await new PaperRepository(runtime.database.db).insertMany([
    { ...base, arxivId: '2602.02222', journalName: 'arXiv', url: 'https://arxiv.org/abs/2602.02222' },
    { ...base, doi: '10.1175/waf-d-26-0001.1', journalName: 'Weather and Forecasting', jcrTier: 2 },
  ]);
  preprintId = String(preprint?.id);
  journalId = String(journal?.id);
  const user = await new UserRepository(runtime.database.db).create({
    email: 'dup@example.org',
    isEmailVerified: true,
  });
  headers = { authorization: `Bearer ${await runtime.app.signIn(user)}` };
});

afterAll(async () => {
  await runtime?.stop();
});

const search = async () => {
  const response = await runtime.app.inject({ method: 'GET', url: '/articles/search/?q=nowcasting', headers });
  expect(response.statusCode, response.body).toBe(200);
  return articleSearchResponseSchema.parse(response.json());
};

describe('one paper stored twice', () => {
  it('shows one card, the journal record, carrying the favourite given to the preprint', async () => {
    expect((await search()).count).toBe(2);
    const favorite = await runtime.app.inject({ method: 'POST', url: `/articles/${preprintId}/favorite/`, headers });
    expect(favorite.json()).toMatchObject({ is_favorited: true });

    await new IngestPaperRepository(runtime.database.db).linkDuplicates(KEY);

    const body = await search();
    expect(body.count).toBe(1);
    expect(body.results[0]).toMatchObject({ id: journalId, journal: 'Weather and Forecasting', is_favorited: true });
    const library = await runtime.app.inject({ method: 'GET', url: '/articles/library/', headers });
    expect(library.statusCode, library.body).toBe(200);
    const listed = articleLibraryResponseSchema.parse(library.json());
    expect(listed.results.map((paper) => [paper.id, paper.is_favorited])).toEqual([[journalId, true]]);
  });

  it('offers the preprint link of a merged journal record, and none when the link is the preprint', async () => {
    const [merged, alone] = await new PaperRepository(runtime.database.db).insertMany([
      {
        title: 'Graph priors for nowcasting convective storms',
        authors: ['Li Na'],
        abstract: 'Nowcasting storms with graph priors.',
        source: 'test',
        doi: '10.1175/waf-d-26-0002.1',
        arxivId: '2602.03333',
        journalName: 'Weather and Forecasting',
        url: 'https://journals.ametsoc.org/view/waf-d-26-0002.1',
        sourceIds: { preprintUrl: 'https://arxiv.org/abs/2602.03333v2' },
      },
      {
        title: 'Optical flow baselines for nowcasting',
        authors: ['Zhao Lei'],
        abstract: 'Nowcasting with optical flow.',
        source: 'test',
        arxivId: '2602.04444',
        journalName: 'arXiv',
        url: 'https://arxiv.org/abs/2602.04444',
      },
    ]);
    const results = (await search()).results;
    expect(results.find((paper) => paper.id === String(merged?.id))).toMatchObject({
      url: 'https://journals.ametsoc.org/view/waf-d-26-0002.1',
      preprint_url: 'https://arxiv.org/abs/2602.03333v2',
    });
    expect(results.find((paper) => paper.id === String(alone?.id))).toMatchObject({
      url: 'https://arxiv.org/abs/2602.04444',
      preprint_url: null,
    });
  });
});
