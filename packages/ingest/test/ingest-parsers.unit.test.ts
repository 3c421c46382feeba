import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readArxivApi, readArxivRss } from '../src/adapters/arxiv';
import { readCrossref } from '../src/adapters/crossref';
import { readJournalFeed, readNewsFeed } from '../src/adapters/feeds';
import { readOpenAlex, rebuildAbstract } from '../src/adapters/openalex';
import { parseTierTable } from '../src/tiers/tier-table';
import { collect } from './helpers/collect-entries';

/** Parsers over fixtures this project wrote in each source's real format (test/fixtures/ingest). */

const FIXTURES = fileURLToPath(new URL('./fixtures/ingest/', import.meta.url));
const file = (name: string) => fs.createReadStream(path.join(FIXTURES, name));

describe('arXiv API (Atom)', () => {
  it('reads the format in use before November 2025: rel/title links, offsets, wrapped text, DOI', async () => {
    const { papers, others } = await collect(readArxivApi(file('arxiv-api-2025-08-legacy.xml'), { maxItems: 100 }));
    expect(others).toEqual([]);
    expect(papers).toHaveLength(2);
    const [first, second] = papers;
    expect(first).toMatchObject({
      arxivId: '2501.01234',
      title: 'Sparse Attention for Long Document Retrieval',
      authors: ['Mei Chen', 'Rahul Gupta'],
      pdfUrl: 'http://arxiv.org/pdf/2501.01234v1',
      url: 'https://arxiv.org/abs/2501.01234',
      // 14:02 at -04:00 is 18:02 UTC, the same day.
      publishedAt: '2025-01-03',
      keywords: ['cs.IR', 'cs.CL'],
      sourceIds: { arxiv: '2501.01234', arxivVersion: '1' },
      journal: { name: 'arXiv', isPreprintServer: true },
    });
    expect(first?.abstract).toMatch(
      /^We study retrieval over documents with tens of thousands of tokens\. Dense attention/,
    );
    expect(first?.abstract).not.toContain('\n');
    expect(second).toMatchObject({
      doi: '10.5555/irj.2025.0007',
      sourceIds: { journalRef: 'Information Retrieval Journal 28 (2025) 7' },
    });
  });

  it('reads the format in use since November 2025: the PDF link by type, then title, then /pdf/ in the URL', async () => {
    const { papers, others } = await collect(readArxivApi(file('arxiv-api-2025-11.xml'), { maxItems: 100 }));
    expect(papers.map((paper) => [paper.arxivId, paper.pdfUrl])).toEqual([
      ['2501.01234', 'https://arxiv.org/pdf/2501.01234v2'],
      ['2501.05678', 'https://arxiv.org/pdf/2501.05678v1'],
      ['cond-mat/0501001', 'https://arxiv.org/pdf/cond-mat/0501001v3'],
      ['2501.07777', 'https://arxiv.org/pdf/2501.07777v1'],
    ]);
    expect(papers[2]).toMatchObject({ doi: '10.1103/physrevb.71.000001', keywords: ['cond-mat.str-el'] });
    expect(papers[3]?.notes).toEqual(['no abstract']);
    expect(others).toEqual([
      { type: 'reject', key: 'entry 5', reason: 'no arXiv id', detail: 'An Entry Without Any Identifier' },
    ]);
  });

  it('turns arXiv error answers into a failure of the run', async () => {
    await expect(collect(readArxivApi(file('arxiv-api-error.xml'), { maxItems: 100 }))).rejects.toThrow(
      /arXiv rejected the query: incorrect id format/,
    );
  });
});

describe('arXiv RSS', () => {
  it('takes the abstract after "Abstract:", splits the author list, and marks replacements update-only', async () => {
    const { papers } = await collect(
      readArxivRss(file('arxiv-rss-cs.IR.xml'), { maxItems: 100, includeReplacements: false }),
    );
    expect(papers.map((paper) => [paper.arxivId, paper.updateOnly])).toEqual([
      ['2502.00001', false],
      ['2502.00002', false],
      ['2501.01234', true],
      ['2301.00001', true],
    ]);
    expect(papers[0]).toMatchObject({
      authors: ['Priya Sharma', 'David Kim', 'Emma Johnson'],
      abstract:
        'Click logs are noisy. We model position bias and trust bias jointly and learn rankers that are robust to both.',
      publishedAt: '2025-02-11',
      pdfUrl: 'https://arxiv.org/pdf/2502.00001v1',
    });
    expect(papers[3]?.authors).toEqual(['Olga Ivanova', 'Jun Xu']);
  });
});

describe('OpenAlex', () => {
  it('rebuilds abstracts from the inverted index and takes ISSNs from the source', async () => {
    const { papers, others } = await collect(readOpenAlex(file('openalex-works.json'), { maxItems: 100 }));
    expect(papers).toHaveLength(3);
    expect(papers[0]).toMatchObject({
      doi: '10.5555/jccl.2025.777',
      arxivId: '2501.05678',
      abstract:
        'Diffusion over molecular graphs generates valid molecules with desired properties. We also report wet-lab validation.',
      journal: {
        name: 'Journal of Computational Chemistry Letters',
        issns: ['20493630', '20493649'],
        isPreprintServer: false,
      },
      pdfUrl: 'https://jccl.example.org/777.pdf',
      sourceIds: { openalex: 'W4400000001' },
    });
    // An arXiv DOI names the preprint: it becomes the arXiv id, not the paper's DOI.
    expect(papers[1]).toMatchObject({ arxivId: '2501.01234', doi: undefined, journal: { isPreprintServer: true } });
    expect(papers[2]).toMatchObject({
      publishedAt: '2024-01-01',
      notes: ['year only: dated January 1', 'no abstract'],
    });
    expect(others).toEqual([{ type: 'skip', key: '10.5555/retracted.1', reason: 'retracted' }]);
    expect(rebuildAbstract({ b: [1], a: [0], c: [2, 3] })).toBe('a b c c');
    expect(rebuildAbstract(null)).toBe('');
  });
});

describe('Crossref', () => {
  it('reads JATS abstracts, partial dates, preprint relations and skips non-papers', async () => {
    const { papers, others } = await collect(readCrossref(file('crossref-journal-works.json'), { maxItems: 100 }));
    expect(papers).toHaveLength(2);
    expect(papers[0]).toMatchObject({
      doi: '10.5555/jmlrl.2025.0042',
      arxivId: '2501.01234',
      abstract:
        'We study retrieval over documents with tens of thousands of tokens using block-sparse attention.\n\nCost grows linearly with length.',
      publishedAt: '2025-03-01',
      url: 'https://jmlrl.example.org/articles/42',
      pdfUrl: 'https://jmlrl.example.org/articles/42.pdf',
      journal: { name: 'Journal of Machine Learning Research Letters', issns: ['12345679'] },
      relatedDois: ['10.48550/arxiv.2501.01234'],
    });
    expect(papers[0]?.notes).toContain('partial date: missing month or day taken as the first');
    expect(papers[1]).toMatchObject({ title: 'Growth of Escherichia coli in H2O at 37 °C', publishedAt: '2016-01-01' });
    expect(others).toEqual([
      { type: 'skip', key: '10.5555/jmlrl.issue.2025.3', reason: 'not a paper (journal-issue)' },
      { type: 'reject', key: 'record 3', reason: 'no DOI' },
    ]);
    const single = await collect(readCrossref(file('crossref-single-work.json'), { maxItems: 100 }));
    expect(single.papers.map((paper) => paper.doi)).toEqual(['10.5555/jccl.2025.777']);
  });

  it('reads JSON Lines, rejecting broken lines by number and keeping the others', async () => {
    const lines = [
      JSON.stringify({ DOI: '10.5555/a.1', type: 'journal-article', title: ['First'] }),
      '{"DOI": "10.5555/a.2", "title": [',
      JSON.stringify({ DOI: '10.5555/a.3', type: 'journal-article', title: ['Third'] }),
    ].join('\n');
    const { papers, others } = await collect(
      readCrossref(
        (async function* () {
          yield Buffer.from(lines);
        })(),
        { maxItems: 100 },
      ),
    );
    expect(papers.map((paper) => paper.doi)).toEqual(['10.5555/a.1', '10.5555/a.3']);
    expect(others).toMatchObject([{ type: 'reject', key: 'line 2', reason: 'malformed JSON' }]);
    await expect(
      collect(
        readCrossref(
          (async function* () {
            yield Buffer.from('{"message": ');
          })(),
          { maxItems: 100 },
        ),
      ),
    ).rejects.toThrow(/malformed JSON/);
  });
});

describe('journal feeds', () => {
  it('reads RSS 1.0 (RDF): creators, DOIs, ISSN from the channel, the feed date when an item has none', async () => {
    const { papers, others } = await collect(readJournalFeed(file('journal-rss1.rdf'), { maxItems: 100 }));
    expect(papers[0]).toMatchObject({
      title: 'Carbon uptake by CO2-fertilised forests',
      authors: ['Yan Lin', 'Jonas Berg', 'Ana Souza'],
      doi: '10.5555/fde.2025.1',
      abstract: 'Mixed forests took up more carbon than monocultures under elevated CO2 over ten years.',
      journal: { name: 'Frontiers of Demo Ecology', issns: ['21678359'] },
      publishedAt: '2025-06-02',
    });
    // The description only repeats the title: no abstract.
    expect(papers[1]).toMatchObject({ abstract: '', publishedAt: '2025-06-02' });
    expect(papers[1]?.notes).toEqual(["no date in the item: the feed's date was used", 'no abstract']);
    expect(others).toEqual([
      { type: 'reject', key: 'https://ecology-letters.example.org/articles/e3', reason: 'no title' },
    ]);
  });

  it('reads Atom text constructs: HTML and scripts become text, "<" in plain text stays, XHTML keeps paragraphs', async () => {
    const { papers } = await collect(
      readJournalFeed(file('journal-atom.xml'), {
        maxItems: 100,
        journal: { name: 'Demo Physics Letters', issns: [] },
      }),
    );
    expect(papers[0]).toMatchObject({
      title: 'Observation of Majorana modes in nanowires',
      abstract: 'We report zero-bias peaks that survive magnetic field rotation.\n\nData and code are available.',
      pdfUrl: 'https://demo-physics.example.org/articles/101.pdf',
      publishedAt: '2025-06-30',
      keywords: ['Condensed matter'],
      journal: { name: 'Demo Physics Letters' },
    });
    expect(JSON.stringify(papers)).not.toMatch(/script|alert|evil/);
    expect(papers[1]).toMatchObject({
      title: 'Precision tests of a < b inequalities',
      abstract: 'We test whether a < b holds for all sampled pairs.',
    });
    expect(papers[2]).toMatchObject({
      title: 'Quantum sensing with spins',
      abstract: 'First paragraph.\n\nSecond paragraph.',
    });
  });
});

describe('news feeds', () => {
  it('turns WordPress content:encoded into clean text and rejects items without title or URL', async () => {
    const { news, others } = await collect(
      readNewsFeed(file('news-wordpress-rss2.xml'), { maxItems: 100, institute: 'Demo Institute' }),
    );
    expect(news[0]).toMatchObject({
      title: 'Lab team wins national award for quantum sensing',
      content:
        'The quantum sensing team led by Prof. Lin received the national award for its diamond magnetometer.\nSensitivity: 1 pT/√Hz\nOperating temperature: 300 K\nThe magnetometer is used in brain imaging & geophysics.',
      institute: 'Demo Institute',
    });
    expect(news[0]?.publishDate?.toISOString()).toBe('2025-03-05T00:30:00.000Z');
    expect(news[1]).toMatchObject({ content: 'Labs open their doors on Saturday.', notes: ['no date'] });
    expect(JSON.stringify(news)).not.toMatch(/dataLayer|wp-block|appeared first|<!--/);
    expect(others).toEqual([
      { type: 'reject', key: 'item-without-link', reason: 'no URL', detail: 'An item that links nowhere' },
      { type: 'reject', key: 'https://news.demo-institute.example.edu/2025/03/untitled/', reason: 'no title' },
    ]);
  });

  it('decodes GB2312 feeds and Chinese dates; takes the feed title as institute when none is configured', async () => {
    const { news } = await collect(readNewsFeed(file('news-gb2312.xml'), { maxItems: 100 }));
    expect(news.map((item) => [item.title, item.institute, item.publishDate?.toISOString().slice(0, 10)])).toEqual([
      ['我校团队在量子计算领域取得重要进展', '示例大学新闻网', '2026-03-05'],
      ['生命科学学院举办学术报告会', '示例大学新闻网', '2026-03-06'],
    ]);
    expect(news[0]?.content).toBe('近日，我校物理学院团队在超导量子比特纠错方面取得重要进展，相关成果发表于国际期刊。');
  });

  it('reads a Latin-1 feed that claims UTF-8, with a warning', async () => {
    const { news, others } = await collect(readNewsFeed(file('news-latin1-declared-utf8.xml'), { maxItems: 100 }));
    expect(news[0]?.title).toBe('Café scientifique : la biodiversité en ville');
    expect(others).toMatchObject([{ type: 'warning', reason: 'invalid encoding' }]);
  });

  it('keeps what a malformed, truncated feed still has, and says what went wrong', async () => {
    const { news, others } = await collect(readNewsFeed(file('malformed-feed.xml'), { maxItems: 100 }));
    expect(news.map((item) => item.title)).toEqual(['Tom & Jerry study predator–prey dynamics', 'Second item is fine']);
    expect(news[1]?.notes).toEqual(['no date', 'no content']);
    const reasons = others.map((entry) => `${entry.type}:${'reason' in entry ? entry.reason : ''}`);
    expect(reasons).toContain('warning:malformed XML');
    expect(reasons).toContain('warning:feed truncated');
    expect(reasons).toContain('reject:incomplete entry at end of feed');
  });

  it('refuses a document that is not a feed', async () => {
    await expect(collect(readNewsFeed(file('not-a-feed.html'), { maxItems: 100, institute: 'x' }))).rejects.toThrow(
      /not an RSS or Atom feed: the document's root element is <html>/,
    );
  });

  it('streams a huge feed and stops at the item limit without reading the rest', async () => {
    let produced = 0;
    async function* hugeFeed() {
      yield Buffer.from('<?xml version="1.0"?><rss version="2.0"><channel><title>Huge</title>');
      for (let index = 0; index < 1_000_000; index++) {
        produced++;
        yield Buffer.from(
          `<item><title>Item ${index}</title><link>https://huge.example.org/${index}</link><description>${'x'.repeat(200)}</description></item>`,
        );
      }
      yield Buffer.from('</channel></rss>');
    }
    const { news, others } = await collect(readNewsFeed(hugeFeed(), { maxItems: 500, institute: 'Huge' }));
    expect(news).toHaveLength(500);
    expect(produced).toBeLessThan(2_000);
    expect(others).toMatchObject([{ type: 'warning', reason: 'item limit reached' }]);
  });
});

describe('tier tables', () => {
  it('reads the SCImago export: ";" delimiter, decimal commas, two ISSNs in one column, best quartile', () => {
    const table = parseTierTable(fs.readFileSync(path.join(FIXTURES, 'tiers-scimago.csv'), 'utf8'));
    expect(table.format).toBe('scimago');
    expect(table.label).toBe('scimago-2024');
    expect(table.rows.map((row) => [row.title, row.issns, row.tier])).toEqual([
      ['Journal of Machine Learning Research Letters', ['12345679'], 1],
      ['Journal of Computational Chemistry Letters', ['20493630', '20493649'], 2],
      ['Frontiers of Demo Ecology', ['21678359'], 3],
      ['Nature', ['00280836', '14764687'], 1],
    ]);
    expect(table.rejects).toEqual([
      { line: 6, reason: 'no tier', detail: 'Proceedings of a Demo Workshop: "-"' },
      { line: 7, reason: 'no journal', detail: 'neither a title nor a valid ISSN' },
    ]);
  });

  it('reads a plain issn,title,tier table and names the label after the file', () => {
    const table = parseTierTable(fs.readFileSync(path.join(FIXTURES, 'tiers-plain.csv'), 'utf8'), {
      fileName: '/tmp/tiers-plain.csv',
    });
    expect(table).toMatchObject({ format: 'plain', label: 'tiers-plain' });
    expect(table.rows.map((row) => [row.title, row.issns, row.tier])).toEqual([
      ['Journal of Machine Learning Research Letters', ['12345679'], 2],
      ['Nature', ['00280836'], 1],
      ['Demo Physics Letters', [], 2],
    ]);
    expect(table.rejects.map((reject) => [reject.line, reject.reason])).toEqual([
      [5, 'no tier'],
      [6, 'no tier'],
    ]);
    expect(() => parseTierTable('name,score\nA,1\n')).toThrow(/no tier column/);
  });
});
