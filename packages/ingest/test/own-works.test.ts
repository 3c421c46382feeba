import {
  type OwnWorksServer,
  RECORDED_OPENALEX_AUTHOR,
  RECORDED_ORCID_ID,
  startOwnWorksServer,
} from '@radar/ingest/testing/own-works';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../src/http';
import { parseAuthorId, parseOrcidId } from '../src/own-works/author-ids';
import { parseLibraryFile } from '../src/own-works/library-file';
import { fetchOpenAlexAuthorWorks } from '../src/own-works/openalex-author';
import { fetchOrcidWorks } from '../src/own-works/orcid';

/**
 * The ORCID iD check, the ORCID and OpenAlex adapters against a local server of recorded answers, and
 * library files as reference managers write them.
 */

describe('author ids', () => {
  it('accepts ORCID iDs with a right ISO 7064 11,2 check character, in any pasted form', () => {
    expect(parseOrcidId('0000-0002-1825-0097')).toBe('0000-0002-1825-0097');
    expect(parseOrcidId('https://orcid.org/0000-0002-7416-5858')).toBe(RECORDED_ORCID_ID);
    expect(parseOrcidId(' 0000000218250097 ')).toBe('0000-0002-1825-0097');
    // ORCID's documented iD with an X check character.
    expect(parseOrcidId('0000-0002-9079-593x')).toBe('0000-0002-9079-593X');
    expect(parseOrcidId('0000-0002-1825-0098')).toBeUndefined();
    expect(parseOrcidId('0000-0002-1825')).toBeUndefined();
  });

  it('tells ORCID iDs from OpenAlex author ids', () => {
    expect(parseAuthorId('https://openalex.org/A5023888391')).toEqual({ kind: 'openalex', id: 'A5023888391' });
    expect(parseAuthorId('0000-0002-1825-0097')).toEqual({ kind: 'orcid', id: '0000-0002-1825-0097' });
    expect(parseAuthorId('W123')).toBeUndefined();
  });
});

describe('adapters against recorded answers', () => {
  let server: OwnWorksServer;
  const http = new HttpClient({
    userAgent: 'test',
    timeoutMs: 5_000,
    maxAttempts: 1,
    retryBaseDelayMs: 10,
    maxRetryAfterMs: 10,
  });
  beforeAll(async () => {
    server = await startOwnWorksServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reads an ORCID record: summary, then the full works in bulk', async () => {
    const { works, total } = await fetchOrcidWorks(http, {
      baseUrl: server.origin,
      orcidId: RECORDED_ORCID_ID,
      limit: 200,
    });
    expect(total).toBe(1);
    expect(works).toHaveLength(1);
    expect(works[0]).toMatchObject({
      title: 'Possibility of entanglement of purification to be less than half of the reflected entropy',
      doi: '10.1103/physreva.109.022426',
      arxivId: '2309.02506',
      publishedAt: '2024-02-20',
      journal: { name: 'Phys.Rev.A' },
      abstract: '',
    });
    expect(works[0]?.authors).toEqual([
      'Josiah Couch',
      'Phuc Nguyen',
      'Sarah Racz',
      'Georgios Stratis',
      'Yuxuan Zhang',
    ]);
    await expect(
      fetchOrcidWorks(http, { baseUrl: server.origin, orcidId: '0000-0002-1825-0097', limit: 200 }),
    ).rejects.toThrow(/404/);
  });

  it("reads an OpenAlex author's works newest first, with the key in the query", async () => {
    const { works, total } = await fetchOpenAlexAuthorWorks(http, {
      baseUrl: server.origin,
      apiKey: 'test-key',
      authorId: RECORDED_OPENALEX_AUTHOR,
      limit: 200,
    });
    expect(total).toBe(4013744);
    expect(works.length).toBe(3);
    expect(works.some((work) => work.abstract.length > 100)).toBe(true);
    const request = server.requests.find((path) => path.startsWith('/works?'));
    expect(request).toContain('sort=publication_date%3Adesc');
    expect(request).toContain('api_key=test-key');
  });
});

describe('library files', () => {
  it('keeps the particles of a name: BibTeX "van der Berg, Jan" is Jan van der Berg', () => {
    const { works } = parseLibraryFile(
      '@article{berg2026,\n  title = {Tidal mixing},\n  author = {van der Berg, Jan and de la Cruz, María and Müller, Jürgen},\n  doi = {10.1000/tides},\n}\n',
    );
    expect(works[0]?.authors).toEqual(['Jan van der Berg', 'María de la Cruz', 'Jürgen Müller']);
  });

  it('takes a preprint server named as publisher or secondary title as a preprint venue, not a journal', () => {
    const ris = [
      'TY  - JOUR',
      'TI  - 大语言模型辅助的文献推荐',
      'T2  - arXiv',
      'UR  - https://arxiv.org/abs/2611.04321',
      'ER  - ',
      'TY  - GEN',
      'TI  - Organoid barrier repair',
      'PB  - bioRxiv',
      'DO  - 10.1101/2026.01.02.123456',
      'ER  - ',
      '',
    ].join('\n');
    const { works } = parseLibraryFile(ris);
    expect(works.map((work) => [work.journal, work.arxivId])).toEqual([
      [{ name: 'arXiv', issns: [], isPreprintServer: true }, '2611.04321'],
      [{ name: 'bioRxiv', issns: [], isPreprintServer: true }, undefined],
    ]);
  });
});
