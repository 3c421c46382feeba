import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { arxivAbstract, journalFromRef, readArxivApi } from '../src/adapters/arxiv';
import { readCrossref } from '../src/adapters/crossref';
import { readJournalFeed } from '../src/adapters/feeds';
import { isJsonLines } from '../src/adapters/json-reader';
import { mapOpenAlexWork, readOpenAlex } from '../src/adapters/openalex';
import { payloadMismatch, sniffPayload } from '../src/adapters/sniff';
import { splitAuthorList } from '../src/text/authors';
import { isPreprintDoi } from '../src/text/identifiers';
import { abstractText, decodeEntities, truncateText } from '../src/text/text';
import { parseTierTable, TierTableError } from '../src/tiers/tier-table';
import { paperVenue } from '../src/tiers/venue';
import type { IngestEntry, PaperDraft, SourceKind } from '../src/types';
import { collect } from './helpers/collect-entries';

/** Ingestion edge cases met with real feeds and files (issue 8, items 14-19), on the parsers alone. */

const FIXTURES = fileURLToPath(new URL('./fixtures/ingest/', import.meta.url));
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const bytes = (text: string) =>
  (async function* () {
    yield Buffer.from(text);
  })();

/** Entries read before a reader fails, and the failure. */
async function collectUntilFailure(entries: AsyncGenerator<IngestEntry, unknown>) {
  const seen: IngestEntry[] = [];
  try {
    for await (const entry of entries) seen.push(entry);
  } catch (error) {
    return { seen, error: error as Error };
  }
  return { seen, error: undefined };
}

const arxivAnswer = (entry: string) => `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <id>https://arxiv.org/api/x</id><title>arXiv Query</title><opensearch:totalResults>1</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/2503.00001v1</id>
    <published>2025-03-01T00:00:00Z</published>
    ${entry}
    <author><name>Mei Chen</name></author>
  </entry>
</feed>`;

describe('author lists in one string (item 14)', () => {
  it.each([
    ['Smith, J., Doe, A. B.', ['J. Smith', 'A. B. Doe']],
    ['Smith, J. A.; Doe, B.', ['J. A. Smith', 'B. Doe']],
    ['Jane Smith, John Doe', ['Jane Smith', 'John Doe']],
    ['Jane Smith, John Doe and Wei Zhang', ['Jane Smith', 'John Doe', 'Wei Zhang']],
    ['Jane Smith, John Doe, and Wei Zhang', ['Jane Smith', 'John Doe', 'Wei Zhang']],
    ['A. Smith, B. Jones & C. Wu', ['A. Smith', 'B. Jones', 'C. Wu']],
    ['Smith, Jane', ['Jane Smith']],
    ['Smith, J.', ['J. Smith']],
    ['Chen, Mei', ['Mei Chen']],
    ['Wang, Xiaoming, Li, Hua', ['Xiaoming Wang', 'Hua Li']],
    ['Wang, X., Li, Y., Zhang, Z. et al.', ['X. Wang', 'Y. Li', 'Z. Zhang']],
    ['Jane Smith et al.', ['Jane Smith']],
    ['Smith, J., Doe, A., et al.', ['J. Smith', 'A. Doe']],
    ['Smith, J. and Doe, A.', ['J. Smith', 'A. Doe']],
    ['van der Berg, J., de la Cruz, M.', ['J. van der Berg', 'M. de la Cruz']],
    ['Müller, K.-H., Garcia-Lopez, M. d. C.', ['K.-H. Müller', 'M. d. C. Garcia-Lopez']],
    ['Smith, J., Jr., Doe, A.', ['J. Smith Jr.', 'A. Doe']],
    ['John Smith, Jr., Jane Doe', ['John Smith Jr.', 'Jane Doe']],
    ['Smith J, Doe AB', ['Smith J', 'Doe AB']],
    ['Smith, J, Doe, AB', ['J Smith', 'AB Doe']],
    ['Smith, J., Jane Doe', ['J. Smith', 'Jane Doe']],
    ['张三, 李四, 王五', ['张三', '李四', '王五']],
    ['张三、李四', ['张三', '李四']],
    ['Zhang San, Li Si', ['Zhang San', 'Li Si']],
    ['Alice and Bob', ['Alice', 'Bob']],
    ['Michael Cooper, Samuel Cooper', ['Michael Cooper', 'Samuel Cooper']],
    [
      'Aravind R. Krishnan, Michael D. Phillips, Yelena G. Bodien',
      ['Aravind R. Krishnan', 'Michael D. Phillips', 'Yelena G. Bodien'],
    ],
    ['  ', []],
  ])('%s', (list, expected) => {
    expect(splitAuthorList(list)).toEqual(expected);
  });

  it('splits a bioRxiv RSS 1.0 creator of ten people into ten authors, given name first', async () => {
    const { papers } = await collect(readJournalFeed(bytes(fixture('biorxiv-rss1.rdf')), { maxItems: 10 }));
    expect(papers[0]?.authors).toEqual([
      'C. Okafor',
      'J. van der Berg',
      'K.-H. Müller',
      'W. Zhang',
      'X. Li',
      'J. A. Smith',
      "B. O'Neil",
      'M. d. C. Garcia-Lopez',
      'H. Tanaka',
      'T. T. Nguyen',
    ]);
    expect(papers[1]?.authors).toEqual(['A. Rossi', 'S. Kim']);
  });
});

describe('entities in every text field (item 15)', () => {
  it('decodes named, decimal and hex references once, and leaves unknown ones alone', () => {
    expect(decodeEntities('Energy &amp; Fuels')).toBe('Energy & Fuels');
    expect(decodeEntities('Caf&eacute; &#233;t&#xE9; &nbsp;&mdash;&hellip;')).toBe('Café été \u00a0—…');
    expect(decodeEntities('&amp;lt; stays &lt;')).toBe('&lt; stays <');
    expect(decodeEntities('AT&T &notanentity; &#0; &#xD800;')).toBe('AT&T &notanentity; &#0; &#xD800;');
  });

  it('decodes CSV cells of tier tables', () => {
    // Unquoted in a ";" table, an entity's own ";" must not split the cell.
    const table = parseTierTable(
      'Title;ISSN;SJR Quartile\nEnergy &amp; Fuels;08870624;Q1\n"Revista M&eacute;dica";;Q3\nA &#59; B;;Q2\n',
    );
    expect(table.rows.map((row) => [row.title, row.tier])).toEqual([
      ['Energy & Fuels', 1],
      ['Revista Médica', 3],
      ['A ; B', 2],
    ]);
    const plain = parseTierTable('title,issn,tier\n"Energy &amp; Fuels",0887-0624,Q1\n');
    expect(plain.rows.map((row) => row.title)).toEqual(['Energy & Fuels']);
  });

  it('decodes HTML entities in XML at the XML reader, once, without "malformed XML" warnings', async () => {
    const { papers, others } = await collect(
      readArxivApi(bytes(arxivAnswer('<title>Caf&eacute; &amp;amp; Cr&#232;me&nbsp;br&ucirc;l&eacute;e</title>')), {
        maxItems: 10,
      }),
    );
    // &amp;amp; is "&amp;" in the document's text: decoded once, it stays "&amp;".
    expect(papers[0]?.title).toBe('Café &amp; Crème brûlée');
    expect(others).toEqual([]);
  });

  it('decodes JSON strings of OpenAlex and Crossref (names, journals, keywords, abstracts)', async () => {
    const entry = mapOpenAlexWork({
      id: 'https://openalex.org/W1',
      doi: 'https://doi.org/10.5555/ef.1',
      title: 'Soot &amp; smoke',
      publication_date: '2025-01-02',
      authorships: [{ author: { display_name: 'Sin&eacute;ad O&apos;Brien' } }],
      primary_location: { source: { display_name: 'Energy &amp; Fuels', issn: ['0887-0624'], type: 'journal' } },
      keywords: [{ display_name: 'R&amp;D' }],
      abstract_inverted_index: { Soot: [0], '&amp;': [1], 'smoke.': [2] },
    });
    expect(entry).toMatchObject({
      type: 'paper',
      draft: {
        title: 'Soot & smoke',
        authors: ["Sinéad O'Brien"],
        journal: { name: 'Energy & Fuels' },
        keywords: ['R&D'],
        abstract: 'Soot & smoke.',
      },
    });
    const crossref = JSON.stringify({
      message: {
        DOI: '10.5555/ef.2',
        type: 'journal-article',
        title: ['Flames'],
        author: [{ given: 'J&uuml;rgen', family: 'M&#252;ller' }],
        'container-title': ['Energy &amp; Fuels'],
        publisher: 'ACS &amp; friends',
      },
    });
    const { papers } = await collect(readCrossref(bytes(crossref), { maxItems: 10 }));
    expect(papers[0]).toMatchObject({
      authors: ['Jürgen Müller'],
      journal: { name: 'Energy & Fuels', publisher: 'ACS & friends' },
    });
  });
});

describe('tier table headers in other languages (item 16)', () => {
  it('reads QUARTIL, Cuartil and accented title headers', () => {
    const portuguese = parseTierTable('TÍTULO,ISSN,QUARTIL\nRevista Brasileira de Demo,1234-5679,Q2\n');
    expect(portuguese.rows.map((row) => [row.title, row.issns, row.tier])).toEqual([
      ['Revista Brasileira de Demo', ['12345679'], 2],
    ]);
    const spanish = parseTierTable('Revista;ISSN;Cuartil\nRevista Española de Demo;2049-3630;Q1\n');
    expect(spanish.rows.map((row) => [row.title, row.tier])).toEqual([['Revista Española de Demo', 1]]);
    const byWord = parseTierTable('title,issn,SJR Cuartil 2024\nDemo Journal,,Q4\n');
    expect(byWord.rows.map((row) => row.tier)).toEqual([4]);
  });

  it('names the accepted headers when none is found', () => {
    expect(() => parseTierTable('name,score\nA,1\n')).toThrow(TierTableError);
    expect(() => parseTierTable('name,score\nA,1\n')).toThrow(
      /no tier column: name it one of "tier", "sjr best quartile".*"cuartil".*"quartil".*"分区".*the file's header: name, score/,
    );
    expect(() => parseTierTable('name,quartile\nA,Q1\n')).toThrow(/no journal column: name it one of "issn".*"title"/);
  });
});

describe('JSON Lines only when the file is JSON Lines (item 17)', () => {
  it('refuses a broken pretty-printed document as a whole, with its line, and rejects nothing', async () => {
    const broken = JSON.stringify({ meta: { count: 3 }, results: [{ id: 'W1' }, { id: 'W2' }] }, null, 2).replace(
      '"W2"',
      '"W2',
    );
    const { seen, error } = await collectUntilFailure(readOpenAlex(bytes(broken), { maxItems: 10 }));
    expect(seen).toEqual([]);
    expect(error?.message).toMatch(/^malformed JSON: .*\(line 10\)$/);
    expect(isJsonLines(broken)).toBe(false);
  });

  it('still reads JSON Lines, one of whose lines may be broken', () => {
    expect(isJsonLines('{"DOI":"10.1/a"}\n{"DOI": "10.1/b\n{"DOI":"10.1/c"}\n')).toBe(true);
    expect(isJsonLines('{"DOI":"10.1/a"}')).toBe(false);
    expect(isJsonLines('[\n{"a":1},\n{"a":2}\n]')).toBe(false);
  });
});

describe('format sniffing (item 18)', () => {
  const sniff = (name: string) => sniffPayload(fixture(name));
  it('recognises every saved format', () => {
    expect(
      [
        'arxiv-api-2025-08-legacy.xml',
        'arxiv-api-2025-11.xml',
        'arxiv-rss-cs.IR.xml',
        'journal-rss1.rdf',
        'biorxiv-rss1.rdf',
        'journal-atom.xml',
        'news-wordpress-rss2.xml',
        'news-gb2312.xml',
        'not-a-feed.html',
        'openalex-works.json',
        'crossref-journal-works.json',
        'crossref-single-work.json',
        'tiers-scimago.csv',
        'tiers-plain.csv',
      ].map((name) => [name, sniff(name).format]),
    ).toEqual([
      ['arxiv-api-2025-08-legacy.xml', 'arxiv-api'],
      ['arxiv-api-2025-11.xml', 'arxiv-api'],
      ['arxiv-rss-cs.IR.xml', 'arxiv-rss'],
      ['journal-rss1.rdf', 'rss1'],
      ['biorxiv-rss1.rdf', 'rss1'],
      ['journal-atom.xml', 'atom'],
      ['news-wordpress-rss2.xml', 'rss2'],
      ['news-gb2312.xml', 'rss2'],
      ['not-a-feed.html', 'html'],
      ['openalex-works.json', 'openalex'],
      ['crossref-journal-works.json', 'crossref'],
      ['crossref-single-work.json', 'crossref'],
      ['tiers-scimago.csv', 'csv'],
      ['tiers-plain.csv', 'csv'],
    ]);
    expect(sniff('journal-rss1.rdf')).toMatchObject({ isJournalFeed: true, isBlogFeed: false });
    expect(sniff('news-wordpress-rss2.xml')).toMatchObject({ isJournalFeed: false, isBlogFeed: true });
    expect(sniffPayload('  \n').format).toBe('empty');
  });

  it('refuses a file of another kind in one line that names the right kind', () => {
    const refuse = (kind: SourceKind, name: string) => payloadMismatch(kind, sniff(name), name);
    expect(refuse('news-rss', 'arxiv-api-2025-11.xml')).toBe(
      'arxiv-api-2025-11.xml looks like an arXiv API answer (Atom with search results), not a news feed: import it with pnpm radar ingest arxiv --file arxiv-api-2025-11.xml',
    );
    expect(refuse('arxiv', 'arxiv-rss-cs.IR.xml')).toMatch(/announcement feed .*pnpm radar ingest arxiv-rss --file/);
    expect(refuse('rss', 'news-wordpress-rss2.xml')).toMatch(
      /looks like a news or blog feed .*not a journal's feed: import it with pnpm radar ingest news-rss --file/,
    );
    expect(refuse('news-rss', 'journal-rss1.rdf')).toMatch(/journal's feed .*pnpm radar ingest rss --file/);
    expect(refuse('arxiv', 'journal-atom.xml')).toMatch(/ingest rss --file .* \(journal papers\) or .*news-rss/);
    expect(refuse('crossref', 'openalex-works.json')).toMatch(/OpenAlex works answer .*ingest openalex --file/);
    expect(refuse('openalex', 'crossref-single-work.json')).toMatch(/Crossref works answer .*ingest crossref --file/);
    expect(refuse('rss', 'openalex-works.json')).toMatch(/ingest openalex --file/);
    expect(refuse('arxiv', 'tiers-plain.csv')).toMatch(/pnpm radar journals import tiers-plain\.csv/);
    expect(refuse('news-rss', 'not-a-feed.html')).toMatch(/HTML page, not a news feed: save the feed itself/);
    expect(payloadMismatch('rss', sniffPayload(''), 'empty.xml')).toBe('empty.xml is empty: nothing to import');
    for (const [kind, name] of [
      ['arxiv', 'arxiv-api-2025-11.xml'],
      ['arxiv-rss', 'arxiv-rss-cs.IR.xml'],
      ['rss', 'journal-rss1.rdf'],
      ['rss', 'journal-atom.xml'],
      ['news-rss', 'news-wordpress-rss2.xml'],
      ['news-rss', 'journal-atom.xml'],
      ['openalex', 'openalex-works.json'],
      ['crossref', 'crossref-journal-works.json'],
    ] as const) {
      expect(refuse(kind, name)).toBeUndefined();
    }
  });

  it('takes the arXiv id of an RSS item from <link> or <guid> if one reaches the arXiv API reader', async () => {
    const rss = `<rss version="2.0"><channel><title>x</title>
      <item><title>Linked</title><link>https://arxiv.org/abs/2502.00001v2</link></item>
      <item><title>Guided</title><guid>https://arxiv.org/abs/2502.00002</guid></item></channel></rss>`;
    const { papers, others } = await collect(readArxivApi(bytes(rss), { maxItems: 10 }));
    expect(papers.map((paper) => [paper.arxivId, paper.title])).toEqual([
      ['2502.00001', 'Linked'],
      ['2502.00002', 'Guided'],
    ]);
    expect(others).toEqual([]);
  });
});

describe('smaller losses (item 19)', () => {
  it('reads the journal an arXiv journal_ref names, as a hint matched against known journals', () => {
    expect(journalFromRef('Phys. Rev. D 103, 096005 (2021)')).toEqual({
      name: 'Phys. Rev. D',
      issns: [],
      isPreprintServer: false,
      matchOnly: true,
      alternativeNames: ['Phys. Rev. D'],
    });
    expect(journalFromRef('Information Retrieval Journal 28 (2025) 7')?.name).toBe('Information Retrieval Journal');
    expect(journalFromRef('Published in Nature Physics, 2020')?.name).toBe('Nature Physics');
    expect(journalFromRef('Astrophys.J. 900 (2020) L1')?.name).toBe('Astrophys.J.');
    // A whole citation: no venue name in front, but its parts are tried against known journals.
    const citation = journalFromRef(
      'Li, Y., Xia, G., Lotov, K. V., & Mete-Apsimon, O. (2017). High-quality electron beam generation in a proton-driven hollow plasma wakefield accelerator. Physical Review Accelerators and Beams, 20(10), 101301',
    );
    expect(citation).toMatchObject({ name: 'arXiv', isPreprintServer: true, matchOnly: true });
    expect(citation?.alternativeNames).toContain('Physical Review Accelerators and Beams');
    expect(journalFromRef('Proceedings of the 38th International Conference')).toBeUndefined();
  });

  it('keeps abstract paragraphs apart and joins wrapped lines', async () => {
    expect(arxivAbstract('  First line\nwrapped here.\n  Second paragraph\nalso wrapped.\n')).toBe(
      'First line wrapped here.\n\nSecond paragraph also wrapped.',
    );
    expect(abstractText('<p>One\n two.</p><p>Three.</p>')).toBe('One two.\n\nThree.');
    expect(abstractText('Plain text\nwrapped.\n\nNext   paragraph.')).toBe('Plain text wrapped.\n\nNext paragraph.');
    const { papers } = await collect(readJournalFeed(bytes(fixture('biorxiv-rss1.rdf')), { maxItems: 10 }));
    expect(papers[0]?.abstract).toBe(
      "During sleep, place cells replay sequences of the day's trajectories. We recorded 1,200 cells in twelve mice.\n\nReplay was biased towards rewarded paths and predicted next-day choices.",
    );
  });

  it('stores bioRxiv and medRxiv DOIs under their server, whatever the source said', () => {
    const draft = (overrides: Partial<PaperDraft>): PaperDraft => ({
      key: 'x',
      title: 'A demo preprint',
      authors: [],
      abstract: '',
      keywords: [],
      sourceIds: {},
      notes: [],
      journal: { name: 'bioRxiv Subject Collection: Neuroscience', issns: [] },
      ...overrides,
    });
    expect(paperVenue(draft({}), '10.1101/2025.06.02.657001')).toEqual({
      name: 'bioRxiv',
      issns: [],
      isPreprintServer: true,
    });
    expect(
      paperVenue(
        draft({ journal: undefined, url: 'https://www.medrxiv.org/content/10.1101/2020.03.01.20029999v1' }),
        '10.1101/2020.03.01.20029999',
      )?.name,
    ).toBe('medRxiv');
    expect(paperVenue(draft({ journal: undefined }), '10.1101/123456')?.name).toBe('bioRxiv/medRxiv');
    // Cold Spring Harbor's journals share the prefix: Genome Research stays a journal.
    expect(paperVenue(draft({ journal: { name: 'Genome Research', issns: [] } }), '10.1101/gr.123456.120')).toEqual({
      name: 'Genome Research',
      issns: [],
    });
    expect(isPreprintDoi('10.1101/gr.123456.120')).toBe(false);
    expect(isPreprintDoi('10.1101/2025.06.02.657001')).toBe(true);
  });

  it("takes OpenAlex's open-access URL as the PDF link when no location gives one", () => {
    const work = (openAccess: unknown, locations: unknown[] = []) =>
      mapOpenAlexWork({
        id: 'https://openalex.org/W2',
        doi: 'https://doi.org/10.5555/oa.1',
        title: 'Open',
        primary_location: { landing_page_url: 'https://journal.example.org/1', pdf_url: null },
        locations,
        open_access: openAccess,
      });
    expect(work({ is_oa: true, oa_url: 'https://repo.example.org/1.pdf' })).toMatchObject({
      draft: { pdfUrl: 'https://repo.example.org/1.pdf' },
    });
    expect(
      work({ is_oa: true, oa_url: 'https://repo.example.org/1.pdf' }, [{ pdf_url: 'https://arxiv.org/pdf/2501.1' }]),
    ).toMatchObject({ draft: { pdfUrl: 'https://arxiv.org/pdf/2501.1' } });
    // The landing page or the DOI itself is no PDF.
    expect(work({ is_oa: true, oa_url: 'https://doi.org/10.5555/oa.1' })).toMatchObject({
      draft: { pdfUrl: undefined },
    });
  });

  it('marks a cut with a note the reader sees, within the limit', () => {
    const marker = '…(cut)';
    const cut = truncateText('a'.repeat(100), 50, marker);
    expect(cut).toHaveLength(50);
    expect(cut.endsWith(marker)).toBe(true);
    expect(truncateText('short', 50, marker)).toBe('short');
  });
});
