import fs from 'node:fs';
import path from 'node:path';
import { createIngestRepositories, sql } from '@radar/db';
import { createTestDatabase, sharedFixturesDir, type TestDatabase } from '@radar/db/testing';
import { RESEARCH_FIELD_IDS } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_ENTRIES, CATALOGUE_JOURNALS, OPENALEX_KEY_ENTRIES } from '../src/catalogue/entries';
import { runSource } from '../src/pipeline/run-source';
import { defaultIngestSettings } from '../src/pipeline/settings';
import { type SourceConfig, sourceConfigSchema } from '../src/pipeline/sources-config';
import type { SourceKind } from '../src/types';
import {
  availableKinds,
  type CatalogueServer,
  ENTRY_PAYLOADS,
  pointAtServer,
  startCatalogueServer,
} from './helpers/catalogue-server';

/**
 * The built-in catalogue's content: every entry valid, every research field served by key-free paper
 * sources, ISSNs that exist (SCImago's 2024 export), and one run of an entry of every kind the catalogue
 * uses, against a local HTTP server serving recorded real payloads, into a real database.
 */

const free = CATALOGUE_ENTRIES.filter((entry) => !OPENALEX_KEY_ENTRIES.includes(entry.name));
const isPaperSource = (entry: SourceConfig) => entry.kind !== 'news-rss';

describe('catalogue entries', () => {
  it('every entry is a valid source, names are unique, and each names its fields', () => {
    const names = CATALOGUE_ENTRIES.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of CATALOGUE_ENTRIES) {
      // Parsing again gives the same entry: nothing is left to a default the schema would change.
      expect(sourceConfigSchema.parse(entry)).toEqual(entry);
      expect(entry.fields?.length, entry.name).toBeGreaterThan(0);
      expect(entry.enabled).toBe(true);
    }
  });

  it('every research field has key-free paper sources and a news source', () => {
    for (const field of RESEARCH_FIELD_IDS) {
      const sources = free.filter((entry) => entry.fields?.includes(field));
      expect(sources.filter(isPaperSource).length, `${field}: paper sources`).toBeGreaterThan(0);
      // Journals through Crossref reach every field, the humanities included.
      expect(
        sources.some((entry) => entry.kind === 'crossref'),
        `${field}: Crossref journals`,
      ).toBe(true);
      expect(
        sources.some((entry) => entry.kind === 'news-rss'),
        `${field}: news`,
      ).toBe(true);
    }
  });

  it('OpenAlex entries are exactly the key-requiring ones, one per OpenAlex field, filtered by primary topic', () => {
    const openalex = CATALOGUE_ENTRIES.filter((entry) => entry.kind === 'openalex');
    expect(OPENALEX_KEY_ENTRIES).toEqual(openalex.map((entry) => entry.name));
    for (const entry of openalex) {
      expect(entry.kind === 'openalex' && entry.filter).toMatch(/^primary_topic\.field\.id:fields\/\d+,type:article$/);
    }
    // With a key, every field but the multidisciplinary one has an OpenAlex field.
    const covered = new Set(openalex.flatMap((entry) => entry.fields ?? []));
    expect(RESEARCH_FIELD_IDS.filter((field) => !covered.has(field))).toEqual(['multidisciplinary']);
  });

  it('Crossref entries list each journal once, and only the multidisciplinary one requires abstracts', () => {
    for (const entry of CATALOGUE_ENTRIES) {
      if (entry.kind !== 'crossref') continue;
      expect(new Set(entry.issns).size).toBe(entry.issns.length);
      expect(CATALOGUE_JOURNALS[entry.name]?.map((journal) => journal.issn.replace('-', ''))).toEqual(entry.issns);
      expect(entry.requireAbstract).toBe(entry.name === 'crossref-multidisciplinary');
    }
  });

  const scimago = path.join(sharedFixturesDir(), 'recorded/journal-tiers/scimago_all_2024_ying-ge-Journal.csv');
  it.skipIf(!fs.existsSync(scimago))(
    'every ISSN of the catalogue is a journal of the SCImago 2024 export (recorded copy)',
    () => {
      const known = new Set<string>();
      for (const line of fs.readFileSync(scimago, 'utf8').split('\n').slice(1)) {
        for (const issn of (line.split(';')[4] ?? '').replace(/"/g, '').split(/,\s*/)) {
          if (issn.trim()) known.add(issn.trim().toUpperCase());
        }
      }
      expect(known.size).toBeGreaterThan(30_000);
      const issns = CATALOGUE_ENTRIES.flatMap((entry) => {
        if (entry.kind === 'crossref') return entry.issns;
        if (entry.kind === 'rss' && typeof entry.journal === 'object') {
          return [entry.journal.issn, entry.journal.eissn].filter((value): value is string => Boolean(value));
        }
        return [];
      });
      expect(issns.length).toBeGreaterThan(150);
      expect(issns.filter((issn) => !known.has(issn.replace('-', '').toUpperCase()))).toEqual([]);
    },
  );
  if (!fs.existsSync(scimago)) console.warn(`skipping the ISSN check: ${scimago} does not exist`);
});

describe('one run per catalogue kind against recorded payloads on a local server', () => {
  let database: TestDatabase;
  let server: CatalogueServer;
  const kinds = availableKinds();
  const settings = defaultIngestSettings({ arxivMinIntervalMs: 0, httpMaxAttempts: 1, openAlexApiKey: 'test-key' });

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startCatalogueServer();
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  const rowsOf = async (table: 'papers' | 'news', source: string) => {
    const result = await database.db.execute<{ count: number }>(
      table === 'papers'
        ? sql`SELECT count(*)::int AS count FROM radar.papers WHERE source = ${source}`
        : sql`SELECT count(*)::int AS count FROM radar.news_items WHERE source = ${source}`,
    );
    return result.rows[0]?.count ?? 0;
  };
  const run = async (name: string, adjust: (entry: SourceConfig) => SourceConfig = (entry) => entry) => {
    const entry = CATALOGUE_ENTRIES.find((candidate) => candidate.name === name);
    if (!entry) throw new Error(`no catalogue entry ${name}`);
    const before = server.requests.length;
    const summary = await runSource(
      { repositories: createIngestRepositories(database.db), settings },
      adjust(pointAtServer(entry, server.url)),
    );
    return { entry, summary, requests: server.requests.slice(before) };
  };
  const usedKinds = new Set(CATALOGUE_ENTRIES.map((entry) => entry.kind));
  const skipUnless = (kind: SourceKind) => {
    if (!kinds.has(kind)) console.warn(`skipping the ${kind} run: its recorded payload is not on this machine`);
    return !kinds.has(kind);
  };

  // The biorxiv kind's runs are tested in biorxiv-adapter.test.ts (pages built from quoted real records).
  it('the catalogue uses these kinds, each tested below or in its adapter test', () => {
    expect([...usedKinds].sort()).toEqual(['arxiv-rss', 'biorxiv', 'crossref', 'news-rss', 'openalex', 'rss']);
  });

  it.skipIf(skipUnless('arxiv-rss'))('arxiv-rss: one request for the feed of its categories', async () => {
    const { summary, requests } = await run('arxiv-history-philosophy');
    expect(requests).toEqual(['/arxiv-rss/physics.hist-ph']);
    expect(summary.counts.added).toBe(3);
    expect(await rowsOf('papers', 'arxiv-history-philosophy')).toBe(3);
    const joined = await run('arxiv-society');
    expect(joined.requests).toEqual(['/arxiv-rss/physics.soc-ph+physics.ed-ph+cs.CY']);
  });

  it.skipIf(skipUnless('crossref'))(
    'crossref: one request per ISSN, the same works stored once, has-abstract only where required',
    async () => {
      // Three of its journals (each ISSN costs a request and a pass over the recorded page).
      const { entry, summary, requests } = await run('crossref-environment-ecology', (entry) =>
        entry.kind === 'crossref' ? { ...entry, issns: entry.issns.slice(0, 3) } : entry,
      );
      const issns = entry.kind === 'crossref' ? entry.issns.slice(0, 3) : [];
      expect(requests).toHaveLength(issns.length);
      requests.forEach((request, index) => {
        const url = new URL(request, server.url);
        expect(url.pathname).toBe(`/crossref/journals/${issns[index]?.slice(0, 4)}-${issns[index]?.slice(4)}/works`);
        expect(url.searchParams.get('filter')).toMatch(/^from-pub-date:\d{4}-\d{2}-\d{2}$/);
      });
      // Three journals answered with the same recorded page: its 20 works are stored once.
      expect(summary.counts.added).toBe(20);
      expect(await rowsOf('papers', 'crossref-environment-ecology')).toBe(20);

      const strict = await run('crossref-multidisciplinary');
      for (const request of strict.requests) {
        expect(new URL(request, server.url).searchParams.get('filter')).toMatch(/,has-abstract:true$/);
      }
    },
  );

  it.skipIf(skipUnless('rss'))('rss: the journal feed, stored under the declared journal', async () => {
    const { summary, requests } = await run('rss-nature');
    expect(requests).toEqual(['/journal-feed/rss-nature']);
    expect(summary.counts.added).toBeGreaterThan(50);
    expect(await rowsOf('papers', 'rss-nature')).toBe(summary.counts.added);
    const journals = await database.db.execute<{ journal_name: string }>(
      sql`SELECT DISTINCT journal_name FROM radar.papers WHERE source = 'rss-nature'`,
    );
    expect(journals.rows.map((row) => row.journal_name)).toEqual(['Nature']);
  });

  it.skipIf(skipUnless('news-rss'))('news-rss: the news feed, stored as news of its institute', async () => {
    const { summary, requests } = await run('news-sciencenet');
    expect(requests).toEqual(['/news-feed/news-sciencenet']);
    expect(summary.counts.added).toBe(60);
    expect(await rowsOf('news', 'news-sciencenet')).toBe(60);
    const institutes = await database.db.execute<{ name: string; homepage_url: string }>(
      sql`SELECT DISTINCT i.name, i.homepage_url FROM radar.news_items n JOIN radar.institutes i ON i.id = n.institute_id
          WHERE n.source = 'news-sciencenet'`,
    );
    expect(institutes.rows).toHaveLength(1);
    expect(institutes.rows[0]?.name).toBe('科学网');
    expect(institutes.rows[0]?.homepage_url).toMatch(/^https:\/\/news\.sciencenet\.cn\/?$/);
  });

  // Structure copies of real answers recorded in public repositories (config/README.md, "Built-in catalogue",
  // names each): WordPress RSS 2.0 with CDATA and content:encoded (Quanta), Atom with escaped-HTML content
  // opening on a figure (The Conversation). Each must give every item a title, its URL and its date.
  it.each([
    [
      'news-quanta',
      'Quanta Magazine',
      'https://www.quantamagazine.org/placeholder-title-about-a-graph-conjecture-20260918/',
    ],
    [
      'news-the-conversation',
      'The Conversation',
      'https://theconversation.com/placeholder-headline-about-body-temperature-900001',
    ],
  ])('%s: the structure of its recorded real answer, stored as news of %s', async (name, institute, firstUrl) => {
    expect(ENTRY_PAYLOADS[name]).toBeDefined();
    const { summary, requests } = await run(name);
    expect(requests).toEqual([`/news-feed/${name}`]);
    expect(summary.counts.added).toBe(2);
    const rows = await database.db.execute<{
      title: string;
      url: string;
      publish_date: Date | null;
      content: string;
      name: string;
    }>(
      sql`SELECT n.title, n.url, n.publish_date, n.content, i.name FROM radar.news_items n
          JOIN radar.institutes i ON i.id = n.institute_id WHERE n.source = ${name} ORDER BY n.publish_date DESC`,
    );
    expect(rows.rows).toHaveLength(2);
    expect(rows.rows[0]?.url).toBe(firstUrl);
    for (const row of rows.rows) {
      expect(row.name).toBe(institute);
      expect(row.title).toMatch(/^Placeholder /);
      expect(row.publish_date).not.toBeNull();
      expect(row.content.length).toBeGreaterThan(20);
      expect(row.content).not.toMatch(/<|&[a-z]+;|first appeared on|count\.gif/);
    }
    expect(new Date(rows.rows[0]?.publish_date ?? 0).toISOString()).toMatch(/^2026-0[89]-\d\dT/);
  });

  it.skipIf(skipUnless('openalex'))('openalex (with a key): the field filter and the key on the request', async () => {
    const { summary, requests } = await run('openalex-materials');
    expect(requests).toHaveLength(1);
    const url = new URL(requests[0] ?? '', server.url);
    expect(url.pathname).toBe('/openalex/works');
    expect(url.searchParams.get('filter')).toMatch(
      /^from_publication_date:\d{4}-\d{2}-\d{2},primary_topic\.field\.id:fields\/25,type:article$/,
    );
    expect(url.searchParams.get('api_key')).toBe('test-key');
    expect(summary.counts.added).toBe(3);
  });
});
