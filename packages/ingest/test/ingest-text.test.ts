import type { PaperFields } from '@radar/db';
import { describe, expect, it } from 'vitest';
import { decodeByteStream, decodeBytes } from '../src/adapters/decode';
import { type IncomingPaper, mergePaper, pickMatch } from '../src/pipeline/paper-merge';
import { dateFromParts, parseDateString, parseDateTime } from '../src/text/dates';
import {
  arxivIdFromDoi,
  collectIssns,
  doiFromPreprintUrl,
  extractArxivId,
  isPreprintUrl,
  normalizeDoi,
  normalizeIssn,
  normalizeJournalTitle,
  normalizeUrl,
  surnameOf,
  titleAuthorKey,
} from '../src/text/identifiers';
import { cleanInline, htmlToText, sanitizeText, toPlainText } from '../src/text/text';
import { parseTier } from '../src/tiers/tier-table';

describe('text', () => {
  it('turns HTML into text: scripts, styles and comments dropped, entities decoded, blocks on lines', () => {
    const html =
      '<p>First &amp; <b>bold</b>&nbsp;text</p><script>alert("x")</script><style>p{}</style><!-- hidden --><ul><li>one</li><li>two</li></ul>';
    expect(htmlToText(html)).toBe('First & bold text\none\ntwo');
    expect(htmlToText('<h1>Title</h1>\n   with\n   wrapped   words', { inline: true })).toBe(
      'Title with wrapped words',
    );
  });

  it('removes WordPress footers and keeps the article', () => {
    const html = '<p>Body.</p><p>The post <a href="x">Story</a> appeared first on <a href="y">Site</a>.</p>';
    expect(htmlToText(html)).toBe('Body.');
  });

  it('leaves plain text with "<" alone and converts only what looks like markup', () => {
    expect(toPlainText('a < b and c > d')).toBe('a < b and c > d');
    expect(toPlainText('x &lt; y')).toBe('x < y');
    expect(toPlainText('<i>E. coli</i> in H<sub>2</sub>O', { inline: true })).toBe('E. coli in H2O');
  });

  it('strips characters PostgreSQL or readers cannot take', () => {
    expect(sanitizeText('a\u0000b\u0007c\uD800d')).toBe('abcd');
    expect(cleanInline('  many \n\t spaces  ')).toBe('many spaces');
  });

  it('strips bidi overrides, isolates and zero-width characters from titles and names, keeping emoji sequences', () => {
    expect(cleanInline('Deep \u202Egnol\u202C learning')).toBe('Deep gnol learning');
    expect(cleanInline('\u2067Zhang\u2069 Wei\u2066\u2068')).toBe('Zhang Wei');
    expect(cleanInline('Grap\u200Bh ne\u200Ct\u200Dworks\u200E\u200F\u2060\uFEFF \u202A\u202B\u202D')).toBe(
      'Graph networks',
    );
    // 👩‍🔬 (woman, ZWJ, microscope) is an emoji sequence; a ZWJ after plain text is not.
    expect(cleanInline('Field notes 👩\u200D🔬 a\u200D🔬')).toBe('Field notes 👩\u200D🔬 a🔬');
    expect(cleanInline('中文标题\u200B：量子计算')).toBe('中文标题：量子计算');
  });
});

describe('identifiers', () => {
  it('normalises DOIs from every form sources use', () => {
    expect(normalizeDoi('https://doi.org/10.1016/J.NEUCOM.2021.03.091')).toBe('10.1016/j.neucom.2021.03.091');
    expect(normalizeDoi('doi:10.1038/s41586-024-07811-4')).toBe('10.1038/s41586-024-07811-4');
    expect(normalizeDoi('https://dx.doi.org/10.1000%2Fabc')).toBe('10.1000/abc');
    expect(normalizeDoi('not a doi')).toBeUndefined();
  });

  it('tells preprint pages from journal pages, and reads the DOI in bioRxiv/medRxiv addresses', () => {
    expect(isPreprintUrl('http://arxiv.org/abs/2111.07624')).toBe(true);
    expect(isPreprintUrl('https://www.biorxiv.org/content/10.1101/2020.03.12.987654v2')).toBe(true);
    expect(isPreprintUrl('https://peerj.com/preprints/2512v1')).toBe(true);
    expect(isPreprintUrl('https://doi.org/10.7287/peerj.preprints.2512')).toBe(true);
    expect(isPreprintUrl('https://peerj.com/articles/3162')).toBe(false);
    expect(isPreprintUrl('https://doi.org/10.1007/s41095-022-0271-y')).toBe(false);
    expect(isPreprintUrl('https://notarxiv.org.example.com/abs/1')).toBe(false);
    expect(doiFromPreprintUrl('https://www.biorxiv.org/content/10.1101/2020.03.12.987654v2.full.pdf')).toBe(
      '10.1101/2020.03.12.987654',
    );
    expect(doiFromPreprintUrl('https://www.medrxiv.org/content/10.1101/2021.01.05.21249245v1')).toBe(
      '10.1101/2021.01.05.21249245',
    );
    expect(doiFromPreprintUrl('https://www.biorxiv.org/content/early/2017/01/05/098202')).toBeUndefined();
    expect(doiFromPreprintUrl('https://peerj.com/articles/3162')).toBeUndefined();
  });

  it('finds arXiv ids without versions in ids, URLs, OAI identifiers and DOIs', () => {
    expect(extractArxivId('http://arxiv.org/abs/2501.01234v2')).toEqual({ id: '2501.01234', version: 2 });
    expect(extractArxivId('oai:arXiv.org:2604.21935v1')).toEqual({ id: '2604.21935', version: 1 });
    expect(extractArxivId('http://arxiv.org/abs/nucl-ex/0408020v1')).toEqual({ id: 'nucl-ex/0408020', version: 1 });
    expect(extractArxivId('https://arxiv.org/pdf/math.AG/0601001v2')?.id).toBe('math.ag/0601001'.replace('ag', 'AG'));
    expect(extractArxivId('2501.01234')).toEqual({ id: '2501.01234', version: undefined });
    expect(extractArxivId('https://example.org/paper/2501.01234')).toBeUndefined();
    expect(arxivIdFromDoi('10.48550/arxiv.2501.01234')).toBe('2501.01234');
  });

  it('normalises URLs: scheme, www, tracking parameters, fragment and trailing slash do not matter', () => {
    const a = normalizeUrl('https://www.Example.org/News/Story/?utm_source=rss&id=7#top');
    const b = normalizeUrl('http://example.org/news/story?id=7&fbclid=abc');
    expect(a).toBe('example.org/news/story?id=7');
    expect(b).toBe(a);
    expect(normalizeUrl('javascript:alert(1)')).toBeUndefined();
  });

  it('reads ISSNs with and without hyphens, and journal titles loosely', () => {
    expect(normalizeIssn('0163-769x')).toBe('0163769X');
    expect(collectIssns(['22138595, 22138587', '2213-8595'])).toEqual(['22138595', '22138587']);
    expect(normalizeJournalTitle('The Lancet Diabetes & Endocrinology')).toBe(
      normalizeJournalTitle('Lancet Diabetes and Endocrinology'),
    );
  });

  it('builds the title + first author key of last resort', () => {
    expect(surnameOf('Chen, Mei')).toBe('chen');
    expect(surnameOf('Mei Chen')).toBe('chen');
    expect(surnameOf('张伟')).toBe('张');
    expect(titleAuthorKey('Sparse Attention for Long Document Retrieval', ['Mei Chen'])).toBe(
      titleAuthorKey('Sparse attention for long-document retrieval.', ['M. Chen']),
    );
    expect(titleAuthorKey('Editorial', ['Mei Chen'])).toBeUndefined();
    expect(titleAuthorKey('A long enough title without authors', [])).toBeUndefined();
  });
});

describe('dates', () => {
  it('reads RFC 822 with zone names, ISO with offsets, Chinese and partial dates', () => {
    expect(parseDateTime('Mon, 10 Feb 2020 06:03:01 EST')?.toISOString()).toBe('2020-02-10T11:03:01.000Z');
    expect(parseDateTime('Sun, 09 Feb 2020 15:55:05 CEST')?.toISOString()).toBe('2020-02-09T13:55:05.000Z');
    expect(parseDateTime('2025-08-20T00:00:00-04:00')?.toISOString()).toBe('2025-08-20T04:00:00.000Z');
    expect(parseDateTime('2026-03-05 10:00:00')?.toISOString()).toBe('2026-03-05T10:00:00.000Z');
    expect(parseDateString('2026年3月6日')).toBe('2026-03-06');
    expect(parseDateString('2024/07/18')).toBe('2024-07-18');
    expect(parseDateString('2016')).toBe('2016-01-01');
    expect(dateFromParts([[2016]])).toBe('2016-01-01');
    expect(dateFromParts([[2025, 3]])).toBe('2025-03-01');
    expect(dateFromParts([[null]])).toBeUndefined();
  });

  it('refuses values that are not dates or are placeholders', () => {
    expect(parseDateTime('not a date at all')).toBeUndefined();
    expect(parseDateTime('0001-01-01')).toBeUndefined();
    expect(parseDateTime('9999-12-31')).toBeUndefined();
    expect(parseDateTime('2024-02-31')).toBeUndefined();
  });
});

describe('decoding', () => {
  const chunks = async function* (bytes: Uint8Array, size: number) {
    for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
  };
  const readAll = async (bytes: Uint8Array, size = 7) => {
    const warnings: { reason: string }[] = [];
    let text = '';
    for await (const part of decodeByteStream(chunks(bytes, size), { warnings })) text += part;
    return { text, warnings };
  };

  it('uses the XML declaration, across chunk boundaries that split characters', async () => {
    const utf8 = Buffer.from('<?xml version="1.0" encoding="UTF-8"?><t>科研雷达 ünïcode</t>');
    expect((await readAll(utf8, 3)).text).toContain('科研雷达 ünïcode');
    const latin = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><t>'),
      Buffer.from([0xe9]),
      Buffer.from('</t>'),
    ]);
    expect((await readAll(latin)).text).toContain('<t>é</t>');
  });

  it('recovers from bytes that are not the declared UTF-8, with a warning', async () => {
    const bytes = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="UTF-8"?><t>Caf'),
      Buffer.from([0xe9]),
      Buffer.from('</t>'),
    ]);
    const { text, warnings } = await readAll(bytes, 2048);
    expect(text).toContain('Café');
    expect(warnings.map((warning) => warning.reason)).toEqual(['invalid encoding']);
    expect(decodeBytes(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), { warnings: [] })).toBe('{}');
  });
});

describe('tiers', () => {
  it('reads quartiles, tiers and Chinese zones', () => {
    expect(['1', 'Q2', 'q3', 'Tier 4', '1区', '二区'].map(parseTier)).toEqual([1, 2, 3, 4, 1, 2]);
    expect(['-', '', 'Q5', '0'].map(parseTier)).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('merging a paper into the stored copy', () => {
  const stored = (overrides: Partial<PaperFields> = {}): PaperFields => ({
    id: 1,
    title: 'Sparse Attention for Long Document Retrieval',
    authors: ['Mei Chen', 'Rahul Gupta'],
    authorIdentities: null,
    abstract: 'v1 abstract',
    journalId: null,
    journalName: 'arXiv',
    jcrTier: null,
    doi: null,
    arxivId: '2501.01234',
    url: 'https://arxiv.org/abs/2501.01234',
    urlNormalized: 'arxiv.org/abs/2501.01234',
    pdfUrl: 'https://arxiv.org/pdf/2501.01234v1',
    publishedAt: '2025-01-03',
    keywords: ['cs.IR'],
    researchFields: ['computer-science'],
    llmSummary: 'old summary',
    titleAuthorKey: titleAuthorKey('Sparse Attention for Long Document Retrieval', ['Mei Chen']) ?? null,
    sourceIds: { arxiv: '2501.01234', arxivVersion: '1' },
    source: 'arxiv-ir',
    isDemo: false,
    privateTo: null,
    ...overrides,
  });
  const incoming = (overrides: Partial<IncomingPaper> = {}): IncomingPaper => ({
    title: 'Sparse attention for long document retrieval',
    authors: ['Mei Chen', 'Rahul Gupta'],
    abstract: 'journal abstract',
    doi: '10.5555/jmlrl.2025.0042',
    relatedDois: [],
    arxivId: '2501.01234',
    url: 'https://jmlrl.example.org/articles/42',
    urlNormalized: 'jmlrl.example.org/articles/42',
    pdfUrl: undefined,
    publishedAt: '2025-03-01',
    journalId: 7,
    journalName: 'Journal of Machine Learning Research Letters',
    jcrTier: 1,
    keywords: ['Artificial Intelligence'],
    researchFields: [],
    sourceIds: { crossref: '10.5555/jmlrl.2025.0042' },
    titleAuthorKey: titleAuthorKey('Sparse attention for long document retrieval', ['Mei Chen']),
    isAuthoritativeVersion: false,
    isPreprintRecord: false,
    ...overrides,
  });

  it('gives a preprint its journal version: journal, tier and DOI, keeping its own text and dates', () => {
    const patch = mergePaper(stored(), incoming());
    expect(patch).toMatchObject({
      doi: '10.5555/jmlrl.2025.0042',
      // The journal's page is the card's link; the preprint's stays beside it.
      url: 'https://jmlrl.example.org/articles/42',
      journalId: 7,
      journalName: 'Journal of Machine Learning Research Letters',
      jcrTier: 1,
      keywords: ['cs.IR', 'Artificial Intelligence'],
      sourceIds: {
        arxiv: '2501.01234',
        arxivVersion: '1',
        crossref: '10.5555/jmlrl.2025.0042',
        preprintUrl: 'https://arxiv.org/abs/2501.01234',
      },
    });
    expect(patch.title).toBeUndefined();
    expect(patch.abstract).toBeUndefined();
    expect(patch.publishedAt).toBeUndefined();
    expect(patch.embedding).toBeUndefined();
  });

  it('takes the text of a newer arXiv version and drops the vector and summary made from the old one', () => {
    const patch = mergePaper(
      stored(),
      incoming({
        doi: undefined,
        journalId: undefined,
        journalName: 'arXiv',
        jcrTier: undefined,
        abstract: 'v3 abstract',
        isAuthoritativeVersion: true,
        sourceIds: { arxiv: '2501.01234', arxivVersion: '3' },
      }),
    );
    expect(patch).toMatchObject({ abstract: 'v3 abstract', embedding: null, llmSummary: null });
    expect(patch.sourceIds?.arxivVersion).toBe('3');
    const older = mergePaper(
      stored({ sourceIds: { arxiv: '2501.01234', arxivVersion: '3' } }),
      incoming({ abstract: 'v2 abstract', isAuthoritativeVersion: true, sourceIds: { arxivVersion: '2' } }),
    );
    expect(older.abstract).toBeUndefined();
  });

  it('gives a preprint stored under arXiv the journal a new version names, but never another server', () => {
    const published = incoming({
      doi: undefined,
      journalId: undefined,
      journalName: 'Phys. Rev. B',
      journalIsPreprintServer: false,
      jcrTier: undefined,
      isAuthoritativeVersion: true,
      sourceIds: { arxiv: '2501.01234', arxivVersion: '2' },
    });
    expect(mergePaper(stored(), published).journalName).toBe('Phys. Rev. B');
    expect(
      mergePaper(stored(), { ...published, journalName: 'bioRxiv', journalIsPreprintServer: true }).journalName,
    ).toBeUndefined();
    expect(mergePaper(stored({ journalName: 'Nature' }), published).journalName).toBeUndefined();
  });

  it('keeps both links whichever version arrives first, and the preprint DOI of a journal record', () => {
    const journalRow = stored({
      journalId: 7,
      journalName: 'Journal of Machine Learning Research Letters',
      doi: '10.5555/jmlrl.2025.0042',
      arxivId: null,
      url: 'https://jmlrl.example.org/articles/42',
      sourceIds: { crossref: '10.5555/jmlrl.2025.0042' },
    });
    const preprint = incoming({
      doi: '10.1101/2025.01.01.000001',
      relatedDois: ['10.5555/jmlrl.2025.0042'],
      arxivId: undefined,
      url: 'https://www.biorxiv.org/content/10.1101/2025.01.01.000001v1',
      journalId: undefined,
      journalName: 'bioRxiv',
      journalIsPreprintServer: true,
      isPreprintRecord: true,
    });
    const patch = mergePaper(journalRow, preprint);
    expect(patch.url).toBeUndefined();
    expect(patch.doi).toBeUndefined();
    expect(patch.sourceIds).toMatchObject({
      preprintDoi: '10.1101/2025.01.01.000001',
      preprintUrl: 'https://www.biorxiv.org/content/10.1101/2025.01.01.000001v1',
    });
    // The preprint record found by the preprint DOI its journal record named.
    const named = stored({ ...journalRow, sourceIds: { preprintDoi: '10.1101/2025.01.01.000001' } });
    expect(pickMatch([named], { ...preprint, relatedDois: [] })).toMatchObject({ by: 'doi' });
    // A second journal record (another index of the same DOI) never takes the link from the first.
    expect(
      mergePaper(journalRow, incoming({ arxivId: undefined, url: 'https://doi.org/10.5555/jmlrl.2025.0042' })).url,
    ).toBeUndefined();
  });

  it('is empty when nothing is new', () => {
    const same = stored();
    expect(
      mergePaper(
        same,
        incoming({
          ...same,
          doi: undefined,
          arxivId: '2501.01234',
          url: same.url,
          urlNormalized: same.urlNormalized ?? undefined,
          pdfUrl: same.pdfUrl ?? undefined,
          publishedAt: same.publishedAt ?? undefined,
          journalId: undefined,
          jcrTier: undefined,
          titleAuthorKey: same.titleAuthorKey ?? undefined,
          sourceIds: { arxiv: '2501.01234' },
        }),
      ),
    ).toEqual({});
  });

  it('matches by DOI, then arXiv id, then URL, then title and first author, never across conflicting DOIs', () => {
    const byTitle = stored({ id: 2, arxivId: null, urlNormalized: 'other.example/1', doi: null });
    const byArxiv = stored({ id: 3, titleAuthorKey: null });
    expect(pickMatch([byTitle, byArxiv], incoming())?.row.id).toBe(3);
    expect(pickMatch([byTitle], incoming({ arxivId: undefined }))).toMatchObject({ by: 'title-author' });
    const otherJournalPaper = stored({ id: 4, arxivId: null, doi: '10.9999/another.paper' });
    expect(pickMatch([otherJournalPaper], incoming({ arxivId: undefined }))).toBeUndefined();
    const preprintDoi = stored({ id: 5, arxivId: null, doi: '10.1101/2025.01.01.000001' });
    expect(pickMatch([preprintDoi], incoming({ arxivId: undefined }))?.row.id).toBe(5);
  });
});
