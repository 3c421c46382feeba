/**
 * The built-in catalogue's coverage and cost (`pnpm bench:catalogue`).
 *
 * Coverage: per research field, the catalogue entries that serve it (key-free and with an OpenAlex
 * key), and the items one day's run stores when every key-free entry is fetched once from a local HTTP
 * server answering with the recorded real payload of its kind (each entry on emptied tables, so one
 * entry's items do not hide another's as duplicates). The recorded payloads are samples (3 arXiv items,
 * 20 Crossref works, 75 Nature items, 60 ScienceDaily news), so the stored counts show that every entry
 * runs end to end; the expected daily volume of the Crossref journals is computed from the SCImago 2024
 * export's document counts (Total Docs. 2024 / 365) when its recorded copy is present.
 *
 * Cost: requests a day for a server whose readers span all 21 fields (every entry active), from each
 * entry's schedule (runs a day) times its requests a run, against each provider's published limits.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createIngestRepositories, sql } from '../packages/db/src';
import { createTestDatabase, sharedFixturesDir } from '../packages/db/src/testing';
import { CATALOGUE_ENTRIES, OPENALEX_KEY_ENTRIES } from '../packages/ingest/src/catalogue/entries';
import { runSource } from '../packages/ingest/src/pipeline/run-source';
import { defaultIngestSettings } from '../packages/ingest/src/pipeline/settings';
import { type SourceConfig, scheduleOf } from '../packages/ingest/src/pipeline/sources-config';
import { availableKinds, pointAtServer, startCatalogueServer } from '../packages/ingest/test/helpers/catalogue-server';
import { RESEARCH_FIELD_IDS } from '../packages/shared/src';

/** How many values a cron field takes (numbers, lists, ranges, steps, "*"). */
function cronCount(field: string, min: number, max: number): number {
  const values = new Set<number>();
  for (const part of field.split(',')) {
    const [range = '*', stepText] = part.split('/');
    const step = stepText ? Number(stepText) : 1;
    let [from, to] = [min, max];
    if (range !== '*') {
      const [a, b] = range.split('-').map(Number);
      from = a ?? min;
      to = b ?? (stepText ? max : from);
    }
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return values.size;
}

/** Runs a day of a 5-field cron pattern (minute hour day month weekday; every day assumed). */
function runsPerDay(pattern: string): number {
  const [minute = '*', hour = '*'] = pattern.trim().split(/\s+/);
  return cronCount(minute, 0, 59) * cronCount(hour, 0, 23);
}

const PROVIDER: Record<SourceConfig['kind'], string> = {
  arxiv: 'arXiv',
  'arxiv-rss': 'arXiv',
  crossref: 'Crossref',
  openalex: 'OpenAlex',
  rss: 'journal sites',
  'news-rss': 'news sites',
  biorxiv: 'bioRxiv/medRxiv',
};

// Published limits (2026): arXiv one request every 3 s; Crossref about 10 requests/s in the polite pool
// (with a contact address, 5/s and 1 concurrent in the public pool since late 2025); OpenAlex about 10,000
// list calls a day with a free key and about 100 without.
const LIMITS: Record<string, string> = {
  arXiv: '28,800 (1 request / 3 s)',
  Crossref: '864,000 (10 requests/s, polite pool)',
  OpenAlex: '10,000 with a key (≈100 without)',
};

/** Expected works a day of a Crossref ISSN, from SCImago 2024's document count. */
function scimagoDailyVolume(): Map<string, number> | undefined {
  const file = path.join(sharedFixturesDir(), 'recorded/journal-tiers/scimago_all_2024_ying-ge-Journal.csv');
  if (!fs.existsSync(file)) return undefined;
  const volume = new Map<string, number>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
    const cells = line.split(';');
    const docs = Number(cells[8]);
    for (const issn of (cells[4] ?? '').replace(/"/g, '').split(/,\s*/)) {
      if (issn.trim() && Number.isFinite(docs)) volume.set(issn.trim().toUpperCase(), docs / 365);
    }
  }
  return volume;
}

function requestsPerRun(entry: SourceConfig, daily: Map<string, number> | undefined): number {
  if (entry.kind === 'crossref') {
    // One page of `rows` per ISSN, more when a day brings more works than a page holds.
    return entry.issns.reduce((sum, issn) => sum + Math.max(1, Math.ceil((daily?.get(issn) ?? 0) / entry.rows)), 0);
  }
  if (entry.kind === 'openalex') return 10; // a field's day exceeds maxItems (1,000): 10 pages of 100
  return 1;
}

async function main() {
  const kinds = availableKinds();
  const daily = scimagoDailyVolume();
  const free = CATALOGUE_ENTRIES.filter((entry) => !OPENALEX_KEY_ENTRIES.includes(entry.name));

  // ------------------------------------------------------------ one day's run against recorded payloads
  const database = await createTestDatabase();
  const server = await startCatalogueServer();
  const settings = defaultIngestSettings({ arxivMinIntervalMs: 0, httpMaxAttempts: 1 });
  const stored = new Map<string, number>();
  const started = Date.now();
  for (const entry of free) {
    if (!kinds.has(entry.kind)) continue;
    await database.db.execute(sql`TRUNCATE radar.papers, radar.news_items, radar.ingest_sources CASCADE`);
    const summary = await runSource(
      { repositories: createIngestRepositories(database.db), settings },
      pointAtServer(entry, server.url),
    );
    stored.set(entry.name, summary.counts.added);
  }
  const runSeconds = (Date.now() - started) / 1000;
  await server.close();
  await database.close();

  // ------------------------------------------------------------ coverage per field
  const rows = RESEARCH_FIELD_IDS.map((field) => {
    const mine = free.filter((entry) => entry.fields?.includes(field));
    const byKind = (kind: SourceConfig['kind']) => mine.filter((entry) => entry.kind === kind).length;
    const journals = mine.flatMap((entry) => (entry.kind === 'crossref' ? entry.issns : []));
    const expected = daily ? journals.reduce((sum, issn) => sum + (daily.get(issn) ?? 0), 0) : Number.NaN;
    return {
      field,
      sources: mine.length,
      arxiv: byKind('arxiv-rss'),
      crossrefJournals: journals.length,
      journalFeeds: byKind('rss'),
      news: byKind('news-rss'),
      withKey: mine.length + CATALOGUE_ENTRIES.filter((e) => e.kind === 'openalex' && e.fields?.includes(field)).length,
      storedPapers: mine.filter((e) => e.kind !== 'news-rss').reduce((sum, e) => sum + (stored.get(e.name) ?? 0), 0),
      storedNews: mine.filter((e) => e.kind === 'news-rss').reduce((sum, e) => sum + (stored.get(e.name) ?? 0), 0),
      crossrefPerDay: Math.round(expected),
    };
  });

  // ------------------------------------------------------------ cost per provider
  const cost = new Map<string, { entries: number; requests: number; firstRun: number }>();
  for (const entry of CATALOGUE_ENTRIES) {
    const provider = PROVIDER[entry.kind];
    const perRun = requestsPerRun(entry, daily);
    const firstRun =
      entry.kind === 'crossref'
        ? entry.issns.reduce(
            (sum, issn) => sum + Math.max(1, Math.ceil(((daily?.get(issn) ?? 0) * entry.lookbackDays) / entry.rows)),
            0,
          )
        : perRun;
    const current = cost.get(provider) ?? { entries: 0, requests: 0, firstRun: 0 };
    cost.set(provider, {
      entries: current.entries + 1,
      requests: current.requests + perRun * runsPerDay(scheduleOf(entry)),
      firstRun: current.firstRun + firstRun,
    });
  }

  const lines: string[] = [];
  lines.push(
    `catalogue: ${CATALOGUE_ENTRIES.length} entries (${free.length} key-free, ${OPENALEX_KEY_ENTRIES.length} need OPENALEX_API_KEY)`,
  );
  lines.push(
    `kinds with a recorded payload here: ${[...kinds].sort().join(', ')}; day's run of ${stored.size} entries took ${runSeconds.toFixed(1)} s`,
  );
  lines.push('');
  lines.push(
    '| field | sources (key-free) | arXiv feeds | Crossref journals | journal feeds | news feeds | with key | papers stored | news stored | Crossref works/day (SCImago 2024) |',
  );
  lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    lines.push(
      `| ${row.field} | ${row.sources} | ${row.arxiv} | ${row.crossrefJournals} | ${row.journalFeeds} | ${row.news} | ${row.withKey} | ${row.storedPapers} | ${row.storedNews} | ${Number.isNaN(row.crossrefPerDay) ? 'n/a' : row.crossrefPerDay} |`,
    );
  }
  lines.push('');
  lines.push('| provider | entries | requests/day (all fields active) | first runs (lookback) | published limit/day |');
  lines.push('| --- | --- | --- | --- | --- |');
  for (const [provider, value] of cost) {
    lines.push(
      `| ${provider} | ${value.entries} | ${value.requests} | ${value.firstRun} | ${LIMITS[provider] ?? 'none published'} |`,
    );
  }
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
