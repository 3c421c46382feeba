import fs from 'node:fs';
import path from 'node:path';
import { sharedFixturesDir } from '@radar/db/testing';
import { describe, expect, it } from 'vitest';
import { readArxivApi, readArxivRss } from '../src/adapters/arxiv';
import { readCrossref } from '../src/adapters/crossref';
import { readJournalFeed, readNewsFeed } from '../src/adapters/feeds';
import { readOpenAlex } from '../src/adapters/openalex';
import { sniffPayload } from '../src/adapters/sniff';
import { collectIssns, normalizeDoi } from '../src/text/identifiers';
import { parseTierTable } from '../src/tiers/tier-table';
import { collect } from './helpers/collect-entries';

/**
 * Every parser over real-world payloads (../shared/fixtures/real, third-party files read in place,
 * never copied): every entry parsed, and each field checked against an independent count of the raw
 * file, so a field that is silently dropped fails the test.
 */

const REAL = path.join(sharedFixturesDir(), 'real');
const hasRealFixtures = fs.existsSync(REAL);
if (!hasRealFixtures) {
  console.warn(`skipping the real-world fixture suite: ${REAL} does not exist (CI has it)`);
}

const file = (name: string) => fs.createReadStream(path.join(REAL, name));
const raw = (name: string) => fs.readFileSync(path.join(REAL, name), 'utf8');
// Third-party JSON, read loosely: the test compares against it field by field.
// biome-ignore lint/suspicious/noExplicitAny: arbitrary third-party documents
type Loose = any;
const json = (name: string) => JSON.parse(raw(name)) as Loose;

/** The raw text of each <entry>/<item> element, for independent counts. */
const rawBlocks = (text: string, element: string) =>
  text
    .split(new RegExp(`<${element}[\\s>]`))
    .slice(1)
    .map((block) => block.split(`</${element}>`)[0] ?? '');
const countOf = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;

describe.skipIf(!hasRealFixtures)('real-world payloads', () => {
  for (const name of [
    'arxiv/rsxiv_query_legacy_format_2025-08.xml',
    'arxiv/rsxiv_query.xml',
    'arxiv/rsxiv_query_missing_id.xml',
    'arxiv/rsxiv_query_empty.xml',
  ]) {
    it(`arXiv API: ${path.basename(name)}`, async () => {
      const text = raw(name);
      const blocks = rawBlocks(text, 'entry');
      const { papers, others } = await collect(readArxivApi(file(name), { maxItems: 10_000 }));
      expect(others).toEqual([]);
      expect(papers).toHaveLength(blocks.length);
      // Each file is the first page (10 results at most) of its query.
      expect(papers).toHaveLength(Math.min(10, Number(/totalResults[^>]*>(\d+)</.exec(text)?.[1])));
      papers.forEach((paper, index) => {
        const block = blocks[index] ?? '';
        expect(paper.arxivId).toBeTruthy();
        expect(paper.title.length).toBeGreaterThan(5);
        expect(paper.authors).toHaveLength(countOf(block, /<author>/g));
        expect(paper.abstract.length).toBeGreaterThan(20);
        expect(paper.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(paper.pdfUrl).toMatch(/\/pdf\//);
        expect(paper.keywords.length).toBeGreaterThanOrEqual(countOf(block, /<category /g) > 0 ? 1 : 0);
        for (const term of block.match(/<category term="([^"]+)"/g) ?? []) {
          expect(paper.keywords).toContain(/term="([^"]+)"/.exec(term)?.[1]);
        }
        const doi = /<arxiv:doi[^>]*>([^<]+)</.exec(block)?.[1];
        if (doi) expect(paper.doi).toBe(normalizeDoi(doi));
      });
    });
  }

  it('arXiv API: journal_ref names the venue, abstracts are one paragraph of joined lines', async () => {
    const { papers } = await collect(readArxivApi(file('arxiv/rsxiv_query.xml'), { maxItems: 100 }));
    const withRef = papers.filter((paper) => paper.sourceIds.journalRef);
    expect(withRef).toHaveLength(countOf(raw('arxiv/rsxiv_query.xml'), /<arxiv:journal_ref>/g));
    // In file order; "AIPConf.Proc.1017:10-17,2008" has no name before its numbers: arXiv stays.
    expect(withRef.map((paper) => paper.journal?.name)).toEqual([
      'CERN Yellow Report',
      'arXiv',
      'Phys. Rev. D',
      'arXiv',
      'Eur. Phys. J. A',
      'Phys.Rev.A',
    ]);
    // A whole citation as journal_ref: arXiv stays the venue, the journal is offered for matching.
    const citation = withRef.find((paper) => /^Li, Y\./.test(paper.sourceIds.journalRef ?? ''));
    expect(citation?.journal).toMatchObject({ name: 'arXiv', isPreprintServer: true });
    expect(citation?.journal?.alternativeNames).toContain('Physical Review Accelerators and Beams');
    const legacy = await collect(readArxivApi(file('arxiv/rsxiv_query_legacy_format_2025-08.xml'), { maxItems: 100 }));
    for (const paper of legacy.papers) expect(paper.abstract).not.toContain('\n');
  });

  it('format sniffing recognises every real payload', () => {
    const formats = Object.fromEntries(
      [
        'arxiv/rsxiv_query_legacy_format_2025-08.xml',
        'arxiv/rsxiv_query.xml',
        'arxiv/rsxiv_query_missing_id.xml',
        'arxiv/rsxiv_query_empty.xml',
        'arxiv/distill_arxiv_rss_cs.AI_2026-04-27_3items_trimmed.xml',
        'arxiv/albatros_arxiv_rss_cs_empty_weekend_2026-03-29.xml',
        'openalex/openalex_works_search_full_schema_3results_fastpaper.json',
        'crossref/crossref_work_single_10.1371_journal.pone.0033693.json',
        'crossref/crossref_journal_2167-8359_works_query_ecology_20items.json',
        'journal-feeds/nature_rss1.0_rdf_75items_2024-07-18.rss',
        'news-feeds/sciencedaily_all_rss2_2020-02-10.xml',
        'journal-tiers/scimago_endocrinology_2024_dreaydemir.csv',
      ].map((name) => {
        const payload = sniffPayload(raw(name).slice(0, 64 * 1024));
        return [
          path.basename(name),
          `${payload.format}${payload.isJournalFeed ? ' journal' : ''}${payload.isBlogFeed ? ' blog' : ''}`,
        ];
      }),
    );
    expect(formats).toEqual({
      'rsxiv_query_legacy_format_2025-08.xml': 'arxiv-api',
      'rsxiv_query.xml': 'arxiv-api',
      'rsxiv_query_missing_id.xml': 'arxiv-api',
      'rsxiv_query_empty.xml': 'arxiv-api',
      'distill_arxiv_rss_cs.AI_2026-04-27_3items_trimmed.xml': 'arxiv-rss',
      'albatros_arxiv_rss_cs_empty_weekend_2026-03-29.xml': 'arxiv-rss',
      'openalex_works_search_full_schema_3results_fastpaper.json': 'openalex',
      'crossref_work_single_10.1371_journal.pone.0033693.json': 'crossref',
      'crossref_journal_2167-8359_works_query_ecology_20items.json': 'crossref',
      'nature_rss1.0_rdf_75items_2024-07-18.rss': 'rss1 journal',
      'sciencedaily_all_rss2_2020-02-10.xml': 'rss2',
      'scimago_endocrinology_2024_dreaydemir.csv': 'csv',
    });
  });

  it('arXiv RSS: three items with announce types, and an empty weekend feed', async () => {
    const name = 'arxiv/distill_arxiv_rss_cs.AI_2026-04-27_3items_trimmed.xml';
    const blocks = rawBlocks(raw(name), 'item');
    const { papers, others } = await collect(readArxivRss(file(name), { maxItems: 100, includeReplacements: false }));
    expect(others).toEqual([]);
    expect(papers).toHaveLength(blocks.length);
    papers.forEach((paper, index) => {
      const block = blocks[index] ?? '';
      const creators = /<dc:creator>([^<]*)</.exec(block)?.[1] ?? '';
      expect(paper.authors).toHaveLength(creators.split(/,\s*|\s+and\s+/).filter(Boolean).length);
      expect(paper.abstract.length).toBeGreaterThan(50);
      expect(paper.abstract).not.toMatch(/Announce Type|^arXiv:/);
      expect(paper.publishedAt).toBe('2026-04-27');
      expect(paper.updateOnly).toBe(/announce_type>replace/.test(block));
    });
    const empty = await collect(
      readArxivRss(file('arxiv/albatros_arxiv_rss_cs_empty_weekend_2026-03-29.xml'), {
        maxItems: 100,
        includeReplacements: false,
      }),
    );
    expect(empty).toEqual({ papers: [], news: [], others: [] });
  });

  it('OpenAlex: abstracts rebuilt where an index exists, ISSNs from the source', async () => {
    const name = 'openalex/openalex_works_search_full_schema_3results_fastpaper.json';
    const works = json(name).results as Loose[];
    const { papers, others } = await collect(readOpenAlex(file(name), { maxItems: 100 }));
    expect(others).toEqual([]);
    expect(papers).toHaveLength(works.length);
    papers.forEach((paper, index) => {
      const work = works[index] as Loose;
      expect(paper.doi).toBe(normalizeDoi(work.doi));
      expect(paper.title).toBe(work.title);
      expect(paper.authors).toHaveLength(work.authorships.length);
      expect(paper.publishedAt).toBe(work.publication_date);
      const words = work.abstract_inverted_index ? Object.values(work.abstract_inverted_index).flat().length : 0;
      expect(paper.abstract.split(' ').filter(Boolean)).toHaveLength(words);
      expect(paper.journal?.name).toBe(work.primary_location.source.display_name);
      expect(paper.journal?.issns.sort()).toEqual(collectIssns(work.primary_location.source.issn).sort());
    });
  });

  it('OpenAlex: who each author is (OpenAlex id, ORCID, institutions), in author order', async () => {
    const name = 'openalex/openalex_works_search_full_schema_3results_fastpaper.json';
    const works = json(name).results as Loose[];
    const { papers } = await collect(readOpenAlex(file(name), { maxItems: 100 }));
    papers.forEach((paper, index) => {
      const authorships = (works[index] as Loose).authorships as Loose[];
      expect(paper.authorIdentities).toHaveLength(authorships.length);
      paper.authorIdentities?.forEach((identity, position) => {
        const authorship = authorships[position] as Loose;
        expect(identity.name).toBe(paper.authors[position]);
        expect(identity.openalexId).toBe(authorship.author.id.replace('https://openalex.org/', ''));
        expect(identity.orcid).toBe(authorship.author.orcid?.replace('https://orcid.org/', '') ?? undefined);
        // The first institution is named (at most three are kept).
        expect(identity.affiliation?.split('; ')[0]).toBe(authorship.institutions[0]?.display_name);
      });
    });
    // Counted independently: authorships with an ORCID in the file, identities with one out of the adapter.
    const withOrcid = works.flatMap((work: Loose) => work.authorships).filter((a: Loose) => a.author.orcid).length;
    expect(withOrcid).toBeGreaterThan(0);
    expect(papers.flatMap((paper) => paper.authorIdentities ?? []).filter((identity) => identity.orcid)).toHaveLength(
      withOrcid,
    );
  });

  it('Crossref: ORCID iDs and affiliation lines where deposited; none for a work with names only', async () => {
    const single = 'crossref/crossref_work_single_10.1371_journal.pone.0033693.json';
    const { papers: singlePapers } = await collect(readCrossref(file(single), { maxItems: 100 }));
    // That deposit gives names only (no ORCID, empty affiliations): nothing beyond the names is kept.
    expect(singlePapers[0]?.authors.length).toBeGreaterThan(0);
    expect(singlePapers[0]?.authorIdentities).toBeUndefined();

    const page = 'crossref/crossref_journal_2167-8359_works_query_ecology_20items.json';
    const items = json(page).message.items as Loose[];
    const { papers } = await collect(readCrossref(file(page), { maxItems: 100 }));
    let orcids = 0;
    papers.forEach((paper, index) => {
      const authors = ((items[index] as Loose).author ?? []) as Loose[];
      const knowsMore = authors.some((author) => author.ORCID || author.affiliation?.length);
      if (!knowsMore) {
        expect(paper.authorIdentities).toBeUndefined();
        return;
      }
      expect(paper.authorIdentities).toHaveLength(authors.length);
      paper.authorIdentities?.forEach((identity, position) => {
        const author = authors[position] as Loose;
        expect(identity.name).toBe(paper.authors[position]);
        expect(identity.orcid).toBe(author.ORCID?.replace(/^https?:\/\/orcid\.org\//, '') ?? undefined);
        if (identity.orcid) orcids++;
        // The first affiliation leads (runs of spaces and line breaks in the deposit are one space).
        const first = (author.affiliation?.[0]?.name as string | undefined)?.replace(/\s+/g, ' ').trim();
        if (first) expect(identity.affiliation?.startsWith(first)).toBe(true);
        else expect(identity.affiliation).toBeUndefined();
      });
    });
    expect(orcids).toBe(items.flatMap((item) => item.author ?? []).filter((author: Loose) => author.ORCID).length);
    expect(orcids).toBeGreaterThan(0);
  });

  it('Crossref: a single work and a journal page of 20, with JATS abstracts and dates', async () => {
    for (const name of [
      'crossref/crossref_work_single_10.1371_journal.pone.0033693.json',
      'crossref/crossref_journal_2167-8359_works_query_ecology_20items.json',
    ]) {
      const message = json(name).message as Loose;
      const items = (message.items ?? [message]) as Loose[];
      const { papers, others } = await collect(readCrossref(file(name), { maxItems: 100 }));
      expect(others).toEqual([]);
      expect(papers).toHaveLength(items.length);
      papers.forEach((paper, index) => {
        const item = items[index] as Loose;
        expect(paper.doi).toBe(normalizeDoi(item.DOI));
        expect(paper.title.length).toBeGreaterThan(5);
        expect(paper.title).not.toMatch(/<\/?i>|\n/);
        expect(paper.authors).toHaveLength(item.author?.length ?? 0);
        expect(paper.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(Boolean(paper.abstract)).toBe(Boolean(item.abstract));
        if (item.abstract) expect(paper.abstract).not.toMatch(/jats:|<\/?[a-z]/);
        expect(paper.journal?.issns.sort()).toEqual(collectIssns(item.ISSN).sort());
      });
    }
  });

  it('Nature RSS 1.0: 75 items with DOI, creators and date', async () => {
    const name = 'journal-feeds/nature_rss1.0_rdf_75items_2024-07-18.rss';
    const blocks = rawBlocks(raw(name), 'item');
    const { papers, others } = await collect(readJournalFeed(file(name), { maxItems: 1_000 }));
    expect(blocks).toHaveLength(75);
    expect(others).toEqual([]);
    expect(papers).toHaveLength(75);
    papers.forEach((paper, index) => {
      const block = blocks[index] ?? '';
      expect(paper.doi).toBe(normalizeDoi(/<prism:doi>([^<]+)</.exec(block)?.[1]));
      expect(paper.authors).toHaveLength(countOf(block, /<dc:creator>/g));
      expect(paper.publishedAt).toBe(/<dc:date>([^<]+)</.exec(block)?.[1]);
      expect(paper.journal?.name).toBe('Nature');
      expect(paper.url).toBe(/<link>([^<]+)</.exec(block)?.[1]);
      expect(paper.title).not.toMatch(/<|CDATA/);
      expect(paper.abstract).not.toMatch(/Published online|doi:/);
    });
  });

  it('ScienceDaily RSS 2.0: 60 news items, EST dates, HTML comments gone', async () => {
    const name = 'news-feeds/sciencedaily_all_rss2_2020-02-10.xml';
    const blocks = rawBlocks(raw(name), 'item');
    const { news, others } = await collect(readNewsFeed(file(name), { maxItems: 1_000, institute: 'ScienceDaily' }));
    expect(blocks).toHaveLength(60);
    expect(others).toEqual([]);
    expect(news).toHaveLength(60);
    news.forEach((item, index) => {
      const block = blocks[index] ?? '';
      expect(item.url).toBe(/<link>([^<]+)</.exec(block)?.[1]);
      const pubDate = /<pubDate>([^<]+)</.exec(block)?.[1] ?? '';
      expect(item.publishDate?.getTime()).toBe(Date.parse(pubDate.replace(/ EST$/, ' -0500')));
      expect(item.content.length).toBeGreaterThan(30);
      expect(item.content).not.toMatch(/<!--|more -->|&#039;/);
    });
  });

  it('SCImago export: 249 journals, every row with ISSNs and a quartile', () => {
    const name = 'journal-tiers/scimago_endocrinology_2024_dreaydemir.csv';
    const text = raw(name);
    const table = parseTierTable(text, { fileName: name });
    const dataLines = text.split(/\r?\n/).filter(Boolean).length - 1;
    expect(table.format).toBe('scimago');
    expect(table.label).toBe('scimago-2024');
    expect(table.rows.length + table.rejects.length).toBe(dataLines);
    expect(table.rows).toHaveLength(249);
    for (const row of table.rows) {
      expect(row.issns.length).toBeGreaterThan(0);
      expect([1, 2, 3, 4]).toContain(row.tier);
      expect(row.title.length).toBeGreaterThan(2);
    }
    const quartiles = text.match(/;Q[1-4];/g) ?? [];
    expect(table.rows.filter((row) => row.tier === 1)).toHaveLength(quartiles.filter((q) => q === ';Q1;').length);
  });
});
