import fs from 'node:fs';
import path from 'node:path';
import { createAiServices } from '@radar/ai';
import { createAiRepositories, createIngestRepositories, sql, TierRefreshRepository } from '@radar/db';
import { createTestDatabase, sharedFixturesDir, type TestDatabase } from '@radar/db/testing';
import { DEFAULT_TIER_REFRESH_SETTINGS, defaultIngestSettings, type IngestSettings } from '@radar/ingest';
import { testQueueConnection } from '@radar/jobs/testing';
import { loadConfig } from '@radar/shared/server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createJournalTiersProcessor,
  type QueueConnection,
  removeRedisQueueData,
  startWorkerApp,
  type WorkerApp,
} from '../src';
import { type LocalHttpServer, startLocalHttpServer } from './helpers/local-http';

/**
 * Journal tiers with no operator step, on a real database and queue backend: the worker app schedules the
 * SCImago refresh and runs it soon after start against a local server serving SCImago's real export (read
 * in place), an operator's imported tier survives it, a second run changes nothing; and the OpenAlex
 * quartiles for journals SCImago lacks, with their requests counted.
 */

const SCIMAGO = path.join(sharedFixturesDir(), 'real', 'journal-tiers', 'scimago_endocrinology_2024_dreaydemir.csv');
const hasScimago = fs.existsSync(SCIMAGO);
if (!hasScimago) console.warn(`skipping the scheduled SCImago refresh: ${SCIMAGO} does not exist (CI has it)`);

let database: TestDatabase;
let http: LocalHttpServer;
let htmlInstead = false;

async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A journal row and one paper citing it; returns the journal id. */
async function journalWithPaper(
  title: string,
  issn: string,
  tier?: { tier: number; system: string; source: string; year: number },
): Promise<number> {
  const result = await database.db.execute<{ id: number }>(sql`
    INSERT INTO radar.journals (title, title_normalized, issn, tier, tier_source, tier_system, tier_year)
    VALUES (${title}, ${title.toLowerCase()}, ${issn}, ${tier?.tier ?? null}, ${tier?.source ?? null},
            ${tier?.system ?? null}, ${tier?.year ?? null})
    RETURNING id`);
  const id = Number(result.rows[0]?.id);
  await database.db.execute(sql`
    INSERT INTO radar.papers (source, title, authors, abstract, journal_name, journal_id, jcr_tier, url, published_at)
    VALUES ('test', ${`A paper in ${title}`}, '["A. Author"]'::jsonb, '', ${title}, ${id}, ${tier?.tier ?? null},
            ${`https://example.org/${issn}`}, '2026-01-01')`);
  return id;
}

async function paperTier(journalId: number) {
  const result = await database.db.execute<{ jcr_tier: number | null; tier_system: string | null; tier_year: number }>(
    sql`SELECT p.jcr_tier, j.tier_system, j.tier_year FROM radar.papers p JOIN radar.journals j ON j.id = p.journal_id
        WHERE p.journal_id = ${journalId}`,
  );
  return result.rows[0];
}

function settingsFor(overrides: Partial<IngestSettings['tiers']> = {}, extra: Partial<IngestSettings> = {}) {
  return defaultIngestSettings({
    enabled: true,
    httpMaxAttempts: 1,
    httpRetryBaseDelayMs: 20,
    tiers: {
      ...DEFAULT_TIER_REFRESH_SETTINGS,
      scimagoBaseUrl: http.url,
      openAlexBaseUrl: `${http.url}/openalex`,
      startDelayMs: 0,
      ...overrides,
    },
    ...extra,
  });
}

// --- OpenAlex sources answers, in the shape of the API's source objects (summary_stats, topics with
// their field): OpenAlex's own source schema (ourresearch/openalex-elastic-api, sources/schemas.py).
const field = (id: number, name: string) => ({ id: `https://openalex.org/fields/${id}`, display_name: name });
const MEDICINE = field(27, 'Medicine');
const COMPUTING = field(17, 'Computer Science');
const ARTS = field(12, 'Arts and Humanities');
const topic = (n: number, of: { id: string; display_name: string }, count: number) => ({
  id: `https://openalex.org/T${10000 + n}`,
  display_name: `Topic ${n}`,
  count,
  subfield: { id: `https://openalex.org/subfields/${of.id.split('/').pop()}01`, display_name: 'Sub' },
  field: of,
  domain: { id: 'https://openalex.org/domains/3', display_name: 'Domain' },
});
const source = (
  id: number,
  citedness: number,
  fields: { of: typeof MEDICINE; count: number }[],
  issns: string[] = [],
) => ({
  id: `https://openalex.org/S${id}`,
  issn_l: issns[0] ?? null,
  issn: issns.length ? issns : null,
  display_name: `Journal ${id}`,
  type: 'journal',
  summary_stats: { '2yr_mean_citedness': citedness, h_index: 40, i10_index: 300 },
  topics: fields.map((entry, index) => topic(id * 10 + index, entry.of, entry.count)),
});
// The yearly reference sample: 40 medicine journals (citedness 1-40), 40 computing ones (0.1-4.0), 5 arts.
const SAMPLE = [
  ...Array.from({ length: 40 }, (_, i) =>
    source(1000 + i, i + 1, [
      { of: MEDICINE, count: 90 },
      { of: COMPUTING, count: 10 },
    ]),
  ),
  ...Array.from({ length: 40 }, (_, i) => source(2000 + i, (i + 1) / 10, [{ of: COMPUTING, count: 50 }])),
  ...Array.from({ length: 5 }, (_, i) => source(3000 + i, 0.5 + i, [{ of: ARTS, count: 20 }])),
];
const LOOKED_UP = [
  source(
    9001,
    35,
    [
      { of: MEDICINE, count: 200 },
      { of: COMPUTING, count: 20 },
    ],
    ['1111-1111'],
  ),
  source(9002, 2.5, [{ of: COMPUTING, count: 80 }], ['2049-3630', '2222-2227']),
  // Too few arts journals in the sample: the boundaries of all sampled journals apply.
  source(9003, 30, [{ of: ARTS, count: 30 }], ['3333-3336']),
  source(9004, 0, [{ of: MEDICINE, count: 5 }], ['4444-4444']),
];

let openAlexRequests: URL[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  http = await startLocalHttpServer({
    '/journalrank.php': async (_request, response, url) => {
      if (url.searchParams.get('out') !== 'xls') return void response.writeHead(400).end('out=xls expected');
      if (htmlInstead) {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><title>Just a moment...');
        return;
      }
      response
        .writeHead(200, { 'content-type': 'application/vnd.ms-excel; charset=utf-8' })
        .end(fs.readFileSync(SCIMAGO));
    },
    '/openalex/sources': (_request, response, url) => {
      openAlexRequests.push(url);
      const filter = url.searchParams.get('filter') ?? '';
      let results: unknown[];
      if (url.searchParams.has('sample')) {
        const page = Number(url.searchParams.get('page'));
        const size = Number(url.searchParams.get('per-page'));
        results = SAMPLE.slice((page - 1) * size, page * size);
      } else if (filter.startsWith('issn:')) {
        const wanted = new Set(filter.slice(5).split('|'));
        results = LOOKED_UP.filter((entry) => entry.issn?.some((issn) => wanted.has(issn)));
      } else {
        response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"unexpected query"}');
        return;
      }
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ meta: { count: results.length, page: 1, per_page: 200 }, results, group_by: [] }));
    },
  });
});

afterAll(async () => {
  await http?.close();
  await database?.close();
});

describe.skipIf(!hasScimago)('the scheduled SCImago refresh', () => {
  let connection: QueueConnection;
  let app: WorkerApp | undefined;

  afterAll(async () => {
    await app?.close();
    if (process.env.REDIS_URL && connection) await removeRedisQueueData(process.env.REDIS_URL, connection.prefix);
  });

  it('runs soon after the worker starts, maps the export to tiers and keeps an imported tier', async () => {
    // Journals papers already reference: one SCImago ranks (Endocrine Reviews, Q1), one an institution
    // tiered itself (The Lancet Diabetes and Endocrinology, Q1 in SCImago, 2 in its own table).
    const endocrineReviews = await journalWithPaper('Endocrine Reviews', '19457189');
    const lancet = await journalWithPaper('The Lancet Diabetes and Endocrinology', '22138595', {
      tier: 2,
      system: 'imported',
      source: 'jcr-2025',
      year: 2025,
    });
    connection = testQueueConnection(database);
    const logger = pino({ level: 'silent' });
    app = await startWorkerApp({
      connection,
      database,
      concurrency: 1,
      logger,
      ai: createAiServices(loadConfig({}), createAiRepositories(database.db), logger),
      ingest: settingsFor(),
    });

    const tiered = await waitFor('the SCImago tiers', async () => {
      const row = await paperTier(endocrineReviews);
      return row?.jcr_tier ? row : undefined;
    });
    expect(tiered).toEqual({ jcr_tier: 1, tier_system: 'scimago', tier_year: 2024 });
    expect(await paperTier(lancet)).toEqual({ jcr_tier: 2, tier_system: 'imported', tier_year: 2025 });
    const lancetFields = await database.db.execute<{ research_fields: string[] }>(
      sql`SELECT research_fields FROM radar.journals WHERE tier_system = 'imported'`,
    );
    expect(lancetFields.rows[0]?.research_fields).toContain('medicine');
    // The refresh records its state after it has written the tiers: wait for that write too.
    const refreshes = new TierRefreshRepository(database.db);
    const state = await waitFor('the SCImago refresh state', async () => {
      const row = await refreshes.get('scimago');
      return row?.lastSuccessAt ? row : undefined;
    });
    expect(state.year).toBe(2024);
    // The kept journal (imported tier, no subject areas) still takes SCImago's areas: updated too.
    expect(state.summary).toMatchObject({
      label: 'scimago-2024',
      journalsKept: 1,
      journalsUpdated: 2,
      journalsAdded: 247,
    });
    const count = await database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM radar.journals WHERE tier_system = 'scimago' AND tier_year = 2024`,
    );
    expect(count.rows[0]?.n).toBe(248);
    expect(http.requests.filter((request) => request.path === '/journalrank.php?out=xls')).toHaveLength(1);
  });

  it('is idempotent: a run soon after skips, a forced one changes nothing', async () => {
    const run = createJournalTiersProcessor({
      repositories: createIngestRepositories(database.db),
      settings: settingsFor(),
    });
    const skipped = (await run({ data: { system: 'scimago' } })) as { outcome: string; reason: string };
    expect(skipped.outcome).toBe('skipped');
    const fetchesBefore = http.requests.filter((request) => request.path.startsWith('/journalrank.php')).length;
    const again = await run({ data: { system: 'scimago', force: true } });
    expect(again).toMatchObject({
      outcome: 'success',
      year: 2024,
      journalsAdded: 0,
      journalsUpdated: 0,
      journalsKept: 1,
    });
    expect(http.requests.filter((request) => request.path.startsWith('/journalrank.php'))).toHaveLength(
      fetchesBefore + 1,
    );
  });

  it('a bot-check page instead of the export fails the run with a clear error and keeps the tiers', async () => {
    htmlInstead = true;
    try {
      const run = createJournalTiersProcessor({
        repositories: createIngestRepositories(database.db),
        settings: settingsFor(),
      });
      await expect(run({ data: { system: 'scimago', force: true } })).rejects.toThrow(/HTML page instead of the CSV/);
      const state = await new TierRefreshRepository(database.db).get('scimago');
      expect(state?.lastError).toMatch(/HTML page/);
      expect(state?.year).toBe(2024);
    } finally {
      htmlInstead = false;
    }
  });
});

describe('OpenAlex quartiles for journals SCImago lacks', () => {
  it('ranks two-year mean citedness within the journal field, counting its requests', async () => {
    openAlexRequests = [];
    const medicine = await journalWithPaper('Untiered Medicine Journal', '11111111');
    const computing = await journalWithPaper('Untiered Computing Journal', '20493630');
    const arts = await journalWithPaper('Untiered Arts Journal', '33333336');
    const uncited = await journalWithPaper('Journal Without Citations', '44444444');
    const unknown = await journalWithPaper('Journal OpenAlex Lacks', '55555555');
    const scimagoTiered = await journalWithPaper('Already Ranked', '66666666', {
      tier: 3,
      system: 'scimago',
      source: 'scimago-2024',
      year: 2024,
    });
    const settings = settingsFor({ openAlexSampleSize: 200 }, { openAlexApiKey: 'test-openalex-key' });
    const run = createJournalTiersProcessor({ repositories: createIngestRepositories(database.db), settings });

    const result = await run({ data: { system: 'openalex' } });
    const year = new Date().getUTCFullYear();
    expect(result).toMatchObject({
      outcome: 'success',
      year,
      journalsLookedUp: 5,
      journalsFound: 3,
      journalsTiered: 3,
      requests: 2,
      requestLimit: DEFAULT_TIER_REFRESH_SETTINGS.openAlexMaxRequests,
    });
    // Medicine boundaries from 1-40: 35 is in the top quarter. Computing 0.1-4.0: 2.5 is in the second.
    expect(await paperTier(medicine)).toEqual({ jcr_tier: 1, tier_system: 'openalex', tier_year: year });
    expect(await paperTier(computing)).toEqual({ jcr_tier: 2, tier_system: 'openalex', tier_year: year });
    // Arts: 5 sampled journals are too few; among all 85 sampled journals 30 is in the top quarter.
    expect(await paperTier(arts)).toEqual({ jcr_tier: 1, tier_system: 'openalex', tier_year: year });
    expect((await paperTier(uncited))?.jcr_tier).toBeNull();
    expect((await paperTier(unknown))?.jcr_tier).toBeNull();
    expect(await paperTier(scimagoTiered)).toEqual({ jcr_tier: 3, tier_system: 'scimago', tier_year: 2024 });

    const [sample, batch] = openAlexRequests;
    expect(sample?.searchParams.get('filter')).toBe(
      'type:journal,works_count:>100,summary_stats.2yr_mean_citedness:>0',
    );
    expect(sample?.searchParams.get('seed')).toBe(String(year));
    expect(batch?.searchParams.get('filter')).toBe('issn:1111-1111|2049-3630|3333-3336|4444-4444|5555-5555');
    expect(openAlexRequests.every((url) => url.searchParams.get('api_key') === 'test-openalex-key')).toBe(true);

    // Idempotent: every journal was looked up, the field boundaries of the year are kept.
    expect(await run({ data: { system: 'openalex' } })).toEqual({
      outcome: 'skipped',
      reason: 'no journal without a tier to look up',
    });
    expect(openAlexRequests).toHaveLength(2);
  });

  it('does nothing without an API key', async () => {
    const run = createJournalTiersProcessor({
      repositories: createIngestRepositories(database.db),
      settings: settingsFor(),
    });
    expect(await run({ data: { system: 'openalex' } })).toEqual({
      outcome: 'skipped',
      reason: 'no OPENALEX_API_KEY set',
    });
  });
});
