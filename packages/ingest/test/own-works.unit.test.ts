import {
  type OwnWorksServer,
  RECORDED_OPENALEX_AUTHOR,
  RECORDED_ORCID_ID,
  startOwnWorksServer,
} from '@radar/ingest/testing/own-works';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../src/adapters/http';
import { parseAuthorId, parseOrcidId } from '../src/own-works/author-ids';
import { LibraryFileError, parseLibraryFile } from '../src/own-works/library-file';
import { parseLibraryFileOffThread } from '../src/own-works/library-parse-thread';
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

  it('refuses NUL, lone surrogates and non-characters in every format with one message, escaped or not', () => {
    const message = '文件内容包含无效字符';
    const bibtex = (title: string) => `@article{a,\n  title = {${title}},\n  doi = {10.1000/x},\n}\n`;
    const ris = (title: string) => `TY  - JOUR\nTI  - ${title}\nDO  - 10.1000/x\nER  - \n`;
    const files = [
      JSON.stringify([{ title: 'Nul \u0000 inside', DOI: '10.1000/x' }]),
      '[{"title": "A lone \\ud800 surrogate", "DOI": "10.1000/x"}]',
      '[{"title": "A lone low \\udc00", "DOI": "10.1000/x"}]',
      '[{"title": "Not a character \\uffff", "DOI": "10.1000/x"}]',
      '[{"title": "Fine", "note\\u0000": "a NUL in a key"}]',
      JSON.stringify([{ title: 'Deep', author: [{ family: 'Plane 16 \u{10FFFF}' }] }]),
      bibtex('Not a character \uFFFE'),
      bibtex('Nul \u0000'),
      ris('Not a character \uFDD0'),
    ];
    for (const file of files) {
      expect(() => parseLibraryFile(file), file).toThrow(new LibraryFileError(message));
    }
    // Bidi overrides and zero-width characters leave titles and names, as from every source.
    const spoofed = parseLibraryFile(
      JSON.stringify([
        { title: 'Reef \u202Egnol\u202C survey\u200B', author: [{ literal: 'Li\u2066 Hua' }], DOI: '10.1000/x' },
      ]),
    ).works[0];
    expect([spoofed?.title, spoofed?.authors]).toEqual(['Reef gnol survey', ['Li Hua']]);
    // Emoji and other astral characters are text.
    expect(parseLibraryFile(JSON.stringify([{ title: 'Reef 🐠 survey 𠀀', DOI: '10.1000/x' }])).works[0]?.title).toBe(
      'Reef 🐠 survey 𠀀',
    );
  });

  it('parses in a worker thread, off the event loop, with the same result and the same refusals', async () => {
    const entries = Array.from(
      { length: 1_000 },
      (_, i) =>
        `@article{w${i},\n  title = {Work number ${i} on coral reef recovery},\n  author = {Li, Hua and Chen, Min},\n  doi = {10.1000/w${i}},\n  year = {2024},\n}\n`,
    ).join('');
    let turned = false;
    const parsing = parseLibraryFileOffThread(entries).then((parsed) => ({ parsed, turned }));
    // Parsed on this thread, the whole file would be read before this timer could run.
    setTimeout(() => {
      turned = true;
    }, 0);
    const { parsed, turned: turnedMeanwhile } = await parsing;
    expect(turnedMeanwhile).toBe(true);
    expect(parsed).toEqual(parseLibraryFile(entries));
    expect(parsed.total).toBe(1_000);
    expect(parsed.works).toHaveLength(200);

    await expect(parseLibraryFileOffThread('[{"title": "x\\u0000"}]')).rejects.toThrow(
      new LibraryFileError('文件内容包含无效字符'),
    );
    await expect(parseLibraryFileOffThread('@article{broken, title={Unclosed')).rejects.toThrow(/BibTeX/);
    // The time bound: a parse that cannot finish in time is refused with a message for the reader.
    await expect(parseLibraryFileOffThread(entries, { timeoutMs: 1 })).rejects.toThrow(
      new LibraryFileError('文件解析超时，请稍后重试，或把文件拆成较小的几个分别上传'),
    );
  });
});
