import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createIngestRepositories, PaperRepository, SourceStateRepository, sql } from '@radar/db';
import { createTestDatabase, sharedFixturesDir, type TestDatabase } from '@radar/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { biorxivAbstract } from '../src/adapters/biorxiv';
import { PREPRINT_CATALOGUE_ENTRIES } from '../src/catalogue/preprint-entries';
import { runSource, SourceRunError } from '../src/pipeline/run-source';
import { defaultIngestSettings } from '../src/pipeline/settings';
import { type SourceConfigOf, sourceConfigSchema } from '../src/pipeline/sources-config';

/**
 * The bioRxiv/medRxiv adapter through the real runSource into a real database, against a local HTTP
 * server in the details API's place. The records are real ones (<shared fixtures>/recorded/biorxiv,
 * outside the repository: bioRxiv publishes no licence for its metadata); the server pages them the
 * way api.biorxiv.org does (record offsets as cursors, `total` as a string). Bad answers (not JSON, 5xx,
 * an empty 200, an error status) need no recorded data and always run.
 */

const RECORDED = path.join(sharedFixturesDir(), 'recorded', 'biorxiv', 'records.json');
const hasRecorded = fs.existsSync(RECORDED);
if (!hasRecorded) console.warn(`skipping the bioRxiv recorded-payload tests: ${RECORDED} does not exist`);
// biome-ignore lint/suspicious/noExplicitAny: third-party records, read loosely
type Loose = any;
const recorded: Loose = hasRecorded ? JSON.parse(fs.readFileSync(RECORDED, 'utf8')) : {};

const NOW = new Date('2026-08-02T12:00:00Z');

/** What the server answers for one server name: records paged by `pageSize`, or a fixed reply. */
type Reply = { status: number; body: string; contentType?: string };
interface Served {
  records?: Loose[];
  pageSize?: number;
  reply?: Reply;
}

let database: TestDatabase;
let server: http.Server;
let base: string;
const served: Record<string, Served> = {};
const requests: string[] = [];

function answer(name: string, cursor: number, category: string | null): Reply {
  const config = served[name];
  if (!config) return { status: 404, body: 'not found' };
  if (config.reply) return config.reply;
  const records = config.records ?? [];
  const size = config.pageSize ?? 30;
  if (records.length === 0) {
    return { status: 200, body: JSON.stringify({ messages: [recorded.messages.empty], collection: [] }) };
  }
  const page = records.slice(cursor, cursor + size);
  const message = {
    ...recorded.messages[name === 'medrxiv' ? 'medrxiv' : 'biorxiv'],
    category: category ?? 'all',
    cursor,
    count: page.length,
    total: String(records.length),
  };
  return { status: 200, body: JSON.stringify({ messages: [message], collection: page }) };
}

const source = (fields: Record<string, unknown>) =>
  sourceConfigSchema.parse({ kind: 'biorxiv', baseUrl: base, ...fields }) as SourceConfigOf<'biorxiv'>;
const settings = defaultIngestSettings({ httpMaxAttempts: 1, httpRetryBaseDelayMs: 1 });
const run = (config: SourceConfigOf<'biorxiv'>, now = NOW) =>
  runSource({ repositories: createIngestRepositories(database.db), settings }, config, { now });

type Row = {
  title: string;
  doi: string | null;
  authors: string[];
  abstract: string;
  journal_name: string;
  journal_id: number | null;
  jcr_tier: number | null;
  pdf_url: string | null;
  url: string;
  keywords: string[];
  published_at: string | null;
  source_ids: Record<string, string>;
  source: string;
};
async function rows(sourceName: string): Promise<Row[]> {
  const result = await database.db.execute<Row>(
    sql`SELECT title, doi, authors, abstract, journal_name, journal_id, jcr_tier, pdf_url, url, keywords,
               published_at::text, source_ids, source
        FROM radar.papers WHERE source = ${sourceName} ORDER BY id`,
  );
  return result.rows;
}

beforeAll(async () => {
  database = await createTestDatabase();
  server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(`${url.pathname}${url.search}`);
    const match = /^\/details\/(\w+)\/(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})\/(\d+)(?:\/json)?$/.exec(url.pathname);
    const reply = match
      ? answer(match[1] ?? '', Number(match[4]), url.searchParams.get('category'))
      : { status: 404, body: 'not found' };
    response.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json' }).end(reply.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await database?.close();
});

describe('bioRxiv/medRxiv: bad answers fail the run with a clear error', () => {
  const failure = async (reply: Reply) => {
    served.biorxiv = { reply };
    const error = await run(source({ name: `bad-${requests.length}`, server: 'biorxiv' })).catch((caught) => caught);
    expect(error).toBeInstanceOf(SourceRunError);
    return error as SourceRunError;
  };

  it('an HTML page instead of JSON: permanent, says where and why', async () => {
    const error = await failure({
      status: 200,
      body: '<html><body>Service Unavailable</body></html>',
      contentType: 'text/html',
    });
    expect(error.message).toMatch(/^bioRxiv API \(records from 0\): malformed JSON/);
    expect(error.isPermanent).toBe(true);
  });

  it('a 5xx: transient, with the status', async () => {
    const error = await failure({ status: 500, body: 'Internal Server Error', contentType: 'text/plain' });
    expect(error.message).toMatch(/answered 500/);
    expect(error.isPermanent).toBe(false);
  });

  it('an empty 200 (a known fault of the API) is not an empty window: transient', async () => {
    const error = await failure({ status: 200, body: '' });
    expect(error.message).toBe('bioRxiv API (records from 0): empty answer');
    expect(error.isPermanent).toBe(false);
  });

  it('an error status inside a 200 names the status', async () => {
    const error = await failure({ status: 200, body: '{"messages":[{"status":"invalid interval"}],"collection":[]}' });
    expect(error.message).toBe('bioRxiv API (records from 0): the API answered status "invalid interval"');
    expect(error.isPermanent).toBe(true);
  });

  it('the state records the failure for the operator', async () => {
    const all = await database.db.execute<{ name: string; last_error: string | null }>(
      sql`SELECT name, last_error FROM radar.ingest_sources WHERE name LIKE 'bad-%' ORDER BY name`,
    );
    expect(all.rows.map((row) => row.last_error)).toEqual(
      expect.arrayContaining([expect.stringMatching(/empty answer/), expect.stringMatching(/malformed JSON/)]),
    );
  });
});

describe('bioRxiv abstracts', () => {
  it('drops the flattened typesetting markers bioRxiv leaves in abstracts', () => {
    expect(
      biorxivAbstract(
        'AO_SCPCAPBSTRACTC_SCPCAP Cells divide.O_LIfirst pointC_LIO_LIsecond pointC_LI O_FIG O_LINKSMALLFIG WIDTH=200 C_FIG Done.',
      ),
    ).toBe('ABSTRACT Cells divide. first point second point Done.');
  });
});

describe.skipIf(!hasRecorded)('bioRxiv/medRxiv against recorded real records', () => {
  it('pages by cursor through every record of the window and stores each as a preprint without tier', async () => {
    served.biorxiv = { records: recorded.biorxiv, pageSize: 3 };
    requests.length = 0;
    const summary = await run(source({ name: 'biorxiv-all', server: 'biorxiv', lookbackDays: 2 }));
    // Four records, pages of three: cursors 0 and 3, the window from the look-back to today.
    expect(requests).toEqual([
      '/details/biorxiv/2026-07-31/2026-08-02/0/json',
      '/details/biorxiv/2026-07-31/2026-08-02/3/json',
    ]);
    expect(summary.counts).toMatchObject({ added: 4, rejected: 0 });
    const stored = await rows('biorxiv-all');
    expect(stored.map((row) => row.doi)).toEqual(recorded.biorxiv.map((record: Loose) => record.doi.toLowerCase()));
    for (const row of stored) {
      expect(row).toMatchObject({ journal_name: 'bioRxiv', journal_id: null, jcr_tier: null });
      expect(row.url).toBe(`https://www.biorxiv.org/content/${row.doi}`);
      expect(row.pdf_url).toBe(`https://www.biorxiv.org/content/${row.doi}v1.full.pdf`);
      expect(row.source_ids).toMatchObject({ biorxiv: row.doi, preprintVersion: '1' });
    }
    const [loconsole, sinha] = stored;
    expect(loconsole?.authors).toEqual(['M. Loconsole', 'C. Xue', 'E. Garcia-Pelegrin']);
    expect(loconsole?.keywords).toEqual(['animal behavior and cognition']);
    expect(loconsole?.published_at).toBe('2026-08-01');
    expect(loconsole?.abstract).toMatch(/^Humans reliably associate certain speech-like sounds/);
    expect(sinha?.authors).toEqual(['A. K. Sinha', 'C. Lee']);
    expect(summary.notes['no abstract']).toBe(2);
    const state = await new SourceStateRepository(database.db).get('biorxiv-all');
    expect(state?.cursor).toEqual({ lastSuccessDate: '2026-08-02', from: '2026-07-31' });
  });

  it('the next run starts from the last successful one minus the look-back, and stores nothing twice', async () => {
    requests.length = 0;
    const summary = await run(
      source({ name: 'biorxiv-all', server: 'biorxiv', lookbackDays: 2 }),
      new Date('2026-08-05T08:00:00Z'),
    );
    expect(requests[0]).toBe('/details/biorxiv/2026-07-31/2026-08-05/0/json');
    expect(summary.counts).toMatchObject({ added: 0, updated: 0, unchanged: 4 });
  });

  it('a later version of a stored preprint replaces its text; an older one never does', async () => {
    const [first] = recorded.biorxiv;
    const revised = { ...first, version: '2', date: '2026-08-04', abstract: `${first.abstract} Revised in version 2.` };
    served.biorxiv = { records: [revised, first] };
    const summary = await run(source({ name: 'biorxiv-all', server: 'biorxiv' }), new Date('2026-08-05T08:00:00Z'));
    expect(summary.counts).toMatchObject({ added: 0, updated: 1 });
    expect(summary.skippedReasons).toEqual({ 'older version of a preprint in this run': 1 });
    const [row] = (await rows('biorxiv-all')).filter((paper) => paper.doi === first.doi);
    expect(row?.abstract).toMatch(/Revised in version 2\.$/);
    expect(row?.pdf_url).toBe(`https://www.biorxiv.org/content/${first.doi}v2.full.pdf`);
    expect(row?.source_ids.preprintVersion).toBe('2');
    // Version 1 again in a later run: left alone.
    served.biorxiv = { records: [first] };
    const again = await run(source({ name: 'biorxiv-all', server: 'biorxiv' }), new Date('2026-08-06T08:00:00Z'));
    expect(again.counts).toMatchObject({ updated: 0, unchanged: 1 });
  });

  it('medRxiv: several versions of one DOI are one paper at its latest version; the journal DOI links the journal record', async () => {
    // The journal version of 10.1101/2021.04.29.21256344 is already stored (from a journal source).
    const journalDoi = recorded.medrxiv[2].published.toLowerCase();
    await new PaperRepository(database.db).insertMany([
      {
        title: 'Journal version',
        authors: ['A. Surname'],
        abstract: 'Published abstract.',
        journalName: 'PLOS ONE',
        doi: journalDoi,
        url: `https://doi.org/${journalDoi}`,
        keywords: [],
        sourceIds: { crossref: journalDoi },
        source: 'crossref-plos',
      },
    ]);
    served.medrxiv = { records: recorded.medrxiv, pageSize: 2 };
    requests.length = 0;
    const summary = await run(source({ name: 'medrxiv-all', server: 'medrxiv' }));
    expect(requests).toEqual([
      '/details/medrxiv/2026-07-30/2026-08-02/0/json',
      '/details/medrxiv/2026-07-30/2026-08-02/2/json',
    ]);
    // v1 then v2 of one DOI: added, then updated to version 2; the published preprint joined its journal row.
    expect(summary.counts).toMatchObject({ added: 1, updated: 2, rejected: 0 });
    const preprints = await rows('medrxiv-all');
    expect(preprints).toHaveLength(1);
    expect(preprints[0]).toMatchObject({
      doi: '10.1101/2020.09.09.20191205',
      journal_name: 'medRxiv',
      url: 'https://www.medrxiv.org/content/10.1101/2020.09.09.20191205',
      pdf_url: 'https://www.medrxiv.org/content/10.1101/2020.09.09.20191205v2.full.pdf',
    });
    expect(preprints[0]?.source_ids).toMatchObject({ medrxiv: '10.1101/2020.09.09.20191205', preprintVersion: '2' });
    const [journal] = await rows('crossref-plos');
    expect(journal).toMatchObject({ doi: journalDoi, journal_name: 'PLOS ONE', title: 'Journal version' });
    expect(journal?.source_ids).toMatchObject({ crossref: journalDoi, medrxiv: '10.1101/2021.04.29.21256344' });
  });

  it('categories: asked of the API one by one, and records of other categories are not stored', async () => {
    served.biorxiv = { records: recorded.biorxiv };
    requests.length = 0;
    const summary = await run(
      source({ name: 'biorxiv-neuro', server: 'biorxiv', categories: ['Neuroscience', 'bioinformatics'] }),
    );
    expect(requests).toEqual([
      '/details/biorxiv/2026-07-30/2026-08-02/0/json?category=neuroscience',
      '/details/biorxiv/2026-07-30/2026-08-02/0/json?category=bioinformatics',
    ]);
    // This server ignores the filter and answers all four each time: the adapter keeps those that match.
    // The first walk reads both matching records (stored by an earlier test: unchanged); the second
    // reads them again and skips them.
    expect(summary.skippedReasons).toMatchObject({
      'outside the configured categories': 4,
      'already read in this run': 2,
    });
    expect(summary.counts.added + summary.counts.unchanged).toBe(2);
  });

  it('an empty window ("no posts found") is a successful run with nothing new', async () => {
    served.biorxiv = { records: [] };
    const summary = await run(source({ name: 'biorxiv-quiet', server: 'biorxiv' }));
    expect(summary.counts).toMatchObject({ seen: 0, added: 0 });
    const state = await new SourceStateRepository(database.db).get('biorxiv-quiet');
    expect(state?.lastError ?? null).toBeNull();
  });
});

describe('bioRxiv/medRxiv catalogue entries', () => {
  // The servers' category lists as the details API writes them (enumerated over 2024-2026 answers).
  const CATEGORIES = {
    biorxiv:
      'animal behavior and cognition|biochemistry|bioengineering|bioinformatics|biophysics|cancer biology|cell biology|developmental biology|ecology|evolutionary biology|genetics|genomics|immunology|microbiology|molecular biology|neuroscience|paleontology|pathology|pharmacology and toxicology|physiology|plant biology|scientific communication and education|synthetic biology|systems biology|zoology',
    medrxiv:
      'addiction medicine|allergy and immunology|anesthesia|cardiovascular medicine|dentistry and oral medicine|dermatology|emergency medicine|endocrinology|epidemiology|forensic medicine|gastroenterology|genetic and genomic medicine|geriatric medicine|health economics|health informatics|health policy|health systems and quality improvement|hematology|hiv aids|infectious diseases|intensive care and critical care medicine|medical education|medical ethics|nephrology|neurology|nursing|nutrition|obstetrics and gynecology|occupational and environmental health|oncology|ophthalmology|orthopedics|otolaryngology|pain medicine|palliative medicine|pathology|pediatrics|pharmacology and therapeutics|primary care research|psychiatry and clinical psychology|public and global health|radiology and imaging|rehabilitation medicine and physical therapy|respiratory medicine|rheumatology|sexual and reproductive health|sports medicine|surgery|toxicology|transplantation|urology',
  };

  it('name only real categories of their server, each entry with fields and a unique name', () => {
    const names = new Set<string>();
    for (const entry of PREPRINT_CATALOGUE_ENTRIES) {
      if (entry.kind !== 'biorxiv') throw new Error(`${entry.name} is not a biorxiv entry`);
      expect(names.has(entry.name)).toBe(false);
      names.add(entry.name);
      expect(entry.fields?.length).toBeGreaterThan(0);
      const known = new Set(CATEGORIES[entry.server].split('|'));
      for (const category of entry.categories) expect(known.has(category), `${entry.name}: ${category}`).toBe(true);
    }
    const whole = PREPRINT_CATALOGUE_ENTRIES.filter(
      (entry) => entry.kind === 'biorxiv' && entry.categories.length === 0,
    );
    expect(whole.map((entry) => [entry.name, entry.fields])).toEqual([
      ['medrxiv', ['medicine']],
      ['biorxiv', ['biology']],
    ]);
  });
});
